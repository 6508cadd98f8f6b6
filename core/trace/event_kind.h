// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Kinds of GPU activity and the payload enums shared by the simulator, the importers, the CUPTI
// collector and the analysis. Values are stored in files: append, never renumber.

#include <cstdint>
#include <optional>
#include <string_view>

namespace tpscope::core {

enum class EventKind : std::uint8_t {
    Gemm = 0,
    Attention = 1,
    Collective = 2,   // NCCL or custom all-reduce kernels
    Elementwise = 3,  // norms, activations, rotary, residual adds
    Memcpy = 4,
    Memset = 5,
    Other = 6,
};
inline constexpr int kEventKindCount = 7;

enum class CollectiveOp : std::uint8_t {
    Unknown = 0,
    AllReduce,
    AllGather,
    ReduceScatter,
    Broadcast,
    Reduce,
    AllToAll,
    SendRecv
};
enum class CollectiveAlgo : std::uint8_t { Unknown = 0, Ring, Tree, Nvls, NvlsTree, OneShot, TwoShot, CollNet, Pat };
enum class CollectiveProto : std::uint8_t { Unknown = 0, Simple, LL, LL128 };
enum class Dtype : std::uint8_t { Unknown = 0, Fp32, Fp16, Bf16, Fp8, Int8, Int32, Int64, Fp64 };
enum class CopyKind : std::uint8_t { Unknown = 0, HostToDevice, DeviceToHost, DeviceToDevice, PeerToPeer };

std::string_view toString(EventKind kind);
std::string_view toString(CollectiveOp op);
std::string_view toString(CollectiveAlgo algo);
std::string_view toString(CollectiveProto proto);
std::string_view toString(Dtype dtype);
std::string_view toString(CopyKind kind);

std::optional<EventKind> parseEventKind(std::string_view s);
std::optional<CollectiveOp> parseCollectiveOp(std::string_view s);  // "allreduce", "all_reduce", "AllReduce"
std::optional<CollectiveAlgo> parseCollectiveAlgo(std::string_view s);
std::optional<CollectiveProto> parseCollectiveProto(std::string_view s);
std::optional<Dtype> parseDtype(std::string_view s);  // "fp16", "float16", "half", "bf16", "float", ...

// Bytes per element; 0 for Unknown.
int dtypeBytes(Dtype dtype);

}  // namespace tpscope::core
