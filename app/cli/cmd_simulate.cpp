// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// tpscope-cli simulate: a sweep of simulated TP decode runs (one per TP x batch) on a virtual
// cluster; prints per run step latency, tokens/s, all-reduce count and time, exposed comm share;
// saves the traces (--out). Ctrl-C stops the sweep at the next step and keeps the finished runs.

#include <algorithm>
#include <csignal>
#include <iostream>

#include "cli_context.h"
#include "core/sim/allreduce_engine.h"
#include "core/sim/sweep.h"
#include "core/util/json_writer.h"
#include "core/util/units.h"
#include "run_output.h"
#include "sim_options.h"
#include "text_table.h"

namespace tpscope::cli {

namespace {

core::CancelFlag g_cancel{false};
extern "C" void onInterrupt(int) {
    g_cancel.store(true);
}

struct SimulateOptions {
    SweepOptions sweep;  // TP "1,2,4,8", batch "1", tokens and the rest from core/sim/defaults.h
    std::string contexts = "1024";
    bool ignoreMemory = false;
    std::string out;
    bool json = false;
};

std::string algoText(const core::sim::CollectiveEstimate& e) {
    if (!e.valid()) return "-";
    std::string s(core::toString(e.algo));
    if (e.proto != core::CollectiveProto::Unknown) s += "/" + std::string(core::toString(e.proto));
    return s;
}

void printJson(const core::sim::SweepSpec& spec, const core::sim::SweepResult& r, const std::string& out,
               const std::string& kernelFit) {
    core::JsonWriter w(std::cout);
    w.beginObject();
    w.field("model", spec.model.id).field("gpu", spec.cluster.gpu.id).field("fabric", spec.cluster.intraFabric.id);
    w.field("inter_fabric", spec.cluster.interFabric ? spec.cluster.interFabric->id : std::string());
    w.field("nodes", spec.cluster.nodes).field("gpus_per_node", spec.cluster.gpusPerNode);
    w.field("tokens", spec.tokens).field("context", spec.contextLen).field("dtype", core::toString(spec.dtype));
    w.field("weight_dtype", core::toString(spec.weightDtype.value_or(spec.dtype)));
    w.field("kv_dtype", core::toString(spec.kvDtype.value_or(spec.dtype)));
    w.key("contexts").beginArray();
    for (int c : spec.contextAxis()) w.value(c);
    w.endArray();
    w.field("seed", spec.params.seed).field("overlap", spec.params.overlap).field("cancelled", r.cancelled);
    if (!spec.vocabParallel) w.field("vocab_parallel", false);
    w.field("runtime", core::sim::toString(spec.params.effectiveRuntime()))
        .field("cuda_graphs", spec.params.effectiveRuntime() == core::sim::Runtime::CudaGraphs)
        .field("allreduce_engine", core::sim::toString(spec.params.allReduceEngine));
    if (kernelFit.empty()) {
        w.key("kernel_fit").null();
    } else {
        w.field("kernel_fit", kernelFit);
    }
    w.key("runs").beginArray();
    for (const auto& run : r.runs) {
        const auto& s = run.stats;
        w.beginObject().field("tp", run.config.plan.tp).field("batch", run.config.plan.batch);
        w.field("context", run.config.plan.contextLen);
        w.field("step_latency_ns", s.meanStepNs).field("tokens_per_sec", s.tokensPerSec);
        w.field("allreduces_per_step", s.allreducesPerStep).field("collectives_per_step", s.collectivesPerStep);
        w.field("allreduce_time_ns_per_step", s.allreduceKernelNsPerStep);
        w.field("allreduce_transfer_ns_per_step", s.allreduceTransferNsPerStep);
        w.field("allreduce_wait_ns_per_step", s.allreduceWaitNsPerStep);
        w.field("exposed_comm_ns_per_step", s.exposedCommNsPerStep).field("exposed_comm_share", s.exposedCommShare);
        w.field("launch_bound_share", s.launchBoundShare).field("launch_wait_ns_per_step", s.launchWaitNsPerStep);
        w.field("step_host_ns", s.stepHostNs);
        w.field("events", s.events).field("fits_memory", run.fit.fits);
        w.key("layer_allreduce").beginObject();
        w.field("algo", core::toString(s.layerAllReduce.algo)).field("proto", core::toString(s.layerAllReduce.proto));
        w.field("time_ns", s.layerAllReduce.timeNs());
        w.endObject().key("notes").beginArray();
        for (const auto& note : s.notes) w.value(note);
        w.endArray().endObject();
    }
    w.endArray().key("skipped").beginArray();
    for (const auto& sk : r.skipped) {
        w.beginObject().field("tp", sk.tp).field("batch", sk.batch).field("context", sk.context);
        w.field("reason", sk.reason.message);
        w.field("required_bytes", sk.fit.requiredBytes).field("usable_bytes", sk.fit.usableBytes);
        w.field("shortfall_bytes", sk.fit.shortfallBytes).endObject();
    }
    w.endArray();
    if (const auto moe = core::sim::sweepModelNotes(spec); !moe.empty()) {
        w.key("model_notes").beginArray();
        for (const auto& n : moe) w.value(n);
        w.endArray();
    }
    if (out.empty()) {
        w.key("out").null();
    } else {
        w.field("out", out);
    }
    w.endObject();
}

std::string contextText(const core::sim::SweepSpec& spec) {
    std::string out;
    for (int c : spec.contextAxis()) out += (out.empty() ? "" : ",") + std::to_string(c);
    return out;
}

void printText(const core::sim::SweepSpec& spec, const core::sim::SweepResult& r, const std::string& kernelFit) {
    const auto& cl = spec.cluster;
    std::cout << spec.model.name << " decode on " << cl.nodes << " x " << cl.gpusPerNode << " " << cl.gpu.name << " ("
              << cl.intraFabric.id << (cl.interFabric ? " + " + cl.interFabric->id : std::string()) << "), "
              << countText(spec.tokens, "token") << ", context " << contextText(spec) << ", "
              << core::toString(spec.dtype)
              << (spec.weightDtype ? ", weights " + std::string(core::toString(*spec.weightDtype)) : std::string())
              << (spec.kvDtype ? ", KV cache " + std::string(core::toString(*spec.kvDtype)) : std::string())
              << (spec.params.overlap ? ", overlap" : "")
              << (spec.vocabParallel ? "" : ", embedding and LM head replicated") << ", runtime "
              << core::sim::toString(spec.params.effectiveRuntime()) << ", all-reduce by "
              << core::sim::toString(spec.params.allReduceEngine) << ", seed " << spec.params.seed
              << (kernelFit.empty() ? std::string() : ", kernel fit " + kernelFit) << "\n\n";
    // The context column appears when context is a sweep axis.
    const bool contextAxis = spec.contextAxis().size() > 1;
    std::vector<std::string> header{"TP", "batch"};
    if (contextAxis) header.emplace_back("context");
    for (const char* h : {"step", "tokens/s", "all-reduces", "all-reduce/step", "wait/step", "exposed comm",
                          "launch-bound", "algorithm"}) {
        header.emplace_back(h);
    }
    TextTable t(header);
    for (const auto& run : r.runs) {
        const auto& s = run.stats;
        std::vector<std::string> row{std::to_string(run.config.plan.tp), std::to_string(run.config.plan.batch)};
        if (contextAxis) row.push_back(std::to_string(run.config.plan.contextLen));
        for (const auto& cell :
             {core::formatDurationNs(s.meanStepNs), core::formatFixed(s.tokensPerSec, 1),
              std::to_string(s.allreducesPerStep), core::formatDurationNs(s.allreduceKernelNsPerStep),
              core::formatDurationNs(s.allreduceWaitNsPerStep), core::formatFixed(100 * s.exposedCommShare, 1) + " %",
              core::formatFixed(100 * s.launchBoundShare, 1) + " %", algoText(s.layerAllReduce)}) {
            row.push_back(cell);
        }
        t.addRow(row);
    }
    t.print(std::cout);
    std::vector<std::string> notes;
    for (const auto& run : r.runs) {
        for (const auto& n : run.stats.notes) {
            const std::string line = "TP " + std::to_string(run.config.plan.tp) + ": " + n;
            if (std::find(notes.begin(), notes.end(), line) == notes.end()) notes.push_back(line);
        }
    }
    for (const auto& n : notes) std::cout << "note: " << n << '\n';
    for (const auto& n : core::sim::sweepModelNotes(spec)) std::cout << "moe: " << n << '\n';
    for (const auto& sk : r.skipped) {
        std::cout << "skipped TP " << sk.tp << ", batch " << sk.batch
                  << (contextAxis ? ", context " + std::to_string(sk.context) : std::string()) << ": "
                  << sk.reason.message << " (--ignore-memory simulates it anyway)\n";
    }
    if (r.cancelled) {
        std::cout << "cancelled: " << countText(static_cast<std::int64_t>(r.runs.size()), "run")
                  << " finished and kept\n";
    }
}

int run(const SimulateOptions& o, const CliContext& ctx) {
    auto catalog = ctx.catalog();
    if (!catalog) return reportError(catalog.error());
    auto resolved = resolveSweepSpec(*catalog, o.sweep);
    if (!resolved) return reportError(resolved.error());
    core::sim::SweepSpec& spec = *resolved;
    auto contexts = core::parsePositiveIntList(o.contexts, "--context");
    if (!contexts) return reportError(contexts.error());
    spec.contextLen = contexts->front();
    if (contexts->size() > 1) spec.contexts = *contexts;
    spec.ignoreMemory = o.ignoreMemory;
    if (!o.out.empty() && !isWorkspacePath(o.out) && !isChromeJsonPath(o.out)) {
        return reportError(core::makeError(core::ErrorCode::InvalidArgument,
                                           "unknown output type: use .tpscope (workspace, opens in the GUI) or "
                                           ".json (every run in one Chrome trace)",
                                           o.out));
    }
    if (auto writable = checkOutputPath(o.out); !writable) return reportError(writable.error());

    g_cancel.store(false);
    auto previous = std::signal(SIGINT, onInterrupt);
    ProgressLine line;
    auto progress = [&](const core::sim::SweepProgress& p) {
        if (!o.json) {
            line.update("[" + std::to_string(p.done) + "/" + std::to_string(p.total) + "] TP " + std::to_string(p.tp) +
                            ", batch " + std::to_string(p.batch),
                        p.run != nullptr || p.skipped != nullptr);
        }
    };
    auto result = core::sim::runSweep(spec, {progress, &g_cancel});
    std::signal(SIGINT, previous);
    line.finish();
    if (!result) return reportError(result.error());
    if (!o.out.empty() && !result->runs.empty()) {
        std::vector<core::Run> runs;
        for (const auto& run : result->runs) runs.push_back({runInfoOf(run), run.trace, std::nullopt});
        if (auto s = writeRuns(runs, o.out); !s) return reportError(s.error());
    }
    if (o.json) {
        printJson(spec, *result, result->runs.empty() ? std::string() : o.out, o.sweep.kernelFit);
    } else {
        printText(spec, *result, o.sweep.kernelFit);
        if (!o.out.empty() && !result->runs.empty()) std::cout << "wrote " << o.out << '\n';
    }
    if (result->runs.empty()) {
        std::cerr << "tpscope-cli: no configuration of the sweep could run\n";
        return kExitFailure;
    }
    return result->cancelled ? kExitFailure : kExitOk;
}

}  // namespace

void addSimulateCommand(CLI::App& app, CliContext& ctx) {
    auto opts = std::make_shared<SimulateOptions>();
    auto* cmd = app.add_subcommand("simulate", "Simulate TP decode on a virtual cluster: one run per TP x batch");
    SweepOptions& sweep = opts->sweep;
    addModelOptions(*cmd, sweep.model);
    addClusterOptions(*cmd, sweep.cluster);
    cmd->add_option("--tp", sweep.tps, "TP degrees, comma-separated")->capture_default_str();
    cmd->add_option("--batch", sweep.batches, "Batch sizes, comma-separated")->capture_default_str();
    cmd->add_option("--tokens", sweep.tokens, "Decode steps per run")->capture_default_str()->check(positiveNumber());
    cmd->add_option("--context", opts->contexts, "Tokens in the KV cache, comma-separated: a sweep axis")
        ->capture_default_str();
    cmd->add_option("--dtype", sweep.dtype, "fp16, bf16, fp8 or fp32")->capture_default_str();
    addSimTunables(*cmd, sweep.tunables);
    addPrecisionOptions(*cmd, sweep.precision);
    cmd->add_option("--kernel-fit", sweep.kernelFit,
                    "Kernel efficiencies and launch gap fitted by 'calibrate --from-trace T --kernels --json'");
    cmd->add_flag("--ignore-memory", opts->ignoreMemory, "Simulate configurations that do not fit GPU memory");
    cmd->add_flag("--replicate-vocab", sweep.replicateVocab,
                  "Keep the embedding and LM head whole on every rank, as gpt-fast's TP does (no embedding "
                  "all-reduce, no logits all-gather; every rank computes every logit)");
    cmd->add_option("--out", opts->out,
                    "Save the runs: .tpscope = workspace (GUI, analyze, scaling), .json/.json.gz = Chrome trace");
    addJsonFlag(*cmd, opts->json);
    cmd->callback([opts, &ctx] { ctx.exitCode = run(*opts, ctx); });
}

}  // namespace tpscope::cli
