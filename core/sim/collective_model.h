// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Cost model of one collective on a simulated cluster (DESIGN.md §4): the time from the last rank's
// arrival until every rank's kernel ends (the "transfer" of DESIGN.md §5; waiting for late ranks is
// the simulator's business, not this model's).
//
// Input: the intra-node fabric, optionally an inter-node fabric, the communicator size and the GPUs
// per node. For every algorithm the fabric lists and every protocol it allows:
//   time = base latency + steps x per-step latency + wire bytes / (bus bandwidth x protocol fraction)
// with NCCL's step counts and its bus-bandwidth convention (busbw = algbw x 2(n-1)/n for all-reduce):
//   ring     2(n-1) steps, 2(n-1)/n x S on the wire; over several nodes 2(K-1) of the steps cross
//            the network and the slowest hop's bandwidth bounds the whole ring: min(intra busbw,
//            network busbw per port x ports used per node) (NCCL runs one ring crossing per port);
//   tree     several nodes only (NCCL's choice on one node is the ring): a chain of 2(g-1) steps
//            inside each node plus 2 ceil(log2 K) network steps; bandwidth 0.92 x busbw / 2 (tuning.cc);
//   nvls     NVLink SHARP: 2 steps (to the switch and back), Simple protocol only, its own busbw;
//   one_shot custom all-reduce: 2 flag barriers (start, end), every rank reads the n-1 peer buffers
//            (n-1) x S at the algorithm's bandwidth (default: link bandwidth);
//   two_shot reduce-scatter + all-gather by direct loads: 3 barriers, 2(n-1)/n x S.
// Base latency is the launch and setup of the kernel on that path (NCCL's is heavier than a custom
// kernel's); per-step latency is one protocol hop (LL's flag, LL128's line, Simple's FIFO slot).
// allReduce(bytes) is NCCL's choice: the cheapest NCCL (algorithm, protocol), as its tuner does
// with its own model; the serving engines' choices (custom kernels) are core/sim/allreduce_engine.h.
// Cost: O(algorithms x protocols) per call, no allocation on the allReduce path.

#include <cstdint>
#include <optional>
#include <vector>

#include "core/hw/gpu_spec.h"
#include "core/util/result.h"

namespace tpscope::core::sim {

struct CollectiveEstimate {
    CollectiveAlgo algo = CollectiveAlgo::Unknown;
    CollectiveProto proto = CollectiveProto::Unknown;
    double latencyNs = 0;    // base + steps x per-step latency
    double bandwidthNs = 0;  // wire bytes / effective bandwidth
    double timeNs() const { return latencyNs + bandwidthNs; }
    bool valid() const { return algo != CollectiveAlgo::Unknown; }
};

class CollectiveModel {
  public:
    // ranks GPUs, gpusPerNode of them per node: a communicator larger than one node needs an
    // inter-node fabric and a whole number of nodes.
    static Result<CollectiveModel> create(const FabricSpec& intra, const std::optional<FabricSpec>& inter, int ranks,
                                          int gpusPerNode);

    int ranks() const { return m_ranks; }
    int nodes() const { return m_nodes; }
    int gpusPerNode() const { return m_gpusPerNode; }
    const FabricSpec& intra() const { return m_intra; }
    const std::optional<FabricSpec>& inter() const { return m_inter; }

    // NCCL's choice: the cheapest NCCL algorithm and protocol for an all-reduce of `bytes` per rank
    // (one-shot/two-shot are not NCCL's); zero time at 1 rank.
    CollectiveEstimate allReduce(std::uint64_t bytes) const;
    // A forced choice; invalid() when the fabric or the topology does not allow it.
    CollectiveEstimate allReduce(std::uint64_t bytes, CollectiveAlgo algo, CollectiveProto proto) const;
    // Every allowed (algorithm, protocol) with its estimate, in the order tried.
    std::vector<CollectiveEstimate> allReduceCandidates(std::uint64_t bytes) const;
    // Ring all-gather of bytesPerRank from every rank: n-1 steps, (n-1) x bytesPerRank on the wire.
    CollectiveEstimate allGather(std::uint64_t bytesPerRank) const;

  private:
    CollectiveModel() = default;
    CollectiveEstimate estimate(std::uint64_t bytes, CollectiveAlgo algo, int protoIndex) const;
    double networkBusbw() const;  // per-port busbw x ports a node uses
    CollectiveEstimate ring(double bytes, int protoIndex, double wireFactor, int steps, int interSteps) const;

    FabricSpec m_intra;
    std::optional<FabricSpec> m_inter;
    int m_ranks = 1;
    int m_nodes = 1;
    int m_gpusPerNode = 1;
};

// Bus bandwidth of an all-reduce as nccl-tests reports it: bytes / time x 2(n-1)/n.
double allReduceBusbw(std::uint64_t bytes, double timeNs, int ranks);
double algbw(std::uint64_t bytes, double timeNs);

}  // namespace tpscope::core::sim
