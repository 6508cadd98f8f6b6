// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// A sweep of simulated runs: one run per (TP, batch, context) of one model on one cluster, in
// TP-major, then batch, then context order.
// The GUI calls runSweep from a worker thread: it is a pure function of its arguments (no shared
// state, no Qt), reports progress through its SweepControl on the calling thread and stops at the
// next decode step once the control's cancel flag is set, keeping the runs already finished.
//
// Before anything runs every configuration is validated: bad parameters (TP above the GPUs
// available, TP not dividing the heads, zero tokens, ...) fail the sweep with one error; a
// configuration that does not fit GPU memory is skipped with its shortfall (unless
// ignoreMemory), and the rest still run. Cost: the sum of the runs.

#include <memory>
#include <optional>
#include <vector>

#include "core/hw/catalog.h"
#include "core/sim/defaults.h"
#include "core/sim/simulator.h"
#include "core/util/task_control.h"

namespace tpscope::core::sim {

struct SweepSpec {
    ModelSpec model;
    ClusterSpec cluster;
    std::vector<int> tps{1, 2, 4, 8};
    std::vector<int> batches{1};
    int tokens = kDefaults.tokens;
    int contextLen = kDefaults.contextLen;
    std::vector<int> contexts;  // the context axis (tokens in the KV cache); empty: {contextLen}
    Dtype dtype = Dtype::Fp16;
    std::optional<Dtype> weightDtype;  // PlanConfig's: fp8 weights / KV cache; unset: dtype
    std::optional<Dtype> kvDtype = std::nullopt;
    MoeParallel moeParallel = MoeParallel::Tensor;
    bool vocabParallel = true;  // PlanConfig's
    SimParams params;
    bool ignoreMemory = false;

    // context 0: contextLen.
    SimConfig configFor(int tp, int batch, int context = 0) const;
    std::vector<int> contextAxis() const { return contexts.empty() ? std::vector<int>{contextLen} : contexts; }
};

struct SweepRun {
    SimConfig config;
    SimStats stats;
    FitReport fit;
    std::shared_ptr<const Trace> trace;
};

struct SkippedRun {
    int tp = 0;
    int batch = 0;
    int context = 0;
    Error reason;
    FitReport fit;
};

struct SweepResult {
    std::vector<SweepRun> runs;  // in TP-major, then batch, then context order
    std::vector<SkippedRun> skipped;
    bool cancelled = false;
};

// Reported after each decode step of a run (run and skipped null, runFraction < 1) and once when a
// run finished or was skipped (done counts it; run or skipped points at it for the call only), so
// a caller can take each run as it comes (the GUI) or print a counter (the CLI).
struct SweepProgress {
    int done = 0;  // runs finished or skipped so far
    int total = 0;
    int tp = 0;  // the configuration just finished, or running
    int batch = 0;
    const SweepRun* run = nullptr;
    const SkippedRun* skipped = nullptr;
    double runFraction = 1.0;  // steps done / steps of the running configuration
    int context = 0;           // the configuration's KV-cache length
};
using SweepControl = TaskControlOf<SweepProgress>;

Result<SweepResult> runSweep(const SweepSpec& spec, const SweepControl& control = {});

// What the sweep's model makes worth saying about all its runs (MoE: the experts each batch touches
// and the weight bytes per step; core/workload/moe_summary.h); empty for a dense model.
std::vector<std::string> sweepModelNotes(const SweepSpec& spec);

// The embedded default the GUI opens on and `tpscope-cli demo` prints: llama3-70b decode on one
// 8-GPU H100 SXM node over NVLink 4, TP 1/2/4/8, batch 1, a few tokens (TP 1 does not fit), under
// the cuda-graphs runtime profile.
Result<SweepSpec> defaultSweepSpec(const Catalog& catalog);

}  // namespace tpscope::core::sim
