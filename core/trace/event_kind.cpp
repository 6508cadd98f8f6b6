// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/trace/event_kind.h"

#include <algorithm>
#include <array>
#include <string>
#include <utility>

namespace tpscope::core {

namespace {

// Lowercase (ASCII) and drop '_', '-' and ' ' so "All_Reduce", "allreduce" and "all-reduce" compare
// equal. Into a stack buffer: importers look up a name per record. A name longer than the buffer
// matches no table entry (the longest is 17 characters), so it is cut, not reported.
class Normalized {
  public:
    explicit Normalized(std::string_view s) {
        for (const char c : s) {
            if (c == '_' || c == '-' || c == ' ') continue;
            if (m_size == sizeof m_text) {
                m_overflow = true;
                break;
            }
            m_text[m_size++] = c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
        }
    }
    bool equals(std::string_view name) const { return !m_overflow && name == std::string_view(m_text, m_size); }

  private:
    char m_text[32];
    std::size_t m_size = 0;
    bool m_overflow = false;
};

template <typename E, std::size_t N>
std::optional<E> lookup(const std::array<std::pair<std::string_view, E>, N>& table, std::string_view s) {
    const Normalized key(s);
    for (const auto& [name, value] : table) {
        if (key.equals(name)) return value;
    }
    return std::nullopt;
}

}  // namespace

std::string_view toString(EventKind kind) {
    switch (kind) {
        case EventKind::Gemm:
            return "gemm";
        case EventKind::Attention:
            return "attention";
        case EventKind::Collective:
            return "collective";
        case EventKind::Elementwise:
            return "elementwise";
        case EventKind::Memcpy:
            return "memcpy";
        case EventKind::Memset:
            return "memset";
        case EventKind::Other:
            return "other";
    }
    return "other";
}

std::string_view toString(CollectiveOp op) {
    switch (op) {
        case CollectiveOp::AllReduce:
            return "all_reduce";
        case CollectiveOp::AllGather:
            return "all_gather";
        case CollectiveOp::ReduceScatter:
            return "reduce_scatter";
        case CollectiveOp::Broadcast:
            return "broadcast";
        case CollectiveOp::Reduce:
            return "reduce";
        case CollectiveOp::AllToAll:
            return "all_to_all";
        case CollectiveOp::SendRecv:
            return "send_recv";
        case CollectiveOp::Unknown:
            break;
    }
    return "unknown";
}

std::string_view toString(CollectiveAlgo algo) {
    switch (algo) {
        case CollectiveAlgo::Ring:
            return "ring";
        case CollectiveAlgo::Tree:
            return "tree";
        case CollectiveAlgo::Nvls:
            return "nvls";
        case CollectiveAlgo::NvlsTree:
            return "nvls_tree";
        case CollectiveAlgo::OneShot:
            return "one_shot";
        case CollectiveAlgo::TwoShot:
            return "two_shot";
        case CollectiveAlgo::CollNet:
            return "collnet";
        case CollectiveAlgo::Pat:
            return "pat";
        case CollectiveAlgo::Unknown:
            break;
    }
    return "unknown";
}

std::string_view toString(CollectiveProto proto) {
    switch (proto) {
        case CollectiveProto::Simple:
            return "simple";
        case CollectiveProto::LL:
            return "ll";
        case CollectiveProto::LL128:
            return "ll128";
        case CollectiveProto::Unknown:
            break;
    }
    return "unknown";
}

std::string_view toString(Dtype dtype) {
    switch (dtype) {
        case Dtype::Fp32:
            return "fp32";
        case Dtype::Fp16:
            return "fp16";
        case Dtype::Bf16:
            return "bf16";
        case Dtype::Fp8:
            return "fp8";
        case Dtype::Int8:
            return "int8";
        case Dtype::Int32:
            return "int32";
        case Dtype::Int64:
            return "int64";
        case Dtype::Fp64:
            return "fp64";
        case Dtype::Unknown:
            break;
    }
    return "unknown";
}

std::string_view toString(CopyKind kind) {
    switch (kind) {
        case CopyKind::HostToDevice:
            return "htod";
        case CopyKind::DeviceToHost:
            return "dtoh";
        case CopyKind::DeviceToDevice:
            return "dtod";
        case CopyKind::PeerToPeer:
            return "ptop";
        case CopyKind::Unknown:
            break;
    }
    return "unknown";
}

std::optional<EventKind> parseEventKind(std::string_view s) {
    static constexpr std::array<std::pair<std::string_view, EventKind>, 7> kTable{
        {{"gemm", EventKind::Gemm},
         {"attention", EventKind::Attention},
         {"collective", EventKind::Collective},
         {"elementwise", EventKind::Elementwise},
         {"memcpy", EventKind::Memcpy},
         {"memset", EventKind::Memset},
         {"other", EventKind::Other}}};
    return lookup(kTable, s);
}

std::optional<CollectiveOp> parseCollectiveOp(std::string_view s) {
    static constexpr std::array<std::pair<std::string_view, CollectiveOp>, 11> kTable{
        {{"allreduce", CollectiveOp::AllReduce},
         {"allgather", CollectiveOp::AllGather},
         {"allgatherbase", CollectiveOp::AllGather},
         {"reducescatter", CollectiveOp::ReduceScatter},
         {"reducescatterbase", CollectiveOp::ReduceScatter},
         {"broadcast", CollectiveOp::Broadcast},
         {"reduce", CollectiveOp::Reduce},
         {"alltoall", CollectiveOp::AllToAll},
         {"alltoallv", CollectiveOp::AllToAll},
         {"sendrecv", CollectiveOp::SendRecv},
         {"send", CollectiveOp::SendRecv}}};
    return lookup(kTable, s);
}

std::optional<CollectiveAlgo> parseCollectiveAlgo(std::string_view s) {
    static constexpr std::array<std::pair<std::string_view, CollectiveAlgo>, 8> kTable{
        {{"ring", CollectiveAlgo::Ring},
         {"tree", CollectiveAlgo::Tree},
         {"nvls", CollectiveAlgo::Nvls},
         {"nvlstree", CollectiveAlgo::NvlsTree},
         {"oneshot", CollectiveAlgo::OneShot},
         {"twoshot", CollectiveAlgo::TwoShot},
         {"collnet", CollectiveAlgo::CollNet},
         {"pat", CollectiveAlgo::Pat}}};
    return lookup(kTable, s);
}

std::optional<CollectiveProto> parseCollectiveProto(std::string_view s) {
    static constexpr std::array<std::pair<std::string_view, CollectiveProto>, 3> kTable{
        {{"simple", CollectiveProto::Simple}, {"ll", CollectiveProto::LL}, {"ll128", CollectiveProto::LL128}}};
    return lookup(kTable, s);
}

std::optional<Dtype> parseDtype(std::string_view s) {
    static constexpr std::array<std::pair<std::string_view, Dtype>, 18> kTable{{{"fp32", Dtype::Fp32},
                                                                                {"float32", Dtype::Fp32},
                                                                                {"float", Dtype::Fp32},
                                                                                {"fp16", Dtype::Fp16},
                                                                                {"float16", Dtype::Fp16},
                                                                                {"half", Dtype::Fp16},
                                                                                {"bf16", Dtype::Bf16},
                                                                                {"bfloat16", Dtype::Bf16},
                                                                                {"fp8", Dtype::Fp8},
                                                                                {"float8", Dtype::Fp8},
                                                                                {"e4m3", Dtype::Fp8},
                                                                                {"float8e4m3fn", Dtype::Fp8},
                                                                                {"int8", Dtype::Int8},
                                                                                {"int8t", Dtype::Int8},
                                                                                {"int32", Dtype::Int32},
                                                                                {"int64", Dtype::Int64},
                                                                                {"fp64", Dtype::Fp64},
                                                                                {"double", Dtype::Fp64}}};
    return lookup(kTable, s);
}

int dtypeBytes(Dtype dtype) {
    switch (dtype) {
        case Dtype::Fp32:
        case Dtype::Int32:
            return 4;
        case Dtype::Fp16:
        case Dtype::Bf16:
            return 2;
        case Dtype::Fp8:
        case Dtype::Int8:
            return 1;
        case Dtype::Int64:
        case Dtype::Fp64:
            return 8;
        case Dtype::Unknown:
            break;
    }
    return 0;
}

}  // namespace tpscope::core
