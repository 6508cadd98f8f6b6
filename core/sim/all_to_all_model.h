// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Cost of one all-to-all (the expert-parallel MoE dispatch and combine) on the collective model's
// cluster.
//
// Input: the communicator (CollectiveModel: fabric, ranks, nodes) and the bytes each rank holds
// for the exchange. Mapping: every rank sends an (n-1)/n share of them, one slice to each peer, all
// slices at once through the switch: time = the fabric's base latency + one hop + wire bytes / the
// exchange's bandwidth. Across nodes, the (n-g)/n share bound for other nodes goes over the network
// at its per-port busbw and the slower of the two paths sets the time.
//
// Calibration: the exchange's bandwidth inside a node is kAllToAllShareOfBusbw x the fabric's ring
// busbw. The share is fitted to DeepEP's published intranode all-to-all on NVLink 5
// (github.com/deepseek-ai/DeepEP README, "Performance", V2: SM100, EP 8 over NVLink, 8K tokens,
// hidden 7168, top-8, FP8 dispatch / BF16 combine, 64 SMs): 726 GB/s dispatch and 740 GB/s combine
// "logical bandwidth", i.e. every byte a rank receives, its own share included. The wire share is
// 7/8 of that, 635 and 648 GB/s, mean 641 GB/s, against nvlink5's 724 GB/s ring busbw: 0.886.
// Measured on NVLink 5 only; on other intra-node fabrics the same share of their ring busbw is an
// assumption. Latency is not fitted (DeepEP publishes bandwidths at 8K tokens, where 7 us of start-up
// is about 2 % of a call), nor the network path (DeepEP's RDMA figures mix in NVLink forwarding).
// Test: tests/core/sim/published_fabric_fits_test.cpp recomputes the share from the two figures.
// Cost: O(1).

#include <cstdint>

#include "core/sim/collective_model.h"

namespace tpscope::core::sim {

// DeepEP V2 on NVLink 5 at EP 8 (see above): logical GB/s of dispatch and combine, and the ring busbw
// of the fabric preset it is set against (fabrics.json nvlink5).
inline constexpr double kDeepEpNvlink5DispatchGBs = 726;
inline constexpr double kDeepEpNvlink5CombineGBs = 740;
inline constexpr int kDeepEpNvlink5Ranks = 8;
inline constexpr double kNvlink5RingBusbwGBs = 724;
inline constexpr double kAllToAllShareOfBusbw = (kDeepEpNvlink5DispatchGBs + kDeepEpNvlink5CombineGBs) / 2 *
                                                (kDeepEpNvlink5Ranks - 1) / kDeepEpNvlink5Ranks / kNvlink5RingBusbwGBs;

CollectiveEstimate allToAll(const CollectiveModel& model, std::uint64_t bytesPerRank);

}  // namespace tpscope::core::sim
