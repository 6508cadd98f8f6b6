// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// What the run panel asks for and what a finished run holds: plain value types that cross from the
// worker threads to the GUI thread in signals.

#include <QMetaType>
#include <QString>

#include <memory>
#include <optional>
#include <vector>

#include "core/analysis/analysis.h"
#include "core/hw/gpu_spec.h"
#include "core/sim/sim_params.h"
#include "core/sim/simulator.h"
#include "core/trace/event_kind.h"
#include "core/trace/trace.h"
#include "core/workload/decode_plan.h"
#include "core/workload/model.h"
#include "ui/document/run_id.h"

namespace tpscope::ui {

class TimelineData;

enum class BackendKind { SimulatedCluster, LocalGpus, Imported };

struct RunRequest {
    core::ModelSpec model;  // a MoE model's routing skew is model.moe.routingSkew (`--routing-skew`)
    core::Dtype dtype = core::Dtype::Fp16;
    // How a MoE model's experts are split across the TP group (`--moe-parallel tp|ep`); Tensor for a
    // dense model.
    core::MoeParallel moeParallel = core::MoeParallel::Tensor;
    int tp = 1;
    int batch = 1;
    // Defaults: the one table (core/sim/defaults.h), as the CLI.
    int tokens = core::sim::kDefaults.tokens;  // decode steps to run (one new token per sequence per step)
    int contextLen = core::sim::kDefaults.contextLen;
    BackendKind backend = BackendKind::SimulatedCluster;
    core::GpuSpec gpu;
    core::FabricSpec fabric;
    std::optional<core::FabricSpec> interFabric;  // between nodes; required when nodes > 1
    int nodes = 1;
    int gpusPerNode = core::sim::kDefaults.gpusPerNode;
    bool overlap = false;  // overlap communication with the next layer's compute
    // The host runtime that launches the kernels (SimParams::runtime, `simulate --runtime`); on local
    // GPUs cuda-graphs captures and replays the step, the other two launch eagerly.
    core::sim::Runtime runtime = core::sim::kDefaults.runtime;
    // Whose all-reduce the simulator runs (SimParams::allReduceEngine, `simulate --allreduce`).
    core::sim::AllReduceEngine allReduceEngine = core::sim::AllReduceEngine::Nccl;
    double pricePerGpuHour = 0;
    std::uint64_t seed = core::sim::kDefaults.seed;  // one seed for the whole sweep, as `tpscope-cli simulate --seed`

    QString label() const;  // "TP 4 · batch 8 · 4 tokens"
    // The decode plan this request runs (model, TP, batch, context, dtype, expert placement): what the
    // simulator, the GPU backend and the workspace's run description are given.
    core::PlanConfig plan() const;
    QString backendText() const;  // "sim 1×8 h100-sxm, nvlink4, cuda-graphs"
};

// A sweep is the product of TP degrees and batch sizes over one base request.
struct SweepRequest {
    RunRequest base;
    std::vector<int> tps;
    std::vector<int> batches;
    // TP-major, then batch: the order of core::sim::runSweep, so index i is the sweep's i-th run.
    std::vector<RunRequest> expand() const;
};

// The step statistic of tpscope is the mean (DESIGN.md §5): tokens/s = batch / mean step latency,
// as in every `--json`. Copied from the run's RunAnalysis summary; the ui never computes it.
struct RunMetrics {
    double stepLatencyNs = 0;  // mean decode-step wall time
    double tokensPerSec = 0;   // batch / mean step latency; 0 when the batch is unknown
    int steps = 0;
};

// DoesNotFit: a simulated configuration the GPU memory cannot hold (core's DoesNotFit). Not a failure:
// the default sweep has one (TP 1 of a 70B model), so the table, the report and the status bar show
// it in a neutral state of its own with core's "does not fit: needs X of Y" (issue 45 §3).
enum class RunStatus { Pending, Running, Done, Failed, Cancelled, DoesNotFit };

struct RunRecord {
    RunId id = RunId::None;  // assigned by RunDocument
    int sweep = 0;           // sweep number in this session; 0 for runs that were opened
    RunRequest request;
    RunStatus status = RunStatus::Pending;
    double progress = 0;  // 0..1 while running
    QString error;        // why it failed
    QString source;       // file it came from, or empty for a run made here
    std::shared_ptr<const core::Trace> trace;
    std::shared_ptr<const TimelineData> timeline;  // derived on the worker thread with the trace
    // Computed once, on the worker that produced the trace; every view reads it, none recomputes it.
    std::shared_ptr<const core::analysis::RunAnalysis> analysis;
    RunMetrics metrics;
    std::optional<core::sim::SimStats> simStats;  // a simulated run's own numbers (`simulate --json`)

    QString label() const;
};

QString statusText(RunStatus status);
// How far a sweep got: runs with a trace, failed, not fitting memory, and all of them.
struct SweepCounts {
    int finished = 0;
    int failed = 0;
    int notFitting = 0;
    int total = 0;
};

// A run that ended without a trace and keeps why (Failed, DoesNotFit): saved with its reason.
bool endedWithReason(RunStatus status);

}  // namespace tpscope::ui

Q_DECLARE_METATYPE(tpscope::ui::RunRecord)
