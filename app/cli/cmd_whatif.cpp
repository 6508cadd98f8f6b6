// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// tpscope-cli whatif TRACE --fabric F: replays a measured (or simulated) run on another fabric,
// optionally at another TP degree, and prints the predicted step latency, per-layer exposed
// communication and exposed wait next to the measured ones (core::sim::runWhatIf). The prediction is a
// model estimate; its assumptions are printed with it. --json is documented in docs/cli.md.

#include <algorithm>
#include <cmath>
#include <iostream>

#include "analysis_options.h"
#include "cli_context.h"
#include "core/sim/whatif_report.h"
#include "core/util/units.h"
#include "run_output.h"
#include "text_table.h"
#include "trace_plan.h"

namespace tpscope::cli {

namespace {

struct WhatIfCliOptions {
    std::string file;
    std::string run;  // --run N|NAME of a workspace with several runs
    std::string fabric;
    std::string interFabric;
    int gpusPerNode = 0;
    std::string engine;  // "" : the trace's metadata 'allreduce_engine', else nccl
    int tp = 0;
    std::string model;
    std::string gpu;
    int context = 0;
    std::string dtype;
    std::string out;
    bool json = false;
    AnalysisCliOptions analysis;
};

std::string ns(double v) {
    return core::formatDurationNs(v);
}

std::string signedNs(double v) {
    return (v >= 0 ? "+" : "-") + ns(std::abs(v));
}

// GEMM/attention scaling for a TP change, from the plan of the measured run.
core::Result<core::sim::TpKernelScaling> scalingFor(const core::Trace& t, const WhatIfCliOptions& o,
                                                    const core::Catalog& catalog) {
    TracePlan p;
    TPSCOPE_TRY_ASSIGN(p, resolveTracePlan(t, catalog, {o.model, o.gpu, o.analysis.batch, o.context, o.dtype}, "--tp"));
    return core::sim::tpKernelScaling(p.plan, o.tp, p.gpu);
}

void printReport(const core::sim::WhatIfReport& r) {
    std::cout << "what-if: " << r.measuredSource << " on " << r.fabric;
    if (r.predictedRanks != r.measuredRanks) std::cout << " at TP " << r.predictedRanks;
    std::cout << " (model prediction, " << r.steps << " step(s))\n\n";
    TextTable t({"", "measured", "predicted", "delta"});
    t.addRow({"step latency", ns(r.measuredStepNs), ns(r.predictedStepNs),
              signedNs(r.deltaNs) + " (" + (r.deltaFraction >= 0 ? "+" : "") + percentText(r.deltaFraction) + ")"});
    t.addRow(
        {"tokens/s", core::formatFixed(r.measuredTokensPerSec, 1), core::formatFixed(r.predictedTokensPerSec, 1), ""});
    t.addRow({"exposed comm", percentText(r.measuredExposedCommShare), percentText(r.predictedExposedCommShare), ""});
    t.addRow({"exposed wait", percentText(r.measuredExposedWaitShare), percentText(r.predictedExposedWaitShare), ""});
    t.print(std::cout);
    std::cout << "\nPer layer (mean over steps and ranks):\n";
    TextTable layers({"layer", "wall", "predicted", "exposed comm", "predicted", "exposed wait", "predicted"});
    for (const auto& l : r.layers) {
        layers.addRow({std::to_string(l.layer), ns(l.measuredWallNs), ns(l.predictedWallNs),
                       ns(l.measuredExposedCommNs), ns(l.predictedExposedCommNs), ns(l.measuredExposedWaitNs),
                       ns(l.predictedExposedWaitNs)});
    }
    layers.print(std::cout);
    std::cout << "\nAssumptions (a model estimate, not a measurement)\n";
    for (const auto& a : r.assumptions) std::cout << "  - " << a << '\n';
}

int runWhatIfCommand(const WhatIfCliOptions& o, const CliContext& ctx) {
    auto catalog = ctx.catalog();
    if (!catalog) return reportError(catalog.error());
    core::sim::WhatIfOptions options;
    auto fabric = catalog->fabric(o.fabric);
    if (!fabric) return reportError(core::makeError(fabric.error().code, fabric.error().message, "--fabric"));
    options.fabric = *fabric;
    if (!o.interFabric.empty()) {
        auto inter = catalog->fabric(o.interFabric);
        if (!inter) {
            return reportError(core::makeError(inter.error().code, inter.error().message, "--inter-node-fabric"));
        }
        options.interFabric = *inter;
    }
    options.gpusPerNode = o.gpusPerNode;
    auto classifier = classifierFor(o.analysis.kernelRules);
    if (!classifier) return reportError(classifier.error());
    auto loaded = loadOneRun(o.file, o.run, nullptr, *classifier ? &**classifier : nullptr);
    if (!loaded) return reportError(loaded.error());
    auto trace = syncRunClocks(loaded->trace, o.analysis.clockSync, o.analysis.clockOffsets);
    if (!trace) return reportError(trace.error());
    const core::Trace& measured = **trace;
    const std::string engineName = !o.engine.empty() ? o.engine : measured.metadataValue("allreduce_engine");
    if (!engineName.empty()) {
        const auto engine = core::sim::parseAllReduceEngine(engineName);
        if (!engine) {
            return reportError(core::makeError(
                core::ErrorCode::InvalidArgument,
                "unknown engine '" + engineName + "': nccl, vllm-custom-ar, trtllm or symm-mem", "--allreduce"));
        }
        options.engine = *engine;
    }
    if (o.tp > 0 && o.tp != static_cast<int>(measured.ranks.size())) {
        options.tp = o.tp;
        auto scaling = scalingFor(measured, o, *catalog);
        if (!scaling) return reportError(scaling.error());
        options.scaling = *scaling;
    }
    auto run = core::sim::runWhatIf(measured, o.analysis.toCore(), options);
    if (!run && run.error().context == measured.source) {
        // An error about the trace itself (no ranks) is a problem of the data, not of the command line.
        return reportError(dataError(run.error(), o.file, "'tpscope-cli info " + o.file + "' shows what it holds"));
    }
    if (!run) return reportError(run.error());
    if (!o.out.empty()) {
        core::RunInfo measuredInfo;
        measuredInfo.name = "measured: " + runLabel(o.file, *loaded);
        core::RunInfo predictedInfo;
        predictedInfo.name = "what-if on " + run->report.fabric + " (predicted)";
        predictedInfo.fabric = options.fabric.id;
        predictedInfo.tp = static_cast<int>(run->report.predictedRanks);
        std::vector<core::Run> runs{{measuredInfo, *trace, std::nullopt},
                                    {predictedInfo, run->replay.trace, std::nullopt}};
        if (auto written = writeRuns(runs, o.out); !written) return reportError(written.error());
    }
    if (o.json) {
        core::JsonWriter w(std::cout);
        core::sim::writeWhatIfJson(w, run->report);
        std::cout << '\n';
        return kExitOk;
    }
    printReport(run->report);
    if (!o.out.empty()) std::cout << "\nwrote " << o.out << " (the measured run and its prediction)\n";
    return kExitOk;
}

}  // namespace

void addWhatIfCommand(CLI::App& app, CliContext& ctx) {
    auto opts = std::make_shared<WhatIfCliOptions>();
    auto* cmd = app.add_subcommand(
        "whatif", "Replay a measured run on another fabric (or TP degree): predicted step latency, exposed comm, wait");
    cmd->add_option("file", opts->file, "Trace file (Kineto/Chrome JSON, nsys SQLite export, workspace)")->required();
    addRunOption(*cmd, opts->run,
                 "Workspace with several runs: the run to replay, N (1-based) or its name (required then)");
    cmd->add_option("--fabric", opts->fabric, "Fabric preset to replay on (see 'tpscope-cli hardware')")->required();
    cmd->add_option("--inter-node-fabric,--inter-fabric", opts->interFabric,
                    "Network between nodes when a group spans nodes");
    cmd->add_option("--gpus-per-node", opts->gpusPerNode, "GPUs per node (default: the fabric's maximum, else 8)")
        ->check(CLI::Range(1, 1024));
    cmd->add_option("--allreduce", opts->engine,
                    "All-reduce engine on the new fabric: nccl, vllm-custom-ar, trtllm, symm-mem (default: the "
                    "trace's metadata 'allreduce_engine', else nccl)");
    cmd->add_option("--tp", opts->tp, "Replay at this TP degree (GEMM/attention scaled from the decode plan)")
        ->check(CLI::Range(1, 4096));
    cmd->add_option("--model", opts->model, "With --tp: model preset of the run (default: trace metadata 'model')");
    cmd->add_option("--gpu", opts->gpu, "With --tp: GPU preset of the run (default: trace metadata 'gpu')");
    cmd->add_option("--context", opts->context, "With --tp: context length (default: metadata 'context', else 1024)");
    cmd->add_option("--dtype", opts->dtype, "With --tp: fp16, bf16, fp8, fp32 (default: metadata 'dtype', else fp16)");
    cmd->add_option("--out", opts->out, "Write the measured run and the prediction (.tpscope workspace or .json)");
    cmd->add_flag("--json", opts->json, "Machine-readable output (docs/cli.md)");
    addAnalysisOptions(*cmd, opts->analysis);
    cmd->callback([opts, &ctx] { ctx.exitCode = runWhatIfCommand(*opts, ctx); });
}

}  // namespace tpscope::cli
