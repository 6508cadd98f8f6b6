// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// tpscope-cli plan: the TP decode plan of one configuration (ops, bytes, FLOPs, collectives, memory).

#include <iostream>
#include <optional>
#include <vector>

#include "cli_context.h"
#include "core/hw/memory_fit.h"
#include "core/util/json_writer.h"
#include "core/util/units.h"
#include "core/workload/decode_plan.h"
#include "plan_options.h"
#include "text_table.h"

namespace tpscope::cli {

namespace {

struct PlanOptions {
    ConfigOptions config;  // model, dtype, --moe-parallel and the optional GPU
    int tp = 1;
    std::vector<int> batches{1};
    int context = 1024;
    bool json = false;
    bool allOps = false;
};

void writeModelJson(core::JsonWriter& w, const core::ModelSpec& m) {
    w.key("model").beginObject();
    w.field("id", m.id).field("name", m.name).field("hidden", m.hidden).field("ffn", m.ffn);
    w.field("heads", m.heads).field("kv_heads", m.kvHeads).field("head_dim", m.headDim);
    w.field("layers", m.layers).field("vocab", m.vocab).field("parameters", m.parameterCount());
    w.field("kind", m.isMoe() ? "moe" : "dense").field("attention", core::toString(m.attention));
    w.field("active_parameters", m.activeParameterCount());
    if (m.isMoe()) {
        w.key("moe").beginObject();
        w.field("experts", m.moe.experts).field("experts_per_token", m.moe.topK);
        w.field("shared_experts", m.moe.sharedExperts).field("expert_ffn", m.moe.expertFfn);
        w.field("dense_layers", m.moe.denseLayers).field("routing_skew", m.moe.routingSkew);
        w.endObject();
    }
    if (m.isMla()) {
        w.key("mla").beginObject();
        w.field("q_lora_rank", m.mla.qLoraRank).field("kv_lora_rank", m.mla.kvLoraRank);
        w.field("qk_nope_head_dim", m.mla.qkNopeDim).field("qk_rope_head_dim", m.mla.qkRopeDim);
        w.field("v_head_dim", m.mla.vHeadDim);
        w.endObject();
    }
    w.key("weights").beginObject();
    w.field("attention", core::toString(m.formats.attention)).field("mlp", core::toString(m.formats.mlp));
    w.field("experts", core::toString(m.formats.experts));
    w.endObject();
    w.endObject();
}

void writeMoeJson(core::JsonWriter& w, const core::DecodePlan& plan) {
    if (!plan.config.model.isMoe()) return;
    const auto& moe = plan.moe;
    w.key("moe_step").beginObject();
    w.field("parallel", core::toString(plan.config.moeParallel));
    w.field("touched_experts_per_layer", moe.touchedExpertsPerLayer);
    w.field("touched_experts_per_rank", moe.touchedExpertsPerRank).field("experts_per_rank", moe.expertsPerRank);
    w.field("expert_ffn_per_rank", plan.shard.expertFfnPerRank);
    w.field("half_experts_batch", moe.halfExpertsBatch);
    w.field("expert_weight_bytes_per_step_per_gpu", moe.expertWeightBytesPerStepPerGpu);
    w.field("expert_bytes_per_gpu", plan.memory.expertBytesPerGpu);
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

void printJson(const core::DecodePlan& plan, const std::optional<std::pair<core::GpuSpec, core::FitReport>>& fit,
               core::JsonWriter* into) {
    std::optional<core::JsonWriter> own;
    if (!into) own.emplace(std::cout);
    core::JsonWriter& w = into ? *into : *own;
    const auto& c = plan.config;
    w.beginObject();
    writeModelJson(w, c.model);
    w.field("tp", c.tp).field("batch", c.batch).field("context", c.contextLen).field("dtype", core::toString(c.dtype));
    w.key("shard").beginObject();
    w.field("heads_per_rank", plan.shard.headsPerRank).field("kv_heads_per_rank", plan.shard.kvHeadsPerRank);
    w.field("kv_replicated", plan.shard.kvReplicated).field("ffn_per_rank", plan.shard.ffnPerRank);
    w.field("vocab_per_rank", plan.shard.vocabPerRank);
    if (c.model.isMla()) w.field("latent_width", plan.shard.latentWidth);
    w.endObject();
    writeMoeJson(w, plan);
    w.field("allreduce_message_bytes", plan.allreduceMessageBytes);
    w.field("allreduce_wire_bytes_per_gpu", plan.allreduceWireBytesPerGpu);
    w.field("allreduces_per_step", plan.allreducesPerStep);
    w.field("layer_allreduces_per_step", plan.layerAllreducesPerStep);
    w.field("collectives_per_step", plan.collectivesPerStep);
    w.field("wire_bytes_per_step_per_gpu", plan.wireBytesPerStepPerGpu);
    w.field("layer_wire_bytes_per_step_per_gpu", plan.layerWireBytesPerStepPerGpu);
    w.field("weight_bytes_per_gpu", plan.memory.weightBytesPerGpu);
    w.field("weight_bytes_read_per_step_per_gpu", plan.weightBytesReadPerStep);
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

void printMoeMla(const core::DecodePlan& plan, std::ostream& out) {
    const auto& c = plan.config;
    const auto& m = c.model;
    out << m.kindLabel() << '\n';
    if (m.isMoe()) {
        const auto& moe = plan.moe;
        out << "  experts touched    " << core::formatFixed(moe.touchedExpertsPerLayer, 1) << " of " << m.moe.experts
            << " per MoE layer (uniform routing: E (1 - (1 - k/E)^B)"
            << (m.moe.routingSkew > 0 ? ", skew " + core::formatFixed(m.moe.routingSkew, 2) : std::string()) << ")\n";
        out << "  experts per rank   " << moe.expertsPerRank << " ("
            << (c.moeParallel == core::MoeParallel::Expert ? "expert parallel, whole experts"
                                                           : "tensor parallel, 1/" + std::to_string(c.tp) + " of each")
            << "), " << core::formatFixed(moe.touchedExpertsPerRank, 1) << " touched\n";
        out << "  expert weights     " << core::formatBytes(static_cast<double>(moe.expertWeightBytesPerStepPerGpu))
            << " read per step of " << core::formatBytes(static_cast<double>(plan.memory.expertBytesPerGpu))
            << " held\n";
        out << "  half the experts   from batch " << moe.halfExpertsBatch << '\n';
    }
    if (m.isMla()) {
        out << "  MLA latent         " << plan.shard.latentWidth << " values per token and layer, cached in full on"
            << " every rank (vLLM's MLA convention)\n";
    }
    out << '\n';
}

void printText(const core::DecodePlan& plan, const std::optional<std::pair<core::GpuSpec, core::FitReport>>& fit,
               bool allOps) {
    const auto& c = plan.config;
    auto& out = std::cout;
    out << c.model.name << ", TP " << c.tp << ", batch " << c.batch << ", context " << c.contextLen << ", "
        << core::toString(c.dtype) << "\n\n";
    if (c.model.isMoe() || c.model.isMla()) printMoeMla(plan, out);
    out << "per GPU, per decode step\n";
    out << "  weights            " << core::formatBytes(static_cast<double>(plan.memory.weightBytesPerGpu)) << '\n';
    if (c.model.isMoe()) {
        out << "  weights read/step  " << core::formatBytes(static_cast<double>(plan.weightBytesReadPerStep))
            << " (dense parts + touched experts)\n";
    }
    out << "  KV cache           " << core::formatBytes(static_cast<double>(plan.memory.kvCacheBytesPerGpu))
        << (plan.shard.kvReplicated ? (c.model.isMla() ? " (MLA latent replicated on every rank)"
                                                       : " (kv heads replicated: fewer kv heads than ranks)")
                                    : "")
        << '\n';
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
    auto resolved = resolveConfig(*catalog, o.config, o.tp, o.batches.empty() ? 1 : o.batches.front(), o.context);
    if (!resolved) return reportError(resolved.error());
    core::PlanConfig& config = resolved->plan;
    const std::optional<core::GpuSpec>& gpu = resolved->gpu;
    // One plan per batch; JSON: one object for one batch, {"plans": [...]} for several.
    const bool several = o.batches.size() > 1;
    std::optional<core::JsonWriter> list;
    if (o.json && several) list.emplace(std::cout), list->beginObject().key("plans").beginArray();
    for (std::size_t i = 0; i < o.batches.size(); ++i) {
        config.batch = o.batches[i];
        auto plan = core::buildDecodePlan(config);
        if (!plan) return reportError(plan.error());
        std::optional<std::pair<core::GpuSpec, core::FitReport>> fit;
        if (gpu) fit.emplace(*gpu, core::checkFit(plan->memory, *gpu));
        if (o.json) {
            printJson(*plan, fit, list ? &*list : nullptr);
        } else {
            if (i > 0) std::cout << "\n\n";
            printText(*plan, fit, o.allOps);
        }
    }
    if (list) list->endArray().endObject();
    return kExitOk;
}

}  // namespace

void addPlanCommand(CLI::App& app, CliContext& ctx) {
    auto opts = std::make_shared<PlanOptions>();
    auto* cmd = app.add_subcommand("plan", "The TP decode plan of one configuration: ops, FLOPs, bytes, all-reduces");
    addModelOptions(*cmd, opts->config.model);
    cmd->add_option("--tp", opts->tp, "Tensor-parallel degree")->capture_default_str();
    cmd->add_option("--batch", opts->batches, "Sequences decoded together (a list, e.g. 1,64: one plan each)")
        ->delimiter(',')
        ->capture_default_str();
    cmd->add_option("--moe-parallel", opts->config.precision.moeParallel,
                    "MoE experts: tp (each rank 1/tp of every expert) or ep (whole experts, all-to-all)")
        ->capture_default_str();
    cmd->add_option("--context", opts->context, "Tokens in the KV cache")->capture_default_str();
    cmd->add_option("--dtype", opts->config.dtype, "fp16, bf16, fp8 or fp32")->capture_default_str();
    cmd->add_option("--gpu", opts->config.gpu, "GPU preset: also report whether the plan fits its memory");
    cmd->add_flag("--all-ops", opts->allOps, "Text output: list the ops of every layer");
    cmd->add_flag("--json", opts->json, "Machine-readable output (docs/cli.md)");
    cmd->callback([opts, &ctx] { ctx.exitCode = run(*opts, ctx); });
}

}  // namespace tpscope::cli
