// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// tpscope-cli plan-capacity: which TP x batch x replicas configurations meet an inter-token latency
// target, and the cheapest that also meets a throughput demand (core/sim/capacity_plan.h computes;
// this file parses and prints). The first line of the text output is the answer.

#include <unistd.h>

#include <cstdio>
#include <iostream>

#include "cli_context.h"
#include "core/sim/allreduce_engine.h"
#include "core/sim/capacity_plan.h"
#include "core/util/json_writer.h"
#include "core/util/units.h"
#include "sim_options.h"
#include "text_table.h"

namespace tpscope::cli {

namespace {

struct PlanCapacityOptions {
    SweepOptions sweep = defaultSweep();
    double targetItlMs = 0;
    double throughput = 0;
    double price = core::sim::kDefaults.pricePerGpuHour;
    int gpuBudget = 0;
    int context = core::sim::kDefaults.contextLen;
    bool json = false;

    static SweepOptions defaultSweep() {
        SweepOptions s;
        s.batches = "1,2,4,8,16,32,64,128";
        return s;
    }
};

std::string configText(const core::sim::CapacityConfig& c) {
    return std::to_string(c.replicas) + " x TP " + std::to_string(c.tp) + " (" + std::to_string(c.cost.gpus) +
           " GPUs), batch " + std::to_string(c.batch);
}

void printJson(const PlanCapacityOptions& o, const core::sim::CapacityPlanSpec& spec,
               const core::sim::CapacityPlan& plan) {
    core::JsonWriter w(std::cout);
    w.beginObject().field("model", spec.sweep.model.id).field("gpu", spec.sweep.cluster.gpu.id);
    w.field("fabric", spec.sweep.cluster.intraFabric.id).field("target_itl_ms", o.targetItlMs);
    w.field("min_tokens_per_sec", o.throughput).field("price_per_gpu_hour", o.price);
    w.field("gpu_budget", spec.gpuBudget > 0 ? spec.gpuBudget : spec.sweep.cluster.totalGpus());
    w.field("context", o.context).field("allreduce_engine", core::sim::toString(spec.sweep.params.allReduceEngine));
    w.field("runtime", core::sim::toString(spec.sweep.params.effectiveRuntime()));
    auto row = [&](const core::sim::CapacityConfig& c) {
        w.beginObject().field("tp", c.tp).field("batch", c.batch).field("replicas", c.replicas);
        w.field("gpus", c.cost.gpus).field("step_latency_ms", c.cost.stepLatencyMs);
        w.field("tokens_per_sec", c.cost.tokensPerSec)
            .field("dollars_per_million_tokens", c.cost.dollarsPerMillionTokens);
        w.field("meets_latency", c.meetsLatency).field("meets_throughput", c.meetsThroughput);
        w.field("within_budget", c.withinBudget);
        w.field("touched_experts_per_rank", c.touchedExpertsPerRank);
        w.field("weight_bytes_read_per_step_per_gpu", c.weightBytesReadPerStep);
        w.field("required_bytes_per_gpu", c.fit.requiredBytes).field("usable_bytes_per_gpu", c.fit.usableBytes);
        w.endObject();
    };
    w.key("cheapest");
    if (plan.cheapest) {
        row(plan.configs[*plan.cheapest]);
    } else {
        w.null();
    }
    w.key("configs").beginArray();
    for (const auto& c : plan.configs) row(c);
    w.endArray().key("skipped").beginArray();
    for (const auto& sk : plan.skipped) {
        w.beginObject().field("tp", sk.tp).field("batch", sk.batch).field("reason", sk.reason.message).endObject();
    }
    w.endArray().endObject();
}

void printText(const PlanCapacityOptions& o, const core::sim::CapacityPlanSpec& spec,
               const core::sim::CapacityPlan& plan) {
    const bool moe = spec.sweep.model.isMoe();
    if (plan.cheapest) {
        const auto& c = plan.configs[*plan.cheapest];
        std::cout << "cheapest: " << configText(c) << ": $" << core::formatFixed(c.cost.dollarsPerMillionTokens, 3)
                  << "/Mtok, " << core::formatFixed(c.cost.stepLatencyMs, 2) << " ms per token, "
                  << core::formatFixed(c.cost.tokensPerSec, 0) << " tokens/s\n";
    } else {
        std::cout << "no configuration meets " << core::formatFixed(o.targetItlMs, 2) << " ms per token"
                  << (o.throughput > 0 ? " and " + core::formatFixed(o.throughput, 0) + " tokens/s" : std::string())
                  << " within the GPU budget\n";
    }
    std::cout << countText(static_cast<std::int64_t>(plan.meetingTarget.size()), "configuration")
              << (plan.meetingTarget.size() == 1 ? " meets" : " meet") << " the " << core::formatFixed(o.targetItlMs, 2)
              << " ms inter-token latency target:\n";
    std::vector<std::string> head{"replicas", "TP", "batch", "GPUs", "ms/token", "tokens/s", "$/Mtok", "throughput"};
    // MoE: the touched experts and the weights a step reads change with batch; memory per rank beside them.
    if (moe) head.insert(head.end(), {"experts/rank", "weights/step", "memory/GPU"});
    TextTable t(head);
    for (auto i : plan.meetingTarget) {
        const auto& c = plan.configs[i];
        std::vector<std::string> row{std::to_string(c.replicas),
                                     std::to_string(c.tp),
                                     std::to_string(c.batch),
                                     std::to_string(c.cost.gpus),
                                     core::formatFixed(c.cost.stepLatencyMs, 2),
                                     core::formatFixed(c.cost.tokensPerSec, 0),
                                     core::formatFixed(c.cost.dollarsPerMillionTokens, 3),
                                     c.meetsThroughput ? "meets" : "short"};
        if (moe) {
            row.insert(row.end(), {core::formatFixed(c.touchedExpertsPerRank, 1),
                                   core::formatBytes(static_cast<double>(c.weightBytesReadPerStep)),
                                   core::formatBytes(static_cast<double>(c.fit.requiredBytes)) + " of " +
                                       core::formatBytes(static_cast<double>(c.fit.usableBytes))});
        }
        t.addRow(row);
    }
    t.print(std::cout);
    // What the numbers assumed, so a reader can reproduce them with `simulate`.
    std::cout << "assumed: runtime " << core::sim::toString(spec.sweep.params.effectiveRuntime()) << ", all-reduce by "
              << core::sim::toString(spec.sweep.params.allReduceEngine) << ", " << spec.sweep.cluster.gpu.id << " on "
              << spec.sweep.cluster.intraFabric.id << ", context " << o.context << ", "
              << countText(spec.sweep.tokens, "token") << ", $" << core::formatFixed(o.price, 2) << "/GPU-hour\n";
    for (const auto& sk : plan.skipped) {
        std::cout << "skipped TP " << sk.tp << ", batch " << sk.batch << ": " << sk.reason.message << '\n';
    }
}

int run(const PlanCapacityOptions& o, const CliContext& ctx) {
    auto catalog = ctx.catalog();
    if (!catalog) return reportError(catalog.error());
    core::sim::CapacityPlanSpec spec;
    auto sweep = resolveSweepSpec(*catalog, o.sweep);
    if (!sweep) return reportError(sweep.error());
    spec.sweep = std::move(*sweep);
    spec.sweep.contextLen = o.context;
    spec.gpuBudget = o.gpuBudget;
    spec.targetItlMs = o.targetItlMs;
    spec.minTokensPerSec = o.throughput;
    spec.pricePerGpuHour = o.price;
    // Progress only on a terminal, so that the answer stays the first line of captured output.
    const bool showProgress = !o.json && ::isatty(::fileno(stderr)) != 0;
    auto progress = [&](const core::sim::SweepProgress& p) {
        if (showProgress) {
            std::cerr << "\r[" << p.done << "/" << p.total << "] TP " << p.tp << ", batch " << p.batch << "   ";
        }
    };
    auto plan = core::sim::planCapacity(spec, {progress});
    if (showProgress) std::cerr << "\r" << std::string(40, ' ') << "\r";
    if (!plan) return reportError(plan.error());
    if (o.json) {
        printJson(o, spec, *plan);
    } else {
        printText(o, spec, *plan);
    }
    return plan->cheapest ? kExitOk : kExitFailure;
}

}  // namespace

void addPlanCapacityCommand(CLI::App& app, CliContext& ctx) {
    auto opts = std::make_shared<PlanCapacityOptions>();
    auto* cmd = app.add_subcommand(
        "plan-capacity", "Cheapest TP x batch x replicas meeting an inter-token latency target (and a throughput)");
    SweepOptions& sweep = opts->sweep;
    addModelOptions(*cmd, sweep.model);
    addClusterOptions(*cmd, sweep.cluster);
    cmd->add_option("--target-itl-ms", opts->targetItlMs, "Inter-token latency target: ms per decode step")
        ->required()
        ->check(positiveNumber());
    cmd->add_option("--throughput", opts->throughput, "Tokens/s the deployment must serve over all replicas")
        ->check(nonNegativeNumber());
    cmd->add_option("--price-per-gpu-hour", opts->price, "Price of one GPU for one hour, in $")
        ->capture_default_str()
        ->check(positiveNumber());
    cmd->add_option("--gpus", opts->gpuBudget, "GPU budget (default: the cluster's GPUs)")->check(positiveNumber());
    cmd->add_option("--tp", sweep.tps, "TP degrees to try, comma-separated")->capture_default_str();
    cmd->add_option("--batch", sweep.batches, "Batch sizes to try, comma-separated")->capture_default_str();
    cmd->add_option("--context", opts->context, "Tokens in the KV cache")
        ->capture_default_str()
        ->check(positiveNumber());
    cmd->add_option("--tokens", sweep.tokens, "Decode steps simulated per configuration")
        ->capture_default_str()
        ->check(positiveNumber());
    cmd->add_option("--dtype", sweep.dtype, "fp16, bf16, fp8 or fp32")->capture_default_str();
    addSimTunables(*cmd, sweep.tunables);
    addPrecisionOptions(*cmd, sweep.precision);
    cmd->add_flag("--json", opts->json, "Machine-readable output (docs/cli.md)");
    cmd->callback([opts, &ctx] { ctx.exitCode = run(*opts, ctx); });
}

}  // namespace tpscope::cli
