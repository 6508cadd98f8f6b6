// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/trace/event_kind.h"

namespace tpscope::core {

struct GpuSpec {
    std::string id;  // "h100-sxm"
    std::string name;
    std::uint64_t memoryBytes = 0;
    double hbmBytesPerSec = 0;
    double fp16Flops = 0;  // dense tensor-core peak
    double bf16Flops = 0;
    double fp8Flops = 0;  // 0 when the GPU has no FP8 tensor cores
    double fp32Flops = 0;
    int sms = 0;
    std::map<std::string, std::string> sources;  // field -> where the value comes from

    // Dense peak for the dtype; 0 when unsupported.
    double peakFlops(Dtype dtype) const;
    // Roofline crossover: FLOP per byte above which a kernel is compute-bound.
    double rooflineCrossover(Dtype dtype) const;
};

enum class FabricScope : std::uint8_t { IntraNode, InterNode };

// One NCCL protocol on a fabric (core/sim/collective_model.h uses these): a fixed cost per call, a
// cost per algorithm step, and the fraction of the fabric's bus bandwidth the protocol reaches.
// LL carries 4 data bytes per 8-byte flagged store (at most 1/2 of the bandwidth), LL128 120 of
// every 128 bytes, Simple all of them but with the highest per-step latency.
struct ProtocolSpec {
    double baseLatencyNs = 0;
    double hopLatencyNs = 0;
    double bandwidthFraction = 0;  // 0: the protocol is not used on this fabric
    bool operator==(const ProtocolSpec&) const = default;
};
inline constexpr int kProtocolCount = 3;
// LL = 0, LL128 = 1, Simple = 2; -1 for Unknown.
int protocolIndex(CollectiveProto proto);
CollectiveProto protocolAt(int index);

// Values of one algorithm that differ from the fabric's (NVLS reduces in the switch and reaches a
// higher bus bandwidth than the ring on the same NVLink); 0 means "the fabric's value".
struct AlgorithmSpec {
    CollectiveAlgo algo = CollectiveAlgo::Unknown;
    double baseLatencyNs = 0;
    double hopLatencyNs = 0;
    double busbwBytesPerSec = 0;
    bool operator==(const AlgorithmSpec&) const = default;
};

struct FabricSpec {
    std::string id;  // "nvlink4"
    std::string name;
    FabricScope scope = FabricScope::IntraNode;
    double linkBytesPerSec = 0;   // theoretical, per GPU per direction
    double busbwBytesPerSec = 0;  // large-message all-reduce bus bandwidth (nccl-tests convention)
    double hopLatencyNs = 0;      // per ring step
    double baseLatencyNs = 0;     // fixed cost per collective
    bool throughCpu = false;      // PCIe traffic crossing the host bridge
    int maxGpus = 0;              // GPUs one node of this fabric connects; 0 = unbounded (network)
    // Inter-node fabrics: network ports per node. busbwBytesPerSec is per port; NCCL spreads its
    // rings over the ports (one ring crossing per port), so a node moves min(GPUs, ports) x busbw.
    // 0 = one port per GPU (rail-optimised clusters: DGX/HGX with 8 NICs).
    int nicsPerNode = 0;
    std::vector<CollectiveAlgo> algorithms;
    std::array<ProtocolSpec, kProtocolCount> protocols{};  // see fillDefaultProtocols
    std::vector<AlgorithmSpec> algorithmParams;
    std::map<std::string, std::string> sources;

    bool supports(CollectiveAlgo algo) const;
    const ProtocolSpec& protocol(CollectiveProto proto) const { return protocols[protocolIndex(proto)]; }
    // The override for algo, or nullptr.
    const AlgorithmSpec* algorithmSpec(CollectiveAlgo algo) const;
};

// Fills every protocol whose bandwidthFraction is 0 from the fabric's scalar fields, with the
// ratios of NCCL's own tuning model (src/graph/tuning.cc: per-step latency of LL128 ~3x and of
// Simple ~8x that of LL on NVLink, Simple's base latency ~1.3x): LL = {base, hop, 0.5},
// LL128 = {base, 3 hop, 120/128} (NVLink only: NCCL disables LL128 through the CPU),
// Simple = {1.3 base, 8 hop, 1}. baseLatencyNs and hopLatencyNs are the LL values.
void fillDefaultProtocols(FabricSpec& fabric);

}  // namespace tpscope::core
