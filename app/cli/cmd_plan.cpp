// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// tpscope-cli plan: the TP decode plan of one configuration (ops, bytes, FLOPs, collectives, memory).

#include <iostream>

#include "cli_context.h"
#include "core/hw/memory_fit.h"
#include "core/util/json_writer.h"
#include "core/util/units.h"
#include "core/workload/decode_plan.h"
#include "text_table.h"

namespace tpscope::cli {

namespace {

struct PlanOptions {
    ModelOptions model;
    int tp = 1;
    int batch = 1;
    int context = 1024;
    std::string dtype = "fp16";
    std::string gpu;
    bool json = false;
    bool allOps = false;
};

void writeModelJson(core::JsonWriter& w, const core::ModelSpec& m) {
    w.key("model").beginObject();
    w.field("id", m.id).field("name", m.name).field("hidden", m.hidden).field("ffn", m.ffn);
    w.field("heads", m.heads).field("kv_heads", m.kvHeads).field("head_dim", m.headDim);
    w.field("layers", m.layers).field("vocab", m.vocab).field("parameters", m.parameterCount());
    w.endObject();
}

void writeOpJson(core::JsonWriter& w, const core::PlanOp& op) {
    w.beginObject();
    w.field("layer", op.layer).field("block", core::toString(op.block)).field("op", core::toString(op.kind));
    w.field("kind", core::toString(op.eventKind));
    if (op.eventKind == core::EventKind::Gemm) {
        w.field("m", op.gemm.m).field("n", op.gemm.n).field("k", op.gemm.k);
    }
    w.field("flops", op.flops).field("bytes_read", op.bytesRead).field("bytes_written", op.bytesWritten);
    w.field("arithmetic_intensity", op.arithmeticIntensity());
    if (op.isCollective()) {
        w.field("collective", core::toString(op.collective));
        w.field("message_bytes", op.messageBytes).field("wire_bytes_per_gpu", op.wireBytesPerGpu);
    }
    w.endObject();
}

void printJson(const core::DecodePlan& plan, const std::optional<std::pair<core::GpuSpec, core::FitReport>>& fit) {
    core::JsonWriter w(std::cout);
    const auto& c = plan.config;
    w.beginObject();
    writeModelJson(w, c.model);
    w.field("tp", c.tp).field("batch", c.batch).field("context", c.contextLen).field("dtype", core::toString(c.dtype));
    w.key("shard").beginObject();
    w.field("heads_per_rank", plan.shard.headsPerRank).field("kv_heads_per_rank", plan.shard.kvHeadsPerRank);
    w.field("kv_replicated", plan.shard.kvReplicated).field("ffn_per_rank", plan.shard.ffnPerRank);
    w.field("vocab_per_rank", plan.shard.vocabPerRank);
    w.endObject();
    w.field("allreduce_message_bytes", plan.allreduceMessageBytes);
    w.field("allreduce_wire_bytes_per_gpu", plan.allreduceWireBytesPerGpu);
    w.field("allreduces_per_step", plan.allreducesPerStep);
    w.field("layer_allreduces_per_step", plan.layerAllreducesPerStep);
    w.field("collectives_per_step", plan.collectivesPerStep);
    w.field("wire_bytes_per_step_per_gpu", plan.wireBytesPerStepPerGpu);
    w.field("layer_wire_bytes_per_step_per_gpu", plan.layerWireBytesPerStepPerGpu);
    w.field("weight_bytes_per_gpu", plan.memory.weightBytesPerGpu);
    w.field("kv_cache_bytes_per_gpu", plan.memory.kvCacheBytesPerGpu);
    w.field("activation_bytes_per_gpu", plan.memory.activationBytesPerGpu);
    w.field("total_bytes_per_gpu", plan.memory.totalBytesPerGpu());
    w.field("flops_per_step_per_gpu", plan.flopsPerStep);
    w.field("bytes_read_per_step_per_gpu", plan.bytesReadPerStep);
    w.field("bytes_written_per_step_per_gpu", plan.bytesWrittenPerStep);
    w.field("arithmetic_intensity", plan.arithmeticIntensity());
    if (fit) {
        w.key("fit").beginObject();
        w.field("gpu", fit->first.id).field("fits", fit->second.fits);
        w.field("required_bytes", fit->second.requiredBytes).field("usable_bytes", fit->second.usableBytes);
        w.field("shortfall_bytes", fit->second.shortfallBytes);
        w.endObject();
    }
    w.key("ops").beginArray();
    for (const auto& op : plan.ops) writeOpJson(w, op);
    w.endArray();
    w.endObject();
}

void printText(const core::DecodePlan& plan, const std::optional<std::pair<core::GpuSpec, core::FitReport>>& fit,
               bool allOps) {
    const auto& c = plan.config;
    auto& out = std::cout;
    out << c.model.name << ", TP " << c.tp << ", batch " << c.batch << ", context " << c.contextLen << ", "
        << core::toString(c.dtype) << "\n\n";
    out << "per GPU, per decode step\n";
    out << "  weights            " << core::formatBytes(static_cast<double>(plan.memory.weightBytesPerGpu)) << '\n';
    out << "  KV cache           " << core::formatBytes(static_cast<double>(plan.memory.kvCacheBytesPerGpu)) << '\n';
    out << "  FLOPs              " << core::formatFixed(plan.flopsPerStep / 1e9, 2) << " GFLOP\n";
    out << "  HBM traffic        "
        << core::formatBytes(static_cast<double>(plan.bytesReadPerStep + plan.bytesWrittenPerStep)) << " (intensity "
        << core::formatFixed(plan.arithmeticIntensity(), 2) << " FLOP/B)\n";
    out << "  all-reduces        " << plan.allreducesPerStep << " (" << plan.layerAllreducesPerStep << " in layers), "
        << plan.collectivesPerStep << " collectives\n";
    out << "  all-reduce message " << core::formatBytes(static_cast<double>(plan.allreduceMessageBytes))
        << ", ring wire bytes per GPU " << core::formatBytes(static_cast<double>(plan.allreduceWireBytesPerGpu))
        << '\n';
    out << "  wire bytes / step  " << core::formatBytes(static_cast<double>(plan.wireBytesPerStepPerGpu)) << '\n';
    if (fit) out << "  memory             " << fit->second.describe(fit->first.name) << '\n';
    out << '\n' << (allOps ? "ops" : "ops (prologue, layer 0, epilogue; --all-ops for every layer)") << '\n';
    TextTable table({"layer", "op", "kind", "m x n x k", "MFLOP", "read", "written", "FLOP/B"});
    for (const auto& op : plan.ops) {
        if (!allOps && op.layer > 0) continue;
        const std::string shape =
            op.eventKind == core::EventKind::Gemm
                ? std::to_string(op.gemm.m) + "x" + std::to_string(op.gemm.n) + "x" + std::to_string(op.gemm.k)
                : (op.isCollective() ? core::formatBytes(static_cast<double>(op.messageBytes)) : "");
        table.addRow({op.layer < 0 ? "-" : std::to_string(op.layer), std::string(core::toString(op.kind)),
                      std::string(core::toString(op.eventKind)), shape, core::formatFixed(op.flops / 1e6, 2),
                      core::formatBytes(static_cast<double>(op.bytesRead)),
                      core::formatBytes(static_cast<double>(op.bytesWritten)),
                      core::formatFixed(op.arithmeticIntensity(), 2)});
    }
    table.print(out);
}

int run(const PlanOptions& o, const CliContext& ctx) {
    auto catalog = ctx.catalog();
    if (!catalog) return reportError(catalog.error());
    core::PlanConfig config;
    auto model = resolveModel(*catalog, o.model);
    if (!model) return reportError(model.error());
    auto dtype = resolveDtype(o.dtype);
    if (!dtype) return reportError(dtype.error());
    config.model = *model;
    config.tp = o.tp;
    config.batch = o.batch;
    config.contextLen = o.context;
    config.dtype = *dtype;
    auto plan = core::buildDecodePlan(config);
    if (!plan) return reportError(plan.error());
    std::optional<std::pair<core::GpuSpec, core::FitReport>> fit;
    if (!o.gpu.empty()) {
        auto gpu = catalog->gpu(o.gpu);
        if (!gpu) return reportError(gpu.error());
        fit.emplace(*gpu, core::checkFit(plan->memory, *gpu));
    }
    if (o.json) {
        printJson(*plan, fit);
    } else {
        printText(*plan, fit, o.allOps);
    }
    return kExitOk;
}

}  // namespace

void addPlanCommand(CLI::App& app, CliContext& ctx) {
    auto opts = std::make_shared<PlanOptions>();
    auto* cmd = app.add_subcommand("plan", "The TP decode plan of one configuration: ops, FLOPs, bytes, all-reduces");
    addModelOptions(*cmd, opts->model);
    cmd->add_option("--tp", opts->tp, "Tensor-parallel degree")->capture_default_str();
    cmd->add_option("--batch", opts->batch, "Sequences decoded together")->capture_default_str();
    cmd->add_option("--context", opts->context, "Tokens in the KV cache")->capture_default_str();
    cmd->add_option("--dtype", opts->dtype, "fp16, bf16, fp8 or fp32")->capture_default_str();
    cmd->add_option("--gpu", opts->gpu, "GPU preset: also report whether the plan fits its memory");
    cmd->add_flag("--all-ops", opts->allOps, "Text output: list the ops of every layer");
    cmd->add_flag("--json", opts->json, "Machine-readable output (docs/cli.md)");
    cmd->callback([opts, &ctx] { ctx.exitCode = run(*opts, ctx); });
}

}  // namespace tpscope::cli
