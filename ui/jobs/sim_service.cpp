// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/jobs/sim_service.h"

namespace tpscope::ui {

core::Result<SweepRequest> defaultSweepRequest(const core::Catalog& catalog, double pricePerGpuHour) {
    core::sim::SweepSpec spec;
    TPSCOPE_TRY_ASSIGN(spec, core::sim::defaultSweepSpec(catalog));
    SweepRequest sweep;
    RunRequest& base = sweep.base;
    base.model = spec.model;
    base.dtype = spec.dtype;
    base.moeParallel = spec.moeParallel;
    base.tokens = spec.tokens;
    base.contextLen = spec.contextLen;
    base.backend = BackendKind::SimulatedCluster;
    base.gpu = spec.cluster.gpu;
    base.fabric = spec.cluster.intraFabric;
    base.interFabric = spec.cluster.interFabric;
    base.nodes = spec.cluster.nodes;
    base.gpusPerNode = spec.cluster.gpusPerNode;
    base.overlap = spec.params.overlap;
    base.runtime = spec.params.effectiveRuntime();
    base.allReduceEngine = spec.params.allReduceEngine;
    base.seed = spec.params.seed;
    base.pricePerGpuHour = pricePerGpuHour;
    sweep.tps = spec.tps;
    sweep.batches = spec.batches;
    return sweep;
}

core::sim::SweepSpec sweepSpecOf(const SweepRequest& sweep) {
    const RunRequest& base = sweep.base;
    core::sim::SweepSpec spec;
    spec.model = base.model;
    spec.cluster.gpu = base.gpu;
    spec.cluster.intraFabric = base.fabric;
    spec.cluster.interFabric = base.interFabric;
    spec.cluster.nodes = base.nodes;
    spec.cluster.gpusPerNode = base.gpusPerNode;
    spec.tps = sweep.tps;
    spec.batches = sweep.batches;
    spec.tokens = base.tokens;
    spec.contextLen = base.contextLen;
    spec.dtype = base.dtype;
    spec.moeParallel = base.moeParallel;  // the skew travels in the model (MoeDims::routingSkew)
    spec.params.seed = base.seed;
    spec.params.overlap = base.overlap;
    spec.params.setRuntime(base.runtime);
    spec.params.allReduceEngine = base.allReduceEngine;
    return spec;
}

core::Status runSimulatedSweep(const SweepRequest& sweep, const SweepCallbacks& callbacks, const CancelFlag& cancel) {
    const auto progress = [&](const core::sim::SweepProgress& p) {
        if (p.run != nullptr) {
            RunOutcome outcome;
            outcome.trace = p.run->trace;
            outcome.simStats = p.run->stats;
            deriveRunData(outcome, p.batch);
            if (callbacks.finished) callbacks.finished(p.done - 1, std::move(outcome));
        } else if (p.skipped != nullptr) {
            if (callbacks.failed) callbacks.failed(p.done - 1, p.skipped->reason);
        } else if (callbacks.progress) {
            callbacks.progress(p.done, p.runFraction);
        }
    };
    auto result = core::sim::runSweep(sweepSpecOf(sweep), {progress, &cancel});
    if (!result) return result.error();
    if (result->cancelled) return core::makeError(core::ErrorCode::Cancelled, "sweep cancelled");
    return core::Ok{};
}

core::Result<RunRecord> replayWhatIf(const std::shared_ptr<const core::Trace>& measured,
                                     const core::sim::WhatIfOptions& options, RunRecord base,
                                     const TaskControl& control) {
    auto replay = core::sim::runWhatIf(*measured, core::analysis::AnalysisOptions{}, options, control);
    if (!replay) return replay.error();
    base.status = RunStatus::Done;
    base.progress = 1;
    base.trace = replay->replay.trace;
    base.analysis = std::make_shared<const core::analysis::RunAnalysis>(std::move(replay->predicted));
    deriveRunData(base);
    return base;
}

}  // namespace tpscope::ui
