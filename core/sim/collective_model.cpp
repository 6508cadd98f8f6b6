// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/sim/collective_model.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace tpscope::core::sim {

namespace {

constexpr int kLL = 0;
constexpr int kSimple = 2;
// NCCL tuning.cc: the tree's bus bandwidth is 0.92 of the ring's and an all-reduce moves the
// message up and down the tree (algbw = busbw / 2).
constexpr double kTreeBandwidthFactor = 0.92 / 2.0;
// Custom all-reduce kernels synchronise the ranks with flag barriers over NVLink: one-shot at the
// start (peers' inputs ready) and at the end (buffers reusable), two-shot also between its
// reduce-scatter and all-gather stages (vLLM csrc/custom_all_reduce.cuh cross_device_reduce_1stage
// and _2stage; TensorRT-LLM's oneShot/twoShot kernels have the same barriers).
constexpr double kOneShotBarriers = 2.0;
constexpr double kTwoShotBarriers = 3.0;

bool isCustomKernel(CollectiveAlgo algo) {
    return algo == CollectiveAlgo::OneShot || algo == CollectiveAlgo::TwoShot;
}

double pick(double overrideValue, double fallback) {
    return overrideValue > 0 ? overrideValue : fallback;
}

CollectiveEstimate invalidEstimate() {
    return {};
}

}  // namespace

double algbw(std::uint64_t bytes, double timeNs) {
    return timeNs > 0 ? static_cast<double>(bytes) / timeNs * 1e9 : 0;
}

double allReduceBusbw(std::uint64_t bytes, double timeNs, int ranks) {
    if (ranks <= 1) return 0;
    return algbw(bytes, timeNs) * 2.0 * (ranks - 1) / ranks;
}

Result<CollectiveModel> CollectiveModel::create(const FabricSpec& intra, const std::optional<FabricSpec>& inter,
                                                int ranks, int gpusPerNode) {
    if (ranks < 1) return makeError(ErrorCode::InvalidArgument, "a communicator needs at least one rank", "ranks");
    if (gpusPerNode < 1) {
        return makeError(ErrorCode::InvalidArgument, "GPUs per node must be positive", "gpus per node");
    }
    if (intra.scope != FabricScope::IntraNode) {
        return makeError(ErrorCode::InvalidArgument,
                         "'" + intra.id + "' is an inter-node fabric; give it as the inter-node fabric", intra.id);
    }
    if (intra.busbwBytesPerSec <= 0) {
        return makeError(ErrorCode::InvalidArgument, "fabric has no bus bandwidth", intra.id);
    }
    CollectiveModel m;
    m.m_intra = intra;
    fillDefaultProtocols(m.m_intra);
    m.m_ranks = ranks;
    if (ranks <= gpusPerNode) {
        m.m_nodes = 1;
        m.m_gpusPerNode = ranks;
    } else {
        if (ranks % gpusPerNode != 0) {
            return makeError(
                ErrorCode::InvalidArgument,
                std::to_string(ranks) + " ranks do not fill whole nodes of " + std::to_string(gpusPerNode) + " GPUs",
                "ranks");
        }
        if (!inter) {
            return makeError(ErrorCode::InvalidArgument,
                             std::to_string(ranks) + " ranks span several nodes of " + std::to_string(gpusPerNode) +
                                 " GPUs: an inter-node fabric is needed",
                             "inter-node fabric");
        }
        m.m_nodes = ranks / gpusPerNode;
        m.m_gpusPerNode = gpusPerNode;
    }
    if (inter) {
        if (inter->scope != FabricScope::InterNode) {
            return makeError(ErrorCode::InvalidArgument, "'" + inter->id + "' connects GPUs inside a node, not nodes",
                             inter->id);
        }
        if (inter->busbwBytesPerSec <= 0) {
            return makeError(ErrorCode::InvalidArgument, "fabric has no bus bandwidth", inter->id);
        }
        m.m_inter = inter;
        fillDefaultProtocols(*m.m_inter);
    }
    if (intra.maxGpus > 0 && m.m_gpusPerNode > intra.maxGpus) {
        return makeError(ErrorCode::InvalidArgument,
                         intra.name + " connects at most " + std::to_string(intra.maxGpus) + " GPUs, not " +
                             std::to_string(m.m_gpusPerNode),
                         intra.id);
    }
    return m;
}

double CollectiveModel::networkBusbw() const {
    const int ports = m_inter->nicsPerNode > 0 ? std::min(m_gpusPerNode, m_inter->nicsPerNode) : m_gpusPerNode;
    return m_inter->busbwBytesPerSec * ports;
}

CollectiveEstimate CollectiveModel::ring(double bytes, int p, double wireFactor, int steps, int interSteps) const {
    const auto& pi = m_intra.protocols[static_cast<std::size_t>(p)];
    const AlgorithmSpec* oi = m_intra.algorithmSpec(CollectiveAlgo::Ring);
    const double baseIntra = pick(oi ? oi->baseLatencyNs : 0, pi.baseLatencyNs);
    const double hopIntra = pick(oi ? oi->hopLatencyNs : 0, pi.hopLatencyNs);
    const double bwIntra = pick(oi ? oi->busbwBytesPerSec : 0, m_intra.busbwBytesPerSec) * pi.bandwidthFraction;
    CollectiveEstimate e;
    e.algo = CollectiveAlgo::Ring;
    e.proto = protocolAt(p);
    double bw = bwIntra;
    if (m_nodes == 1) {
        e.latencyNs = baseIntra + steps * hopIntra;
    } else {
        const auto& pn = m_inter->protocols[static_cast<std::size_t>(p)];
        const double bwInter = networkBusbw() * pn.bandwidthFraction;
        e.latencyNs =
            std::max(baseIntra, pn.baseLatencyNs) + (steps - interSteps) * hopIntra + interSteps * pn.hopLatencyNs;
        // The slowest hop bounds the ring; with one GPU per node there is no intra-node hop at all.
        bw = m_gpusPerNode > 1 ? std::min(bwIntra, bwInter) : bwInter;
    }
    e.bandwidthNs = bytes * wireFactor / bw * 1e9;
    return e;
}

CollectiveEstimate CollectiveModel::estimate(std::uint64_t bytesIn, CollectiveAlgo algo, int p) const {
    const auto bytes = static_cast<double>(bytesIn);
    const int n = m_ranks;
    const bool customKernel = isCustomKernel(algo);
    if (customKernel != (p < 0) || p >= kProtocolCount) return invalidEstimate();
    if (p >= 0) {
        if (m_intra.protocols[static_cast<std::size_t>(p)].bandwidthFraction <= 0) return invalidEstimate();
        if (m_nodes > 1 && m_inter->protocols[static_cast<std::size_t>(p)].bandwidthFraction <= 0) {
            return invalidEstimate();
        }
    }
    if (n <= 1) return CollectiveEstimate{algo, protocolAt(p), 0, 0};
    const double wire = 2.0 * (n - 1) / n;
    switch (algo) {
        case CollectiveAlgo::Ring: {
            const bool allowed = m_intra.supports(algo) || (m_nodes > 1 && m_inter->supports(algo));
            return allowed ? ring(bytes, p, wire, 2 * (n - 1), 2 * (m_nodes - 1)) : invalidEstimate();
        }
        case CollectiveAlgo::Tree: {
            if (m_nodes == 1 || !m_inter->supports(algo)) return invalidEstimate();
            const auto& pi = m_intra.protocols[static_cast<std::size_t>(p)];
            const auto& pn = m_inter->protocols[static_cast<std::size_t>(p)];
            const int treeDepth = static_cast<int>(std::ceil(std::log2(static_cast<double>(m_nodes))));
            CollectiveEstimate e{algo, protocolAt(p), 0, 0};
            e.latencyNs = std::max(pi.baseLatencyNs, pn.baseLatencyNs) + 2.0 * (m_gpusPerNode - 1) * pi.hopLatencyNs +
                          2.0 * treeDepth * pn.hopLatencyNs;
            const double bwInter = networkBusbw() * pn.bandwidthFraction;
            const double bwIntra = m_intra.busbwBytesPerSec * pi.bandwidthFraction;
            const double bw = (m_gpusPerNode > 1 ? std::min(bwIntra, bwInter) : bwInter) * kTreeBandwidthFactor;
            e.bandwidthNs = bytes / bw * 1e9;
            return e;
        }
        case CollectiveAlgo::Nvls: {
            if (m_nodes > 1 || !m_intra.supports(algo) || p != kSimple) return invalidEstimate();
            const auto& ps = m_intra.protocols[kSimple];
            const AlgorithmSpec* o = m_intra.algorithmSpec(algo);
            CollectiveEstimate e{algo, CollectiveProto::Simple, 0, 0};
            e.latencyNs =
                pick(o ? o->baseLatencyNs : 0, ps.baseLatencyNs) + 2.0 * pick(o ? o->hopLatencyNs : 0, ps.hopLatencyNs);
            e.bandwidthNs = bytes * wire / pick(o ? o->busbwBytesPerSec : 0, m_intra.busbwBytesPerSec) * 1e9;
            return e;
        }
        case CollectiveAlgo::OneShot:
        case CollectiveAlgo::TwoShot: {
            if (m_nodes > 1 || !m_intra.supports(algo)) return invalidEstimate();
            const auto& pl = m_intra.protocols[kLL];
            const AlgorithmSpec* o = m_intra.algorithmSpec(algo);
            const bool oneShot = algo == CollectiveAlgo::OneShot;
            CollectiveEstimate e{algo, CollectiveProto::Unknown, 0, 0};
            e.latencyNs =
                pick(o ? o->baseLatencyNs : 0, pl.baseLatencyNs) +
                (oneShot ? kOneShotBarriers : kTwoShotBarriers) * pick(o ? o->hopLatencyNs : 0, pl.hopLatencyNs);
            const double peerBw = pick(o ? o->busbwBytesPerSec : 0, m_intra.linkBytesPerSec);
            e.bandwidthNs = (oneShot ? bytes * (n - 1) : bytes * wire) / peerBw * 1e9;
            return e;
        }
        default:
            return invalidEstimate();
    }
}

CollectiveEstimate CollectiveModel::allReduce(std::uint64_t bytes, CollectiveAlgo algo, CollectiveProto proto) const {
    return estimate(bytes, algo, protocolIndex(proto));
}

std::vector<CollectiveEstimate> CollectiveModel::allReduceCandidates(std::uint64_t bytes) const {
    std::vector<CollectiveEstimate> out;
    std::vector<CollectiveAlgo> algos = m_intra.algorithms;
    if (m_inter) {
        for (const auto a : m_inter->algorithms) {
            if (std::find(algos.begin(), algos.end(), a) == algos.end()) algos.push_back(a);
        }
    }
    for (const auto algo : algos) {
        if (isCustomKernel(algo)) {
            if (auto e = estimate(bytes, algo, -1); e.valid()) out.push_back(e);
            continue;
        }
        for (int p = 0; p < kProtocolCount; ++p) {
            if (auto e = estimate(bytes, algo, p); e.valid()) out.push_back(e);
        }
    }
    return out;
}

CollectiveEstimate CollectiveModel::allReduce(std::uint64_t bytes) const {
    CollectiveEstimate best;
    double bestNs = std::numeric_limits<double>::infinity();
    auto consider = [&](const CollectiveEstimate& e) {
        if (e.valid() && e.timeNs() < bestNs) {
            best = e;
            bestNs = e.timeNs();
        }
    };
    // NCCL's tuner: custom kernels (one-shot, two-shot) belong to the serving engines
    // (core/sim/allreduce_engine.h), not to NCCL.
    for (const auto algo : m_intra.algorithms) {
        if (isCustomKernel(algo)) continue;
        for (int p = 0; p < kProtocolCount; ++p) consider(estimate(bytes, algo, p));
    }
    if (m_inter) {
        for (const auto algo : m_inter->algorithms) {
            if (m_intra.supports(algo)) continue;
            for (int p = 0; p < kProtocolCount; ++p) consider(estimate(bytes, algo, p));
        }
    }
    return best;
}

CollectiveEstimate CollectiveModel::allGather(std::uint64_t bytesPerRank) const {
    const int n = m_ranks;
    CollectiveEstimate best;
    if (n <= 1) return CollectiveEstimate{CollectiveAlgo::Ring, CollectiveProto::LL, 0, 0};
    const double total = static_cast<double>(bytesPerRank) * n;
    for (int p = 0; p < kProtocolCount; ++p) {
        if (m_intra.protocols[static_cast<std::size_t>(p)].bandwidthFraction <= 0) continue;
        if (m_nodes > 1 && m_inter->protocols[static_cast<std::size_t>(p)].bandwidthFraction <= 0) continue;
        const auto e = ring(total, p, static_cast<double>(n - 1) / n, n - 1, m_nodes - 1);
        if (!best.valid() || e.timeNs() < best.timeNs()) best = e;
    }
    return best;
}

}  // namespace tpscope::core::sim
