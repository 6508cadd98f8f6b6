// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The floors of one decode step that a user can quote (issue 12, `tpscope-cli bounds`):
//  - bandwidth-only communication floor: every collective's wire bytes per GPU / bus bandwidth
//    (core/calc/allreduce_bound.h, no latency);
//  - alpha-beta communication floor: per call, the fabric's minimum per-call latency at this GPU
//    count (the cheapest path any engine has at 0 bytes, from the collective model) + wire bytes /
//    bus bandwidth; per step, collectives per step x that latency + the step's wire bytes / busbw;
//  - HBM floor: the step's HBM bytes / HBM bandwidth (core/calc/roofline.h);
//  - the ratio alpha-beta floor / HBM floor: above 1, communication bounds decode even with
//    perfect kernels.
// Input: the decode plan (one TP group on one node of `fabric`) and the GPU. O(algorithms).

#include "core/calc/allreduce_bound.h"
#include "core/calc/roofline.h"
#include "core/hw/gpu_spec.h"
#include "core/util/result.h"
#include "core/workload/decode_plan.h"

namespace tpscope::core::sim {

struct StepFloors {
    AllReduceBound bandwidthOnly;
    double minCallLatencyNs = 0;    // alpha: the cheapest per-call latency on this fabric at tp GPUs
    double perCallAlphaBetaNs = 0;  // one layer all-reduce: alpha + wire bytes / busbw
    double perStepAlphaBetaNs = 0;  // every collective of the step
    int collectivesPerStep = 0;
    double hbmFloorNs = 0;   // step HBM bytes / HBM bandwidth; 0 without a GPU
    double commOverHbm = 0;  // perStepAlphaBetaNs / hbmFloorNs; 0 without a GPU
    // Which term of the alpha-beta step floor is larger: the calls' latency or their bytes.
    bool latencyDominates() const { return minCallLatencyNs * collectivesPerStep > bandwidthOnly.perStepAtBusbwNs; }
};

// gpu may be null: then no HBM floor. tp must fit one node of the fabric.
Result<StepFloors> stepFloors(const DecodePlan& plan, const FabricSpec& fabric, const GpuSpec* gpu);

}  // namespace tpscope::core::sim
