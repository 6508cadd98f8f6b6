// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// tpscope-cli scaling: speedup, efficiency, Amdahl fit, cost and TP advice over the runs of a sweep,
// one trace file per run (measured or simulated): TP and batch from --tp/--batch, else from the trace
// (core/analysis/scaling_input.h: metadata, communicator size, world_size, ranks; step annotations).

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "analysis_options.h"
#include "cli_context.h"
#include "core/analysis/analysis_json.h"
#include "core/analysis/scaling_input.h"
#include "core/hw/memory_fit.h"
#include "core/io/workspace/workspace.h"
#include "core/sim/defaults.h"
#include "core/util/units.h"
#include "run_output.h"
#include "text_table.h"

namespace tpscope::cli {

namespace {

struct ScalingCliOptions {
    std::vector<std::string> files;
    double price = core::sim::kDefaults.pricePerGpuHour;
    std::string tp;
    std::string batch;
    double threshold = 0.8;
    std::string model;
    std::string gpu;
    int context = 0;
    bool json = false;
    AnalysisCliOptions analysis;
};

// A problem of the runs the files hold (none, two of one configuration, no GPU count, mixed models) is
// a problem of the data (exit 1, docs/cli.md): named with the files unless the error names one already.
int reportDataError(const core::Error& error, const std::vector<std::string>& files, const std::string& advice) {
    std::string named;
    for (const auto& f : files) {
        if (error.context.find(f) != std::string::npos) return reportError(dataError(error, f, advice));
        if (named.find(f) == std::string::npos) named += (named.empty() ? "" : ", ") + f;
    }
    return reportError(dataError(error, named, advice));
}

constexpr const char* kOneRunPerPoint = "scaling needs one run per TP and batch, each with a complete decode step";

// "4" applies to every file, "1,2,4" gives one value per file; empty: none given.
core::Result<std::vector<int>> perFile(const std::string& text, std::size_t files, const std::string& option) {
    if (text.empty()) return std::vector<int>(files, 0);
    auto values = core::parsePositiveIntList(text, option);
    if (!values) return values.error();
    if (values->size() == 1) return std::vector<int>(files, values->front());
    if (values->size() != files) {
        return core::makeError(core::ErrorCode::InvalidArgument,
                               "give one value for all files or one per file (" + std::to_string(files) + ")", option);
    }
    return values;
}

// The smallest TP that fits, when the model and GPU are known (options, else trace metadata).
int minimumTp(const CliContext& ctx, const ScalingCliOptions& o, const core::Trace& first, int largestBatch,
              std::string& modelName, std::string& gpuName) {
    const std::string modelId = !o.model.empty() ? o.model : first.metadataValue("model");
    const std::string gpuId = !o.gpu.empty() ? o.gpu : first.metadataValue("gpu");
    if (modelId.empty() || gpuId.empty()) return 0;
    auto catalog = ctx.catalog();
    if (!catalog) return 0;
    auto model = catalog->model(modelId);
    auto gpu = catalog->gpu(gpuId);
    if (!model || !gpu) return 0;
    modelName = model->name;
    gpuName = gpu->name;
    int context = o.context;
    if (context <= 0) context = std::atoi(first.metadataValue("context").c_str());
    if (context <= 0) context = 1024;
    const auto dtype = core::parseDtype(first.metadataValue("dtype")).value_or(core::Dtype::Fp16);
    const core::PlanConfig base{*model, 1, largestBatch, context, dtype};
    return core::minimumTpThatFits(base, *gpu, {1, 2, 4, 8, 16, 32, 64});
}

void printReport(const core::analysis::ScalingReport& r, const std::vector<core::analysis::AdviceItem>& advice) {
    const bool priced = r.pricePerGpuHour > 0;
    for (const auto& bs : r.batches) {
        std::cout << "batch " << bs.batch << " (speedup vs " << bs.baselineGpus << " GPU"
                  << (bs.baselineGpus == 1 ? "" : "s") << ")\n";
        TextTable t({"GPUs", "tokens/s", "step", "speedup", "efficiency", "Amdahl", "$/Mtok", "premium", "run"});
        for (const auto& row : bs.rows) {
            t.addRow({std::to_string(row.gpus), core::formatFixed(row.tokensPerSec, 1),
                      core::formatDurationNs(row.stepLatencyNs), core::formatFixed(row.speedup, 2) + "x",
                      percentText(row.efficiency), bs.fit.valid ? core::formatFixed(row.amdahlSpeedup, 2) + "x" : "-",
                      priced ? "$" + core::formatFixed(row.costPerMillionTokens, 3) : "-",
                      priced ? percentText(row.premiumVsBaseline) : "-", row.label});
        }
        t.print(std::cout);
        if (bs.fit.valid) {
            std::cout << "  Amdahl fit: serial fraction " << core::formatFixed(bs.fit.serialFraction, 4)
                      << ", max speedup "
                      << (std::isfinite(bs.fit.maxSpeedup) ? core::formatFixed(bs.fit.maxSpeedup, 2) + "x"
                                                           : "unbounded")
                      << " vs 1 GPU, RMS residual " << core::formatFixed(bs.fit.rmsResidual, 3) << "\n";
        }
        std::cout << '\n';
    }
    if (!r.efficientBatches.empty()) {
        std::cout << "Smallest batch reaching " << percentText(r.efficiencyThreshold) << " efficiency:\n";
        for (const auto& e : r.efficientBatches) {
            std::cout << "  TP " << e.gpus << ": "
                      << (e.smallestBatch > 0 ? "batch " + std::to_string(e.smallestBatch)
                                              : "none measured (best " + percentText(e.efficiency) + " at batch " +
                                                    std::to_string(e.atBatch) + ")")
                      << '\n';
        }
        std::cout << '\n';
    }
    std::cout << "Advice\n";
    for (const auto& a : advice) std::cout << "  - " << a.text << '\n';
    if (!r.notes.empty()) {
        std::cout << "\nNotes\n";
        for (const auto& n : r.notes) std::cout << "  - " << n << '\n';
    }
}

// Run `index` (0-based) of a workspace, analysed as scaling analyses it: on its own clocks. Its stored
// analysis where that is exactly this (core/io/workspace/stored_analysis_take.h: this build's, for these
// options, of a trace whose clock estimate moves no rank), said on stderr as `analyze` says it; else
// analysed. Kernel rules are for classifying kernels anew: with them it is analysed.
core::analysis::RunAnalysis analyzeWorkspaceRun(const std::string& file, std::size_t index,
                                                const std::shared_ptr<const core::Trace>& trace, int runBatch,
                                                const core::analysis::AnalysisOptions& options, bool kernelRules) {
    if (!kernelRules) {
        auto stored = takeStoredAnalysisSaid(file, index, trace, runBatch, {}, options);
        if (stored) return std::move(stored->analysis);
    }
    return core::analysis::analyzeTrace(*trace, options);
}

int runScaling(const CliContext& ctx, const ScalingCliOptions& o) {
    auto tps = perFile(o.tp, o.files.size(), "--tp");
    if (!tps) return reportError(tps.error());
    auto batches = perFile(o.batch, o.files.size(), "--batch");
    if (!batches) return reportError(batches.error());
    auto classifier = classifierFor(o.analysis.kernelRules);
    if (!classifier) return reportError(classifier.error());
    struct Analysed {
        std::shared_ptr<const core::Trace> trace;
        core::analysis::RunAnalysis analysis;
        std::string label;
        int tp = 0;
        int batch = 0;
    };
    std::vector<Analysed> analysed;
    std::shared_ptr<const core::Trace> first;
    const auto optionsFor = [&](int batch) {
        auto options = o.analysis.toCore();
        options.batch = batch;
        return options;
    };
    for (std::size_t i = 0; i < o.files.size(); ++i) {
        // A workspace holds a whole sweep: every run in it counts, with its own TP and batch.
        if (isWorkspacePath(o.files[i])) {
            // Stored analyses are taken in place (analyzeWorkspaceRun), not held beside the runs.
            core::WorkspaceOptions load;
            load.readAnalysisCache = false;
            auto ws = core::loadWorkspace(o.files[i], load);
            if (!ws) return reportError(fileError(ws.error()));
            for (std::size_t r = 0; r < ws->runs.size(); ++r) {
                const auto& run = ws->runs[r];
                // A run kept without events (the GUI keeps a failed run for its reason) has no point.
                if (!run.trace || run.trace->eventCount() == 0) continue;
                const int batch = (*batches)[i] > 0 ? (*batches)[i] : run.info.batch;
                auto a = analyzeWorkspaceRun(o.files[i], r, run.trace, run.info.batch, optionsFor(batch),
                                             !o.analysis.kernelRules.empty());
                analysed.push_back({run.trace, std::move(a), o.files[i] + ": " + run.info.name,
                                    (*tps)[i] > 0 ? (*tps)[i] : run.info.tp, batch});
                if (!first) first = run.trace;
            }
            continue;
        }
        auto trace = loadSyncedTrace(o.files[i], o.analysis.clockSync, o.analysis.clockOffsets, nullptr, nullptr,
                                     *classifier ? &**classifier : nullptr);
        if (!trace) return reportError(trace.error());
        auto a = core::analysis::analyzeTrace(**trace, optionsFor((*batches)[i]));
        analysed.push_back({*trace, std::move(a), o.files[i], (*tps)[i], (*batches)[i]});
        if (!first) first = *trace;
    }
    if (!first) {
        return reportDataError(
            core::makeError(core::ErrorCode::InvalidArgument, "no run with a trace in the given files"), o.files,
            "give traces or workspaces of the runs");
    }
    std::vector<core::analysis::MeasuredRun> measured;
    measured.reserve(analysed.size());
    for (const auto& a : analysed) measured.push_back({a.trace.get(), &a.analysis, a.label, a.tp, a.batch});
    // The groups are core's, as the window forms them (issue 45 §2): one model on one GPU type.
    if (const auto groups = core::analysis::groupScalingRuns(measured); groups.groups.size() > 1) {
        return reportDataError(
            core::makeError(core::ErrorCode::InvalidArgument,
                            "the runs are of different models or GPUs: " + groups.notes.front(), "scaling"),
            o.files, "scaling compares one group: give the runs of one model on one GPU type");
    }
    auto input = core::analysis::buildScalingInput(measured);
    if (!input) return reportDataError(input.error(), o.files, kOneRunPerPoint);
    const auto& runs = input->runs;
    auto report =
        core::analysis::analyzeScaling(runs, {.pricePerGpuHour = o.price, .efficiencyThreshold = o.threshold});
    if (!report) return reportDataError(report.error(), o.files, kOneRunPerPoint);
    report->notes.insert(report->notes.begin(), input->notes.begin(), input->notes.end());
    core::analysis::AdviceOptions adviceOptions;
    adviceOptions.efficiencyThreshold = o.threshold;
    int largestBatch = 1;
    for (const auto& r : runs) largestBatch = std::max(largestBatch, r.batch);
    adviceOptions.minimumTpThatFits =
        minimumTp(ctx, o, *first, largestBatch, adviceOptions.modelName, adviceOptions.gpuName);
    if (adviceOptions.minimumTpThatFits == 0) {
        report->notes.emplace_back(
            "minimum TP that fits unknown: give --model and --gpu (or trace metadata model/gpu)");
    }
    // Simulated runs say which runtime launched them (trace metadata 'runtime').
    adviceOptions.eagerLaunches = first->metadataValue("runtime") == "pytorch-eager";
    const auto advice = core::analysis::adviseTp(*report, adviceOptions);
    if (o.json) {
        core::JsonWriter w(std::cout);
        core::analysis::writeScalingJson(w, *report, advice);
        std::cout << '\n';
        return kExitOk;
    }
    printReport(*report, advice);
    return kExitOk;
}

}  // namespace

void addScalingCommand(CLI::App& app, CliContext& ctx) {
    auto opts = std::make_shared<ScalingCliOptions>();
    auto* cmd = app.add_subcommand("scaling", "Speedup, efficiency, Amdahl fit, $/Mtok and TP advice over a sweep");
    cmd->add_option("files", opts->files, "One trace file per run (TP x batch)")->required();
    cmd->add_option("--price-per-gpu-hour", opts->price, "Price of one GPU for one hour, in $")
        ->capture_default_str()
        ->check(positiveNumber());
    cmd->add_option("--tp", opts->tp, "GPUs per run: one value, or one per file (default: metadata 'tp', else ranks)");
    cmd->add_option("--batch", opts->batch, "Batch per run: one value, or one per file (default: metadata 'batch')");
    cmd->add_option("--efficiency-threshold", opts->threshold, "Efficiency a higher TP must reach to pay")
        ->check(CLI::Range(0.0, 1.0))
        ->capture_default_str();
    cmd->add_option("--model", opts->model, "Model preset for the minimum TP that fits (default: metadata 'model')");
    cmd->add_option("--gpu", opts->gpu, "GPU preset for the minimum TP that fits (default: metadata 'gpu')");
    cmd->add_option("--context", opts->context, "KV-cache length for the memory fit (default: metadata, else 1024)");
    cmd->add_flag("--json", opts->json, "Machine-readable output (docs/cli.md)");
    addAnalysisOptions(*cmd, opts->analysis, false);
    cmd->callback([opts, &ctx] { ctx.exitCode = runScaling(ctx, *opts); });
}

}  // namespace tpscope::cli
