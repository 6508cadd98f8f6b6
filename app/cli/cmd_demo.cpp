// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// tpscope-cli demo: the embedded default the GUI opens on (core::sim::defaultSweepSpec: llama3-70b
// decode on one 8-GPU H100 SXM node over NVLink 4, TP 1/2/4/8, batch 1), simulated by
// core::sim::runSweep and summarised without a screen as a table or --json. TP 1 does not fit one
// GPU: it is skipped with core's reason (required and usable bytes per GPU, the shortfall).

#include <iostream>

#include "cli_context.h"
#include "core/sim/sweep.h"
#include "core/util/json_writer.h"
#include "core/util/units.h"
#include "text_table.h"

namespace tpscope::cli {

namespace {

void printJson(const core::sim::SweepSpec& spec, const core::sim::SweepResult& sweep) {
    core::JsonWriter w(std::cout);
    w.beginObject().field("model", spec.model.id).field("gpu", spec.cluster.gpu.id);
    w.field("fabric", spec.cluster.intraFabric.id).field("gpus_per_node", spec.cluster.gpusPerNode);
    w.field("tokens", spec.tokens).field("dtype", core::toString(spec.dtype)).field("simulated", true);
    w.field("runtime", core::sim::toString(spec.params.effectiveRuntime()));
    const double base = sweep.runs.empty() ? 0 : sweep.runs.front().stats.tokensPerSec;
    w.key("runs").beginArray();
    for (const auto& run : sweep.runs) {
        const auto& s = run.stats;
        w.beginObject().field("tp", run.config.plan.tp).field("batch", run.config.plan.batch);
        w.field("step_latency_ns", s.meanStepNs).field("tokens_per_sec", s.tokensPerSec);
        w.field("speedup_vs_first", base > 0 ? s.tokensPerSec / base : 0.0);
        w.field("allreduces_per_step", s.allreducesPerStep)
            .field("allreduce_time_ns_per_step", s.allreduceKernelNsPerStep);
        w.field("exposed_comm_share", s.exposedCommShare).endObject();
    }
    w.endArray().key("skipped").beginArray();
    for (const auto& sk : sweep.skipped) {
        w.beginObject().field("tp", sk.tp).field("batch", sk.batch).field("reason", sk.reason.message).endObject();
    }
    w.endArray().endObject();
    std::cout << '\n';
}

int runDemo(const CliContext& ctx, bool json) {
    auto catalog = ctx.catalog();
    if (!catalog) return reportError(catalog.error());
    auto spec = core::sim::defaultSweepSpec(*catalog);
    if (!spec) return reportError(spec.error());
    auto sweep = core::sim::runSweep(*spec);
    if (!sweep) return reportError(sweep.error());
    if (json) {
        printJson(*spec, *sweep);
        return kExitOk;
    }
    const auto& cl = spec->cluster;
    std::cout << "tpscope demo: " << spec->model.name << " decode on " << cl.gpusPerNode << "x " << cl.gpu.name
              << " over " << cl.intraFabric.name << ", batch 1, " << countText(spec->tokens, "token") << ", "
              << core::toString(spec->dtype) << ", runtime " << core::sim::toString(spec->params.effectiveRuntime())
              << " (simulated)\n\n";
    const std::string first = sweep->runs.empty() ? "-" : std::to_string(sweep->runs.front().config.plan.tp);
    TextTable t(
        {"TP", "step", "tokens/s", "speed-up vs TP " + first, "all-reduces/step", "all-reduce/step", "exposed comm"});
    const double base = sweep->runs.empty() ? 0 : sweep->runs.front().stats.tokensPerSec;
    for (const auto& run : sweep->runs) {
        const auto& s = run.stats;
        t.addRow({std::to_string(run.config.plan.tp), core::formatDurationNs(s.meanStepNs),
                  core::formatFixed(s.tokensPerSec, 1),
                  core::formatFixed(base > 0 ? s.tokensPerSec / base : 0, 2) + "x", std::to_string(s.allreducesPerStep),
                  core::formatDurationNs(s.allreduceKernelNsPerStep),
                  core::formatFixed(100 * s.exposedCommShare, 1) + " %"});
    }
    t.print(std::cout);
    for (const auto& sk : sweep->skipped) std::cout << "TP " << sk.tp << " skipped: " << sk.reason.message << '\n';
    std::cout << "\nExplore with:\n"
                 "  tpscope-cli simulate --model llama3-70b --gpu h100-sxm --fabric nvlink4 --tp 2,4,8 --batch 1,8,32\n"
                 "  tpscope-cli allreduce --fabric nvlink4 --gpus 8 --sizes 8,16,...,1G\n";
    return kExitOk;
}

}  // namespace

void addDemoCommand(CLI::App& app, CliContext& ctx) {
    auto json = std::make_shared<bool>(false);
    auto* cmd = app.add_subcommand("demo", "Simulate and summarise the embedded default sweep (what the GUI opens on)");
    addJsonFlag(*cmd, *json);
    cmd->callback([&ctx, json] { ctx.exitCode = runDemo(ctx, *json); });
}

}  // namespace tpscope::cli
