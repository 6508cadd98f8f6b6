// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Cost of one all-to-all (the expert-parallel MoE dispatch and combine) on the collective model's
// cluster.
//
// Input: the communicator (CollectiveModel: fabric, ranks, nodes) and the bytes each rank holds
// for the exchange. Mapping: every rank sends an (n-1)/n share of them, one slice to each peer, all
// slices at once through the switch: time = the fabric's base latency + one hop + wire bytes / the
// fabric's bus bandwidth. Across nodes, the (n-g)/n share bound for other nodes goes over the network
// at its per-port busbw and the slower of the two paths sets the time. Not calibrated against a
// measured all-to-all (DeepEP's or NCCL's): the fabric's all-reduce busbw stands in for the
// exchange's achievable bandwidth.
// Cost: O(1).

#include <cstdint>

#include "core/sim/collective_model.h"

namespace tpscope::core::sim {

CollectiveEstimate allToAll(const CollectiveModel& model, std::uint64_t bytesPerRank);

}  // namespace tpscope::core::sim
