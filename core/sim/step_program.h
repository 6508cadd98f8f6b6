// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The instructions of one simulated decode step, built once per run and replayed every step: each
// plan op with its stream, its dependencies, its modelled time and its interned name and payload.
//
// Without overlap every op runs on the compute stream in plan order. With overlap the collectives
// go to the nccl stream and, when the batch has at least two sequences, every decoder-layer segment
// (the ops up to and including a collective) runs twice, for two half batches, so that half B
// computes while half A's all-reduce runs; the prologue and epilogue stay whole. O(ops) to build.

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/sim/allreduce_engine.h"
#include "core/sim/collective_model.h"
#include "core/sim/kernel_model.h"
#include "core/sim/sim_params.h"
#include "core/trace/trace.h"
#include "core/workload/decode_plan.h"

namespace tpscope::core::sim {

struct StepInstr {
    const PlanOp* op = nullptr;
    bool collective = false;
    bool onComm = false;                 // on the nccl stream
    int dataDep = -1;                    // collectives on the nccl stream: the compute instruction producing the input
    std::array<int, 2> waitFor{-1, -1};  // collectives this compute instruction waits for (overlap mode)
    double baseNs = 0;                   // compute: kernel time; collective: transfer time after the last arrival
    bool memoryBound = false;
    double hbmShare = 0;  // collectives: fraction of HBM bandwidth taken while moving bytes
    bool allReduce = false;
    bool firstOfLayer = false;  // NVTX markers
    bool firstOfMlp = false;
    bool firstOfEpilogue = false;
    NameId name{};
    PayloadId payload = kNoPayload;
    EventKind kind = EventKind::Other;
};

struct StepProgram {
    std::vector<StepInstr> instrs;
    std::vector<DecodePlan> plans;  // [0] whole batch, [1] and [2] the halves when split
    bool split = false;
    std::size_t computeInstrs = 0;
    std::size_t commInstrs = 0;
    CollectiveEstimate layerAllReduce;
    std::vector<std::string> notes;  // the all-reduce engine's fall-backs, once each
};

// plans[0] must be the whole-batch plan; the halves are built here when overlap splits the batch.
Result<StepProgram> buildStepProgram(DecodePlan wholePlan, const GpuSpec& gpu, const CollectiveModel& collectives,
                                     const SimParams& params, Trace& trace);

}  // namespace tpscope::core::sim
