// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/sim/sweep.h"

#include <string>

#include "core/workload/moe_summary.h"

namespace tpscope::core::sim {

SimConfig SweepSpec::configFor(int tp, int batch, int context) const {
    SimConfig c;
    c.plan.model = model;
    c.plan.tp = tp;
    c.plan.batch = batch;
    c.plan.contextLen = context > 0 ? context : contextLen;
    c.plan.dtype = dtype;
    c.plan.weightDtype = weightDtype;
    c.plan.kvDtype = kvDtype;
    c.plan.moeParallel = moeParallel;
    c.plan.vocabParallel = vocabParallel;
    c.cluster = cluster;
    c.tokens = tokens;
    c.params = params;
    c.ignoreMemory = ignoreMemory;
    return c;
}

std::vector<std::string> sweepModelNotes(const SweepSpec& spec) {
    std::vector<PlanConfig> configs;
    for (const int tp : spec.tps) {
        for (const int batch : spec.batches) configs.push_back(spec.configFor(tp, batch).plan);
    }
    return moeTrafficNotes(configs);
}

namespace {

SweepProgress withContext(SweepProgress p, int context) {
    p.context = context;
    return p;
}

}  // namespace

Result<SweepResult> runSweep(const SweepSpec& spec, const SweepControl& control) {
    if (spec.tps.empty() || spec.batches.empty()) {
        return makeError(ErrorCode::InvalidArgument, "a sweep needs at least one TP degree and one batch size",
                         "sweep");
    }
    struct Planned {
        SimConfig config;
        bool skip = false;
        Error reason;
    };
    std::vector<Planned> planned;
    const std::vector<int> contexts = spec.contextAxis();
    for (const int tp : spec.tps) {
        for (const int batch : spec.batches) {
            for (const int context : contexts) {
                Planned p{spec.configFor(tp, batch, context), false, {}};
                if (auto status = validateConfig(p.config); !status) {
                    if (status.error().code != ErrorCode::DoesNotFit) {
                        Error e = status.error();
                        e.context = "TP " + std::to_string(tp) + ", batch " + std::to_string(batch) +
                                    (contexts.size() > 1 ? ", context " + std::to_string(context) : std::string()) +
                                    (e.context.empty() ? "" : " (" + e.context + ")");
                        return e;
                    }
                    p.skip = true;
                    p.reason = status.error();
                }
                planned.push_back(std::move(p));
            }
        }
    }
    SweepResult result;
    const int total = static_cast<int>(planned.size());
    int done = 0;
    for (auto& p : planned) {
        if (control.cancelled()) {
            result.cancelled = true;
            break;
        }
        const int tp = p.config.plan.tp;
        const int batch = p.config.plan.batch;
        const int context = p.config.plan.contextLen;
        if (p.skip) {
            const auto plan = buildDecodePlan(p.config.plan);
            result.skipped.push_back(SkippedRun{tp, batch, context, p.reason,
                                                plan ? checkFit(plan->memory, p.config.cluster.gpu) : FitReport{}});
            ++done;
            control.report(withContext({done, total, tp, batch, nullptr, &result.skipped.back(), 1.0}, context));
            continue;
        }
        // Each decode step but the last (the finished run is reported below, once).
        TaskControl runControl{{}, control.cancel};
        if (control.progress) {
            runControl.progress = [&](double runFraction) {
                if (runFraction < 1.0) {
                    control.report(withContext({done, total, tp, batch, nullptr, nullptr, runFraction}, context));
                }
            };
        }
        auto run = simulate(p.config, runControl);
        if (!run) {
            if (run.error().code == ErrorCode::Cancelled) {
                result.cancelled = true;
                break;
            }
            return run.error();
        }
        result.runs.push_back(SweepRun{std::move(p.config), run->stats, run->fit, std::move(run->trace)});
        ++done;
        control.report(withContext({done, total, tp, batch, &result.runs.back(), nullptr, 1.0}, context));
    }
    return result;
}

Result<SweepSpec> defaultSweepSpec(const Catalog& catalog) {
    SweepSpec spec;
    // Every value from the one table of defaults (core/sim/defaults.h).
    const Defaults& d = kDefaults;
    TPSCOPE_TRY_ASSIGN(spec.model, catalog.model(d.model));
    TPSCOPE_TRY_ASSIGN(spec.cluster.gpu, catalog.gpu(d.gpu));
    TPSCOPE_TRY_ASSIGN(spec.cluster.intraFabric, catalog.fabric(d.fabric));
    spec.cluster.nodes = 1;
    spec.cluster.gpusPerNode = d.gpusPerNode;
    spec.tps = {1, 2, 4, 8};
    spec.batches = {1};
    spec.tokens = d.tokens;
    spec.contextLen = d.contextLen;
    spec.dtype = Dtype::Fp16;
    spec.params.setRuntime(d.runtime);
    spec.params.seed = d.seed;
    return spec;
}

}  // namespace tpscope::core::sim
