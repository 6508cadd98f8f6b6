// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// tpscope-cli models | hardware: the presets, with where each value comes from.

#include <iostream>

#include "cli_context.h"
#include "core/sim/op_time_fit.h"
#include "core/util/json_writer.h"
#include "core/util/units.h"
#include "text_table.h"

namespace tpscope::cli {

namespace {

void writeSources(core::JsonWriter& w, const std::map<std::string, std::string>& sources) {
    w.key("sources").beginObject();
    for (const auto& [k, v] : sources) w.field(k, v);
    w.endObject();
}

int runModels(bool json, const CliContext& ctx) {
    auto catalog = ctx.catalog();
    if (!catalog) return reportError(catalog.error());
    if (json) {
        core::JsonWriter w(std::cout);
        w.beginObject().key("models").beginArray();
        for (const auto& m : catalog->models()) {
            w.beginObject().field("id", m.id).field("name", m.name).field("hidden", m.hidden).field("ffn", m.ffn);
            w.field("heads", m.heads).field("kv_heads", m.kvHeads).field("head_dim", m.headDim);
            w.field("layers", m.layers).field("vocab", m.vocab).field("parameters", m.parameterCount());
            w.field("kind", m.isMoe() ? "moe" : "dense").field("attention", core::toString(m.attention));
            w.field("active_parameters", m.activeParameterCount());
            if (m.isMoe()) {
                w.key("moe").beginObject().field("experts", m.moe.experts).field("experts_per_token", m.moe.topK);
                w.field("shared_experts", m.moe.sharedExperts).field("expert_ffn", m.moe.expertFfn);
                w.field("dense_layers", m.moe.denseLayers).endObject();
            }
            if (m.isMla()) {
                w.key("mla").beginObject().field("q_lora_rank", m.mla.qLoraRank);
                w.field("kv_lora_rank", m.mla.kvLoraRank).field("qk_nope_head_dim", m.mla.qkNopeDim);
                w.field("qk_rope_head_dim", m.mla.qkRopeDim).field("v_head_dim", m.mla.vHeadDim).endObject();
            }
            w.key("weights").beginObject().field("attention", core::toString(m.formats.attention));
            w.field("mlp", core::toString(m.formats.mlp)).field("experts", core::toString(m.formats.experts));
            w.endObject();
            w.field("source", m.source).endObject();
        }
        w.endArray().endObject();
        return kExitOk;
    }
    TextTable t(
        {"id", "name", "kind", "params", "active", "hidden", "ffn", "heads", "kv", "head dim", "layers", "vocab"});
    for (const auto& m : catalog->models()) {
        t.addRow({m.id, m.name, m.kindLabel(),
                  core::formatFixed(static_cast<double>(m.parameterCount()) / 1e9, 2) + " B",
                  core::formatFixed(static_cast<double>(m.activeParameterCount()) / 1e9, 2) + " B",
                  std::to_string(m.hidden), std::to_string(m.ffn), std::to_string(m.heads), std::to_string(m.kvHeads),
                  std::to_string(m.headDim), std::to_string(m.layers), std::to_string(m.vocab)});
    }
    t.print(std::cout);
    return kExitOk;
}

// Where a GPU's per-op kernel times come from (core/sim/op_time_fit.h).
std::string kernelTimes(const core::GpuSpec& gpu) {
    const auto model = core::sim::opTimeModel(gpu);
    return model ? model->description() : std::string("roofline");
}

int runHardware(bool json, const CliContext& ctx) {
    auto catalog = ctx.catalog();
    if (!catalog) return reportError(catalog.error());
    if (json) {
        core::JsonWriter w(std::cout);
        w.beginObject().key("gpus").beginArray();
        for (const auto& g : catalog->gpus()) {
            w.beginObject().field("id", g.id).field("name", g.name).field("memory_bytes", g.memoryBytes);
            w.field("hbm_bytes_per_sec", g.hbmBytesPerSec).field("fp16_flops", g.fp16Flops);
            w.field("bf16_flops", g.bf16Flops).field("fp8_flops", g.fp8Flops).field("fp32_flops", g.fp32Flops);
            w.field("sms", g.sms).field("roofline_crossover_fp16", g.rooflineCrossover(core::Dtype::Fp16));
            w.field("kernel_times", kernelTimes(g));
            writeSources(w, g.sources);
            w.endObject();
        }
        w.endArray().key("fabrics").beginArray();
        for (const auto& f : catalog->fabrics()) {
            w.beginObject().field("id", f.id).field("name", f.name);
            w.field("scope", f.scope == core::FabricScope::IntraNode ? "intra-node" : "inter-node");
            w.field("link_bytes_per_sec", f.linkBytesPerSec).field("busbw_bytes_per_sec", f.busbwBytesPerSec);
            w.field("hop_latency_ns", f.hopLatencyNs).field("base_latency_ns", f.baseLatencyNs);
            w.field("through_cpu", f.throughCpu).field("max_gpus", f.maxGpus);
            w.key("algorithms").beginArray();
            for (const auto a : f.algorithms) w.value(core::toString(a));
            w.endArray();
            writeSources(w, f.sources);
            w.endObject();
        }
        w.endArray().endObject();
        return kExitOk;
    }
    TextTable gt({"gpu", "name", "memory", "HBM GB/s", "FP16 TFLOP/s", "FP8 TFLOP/s", "SMs", "crossover FLOP/B",
                  "kernel times"});
    for (const auto& g : catalog->gpus()) {
        const auto model = core::sim::opTimeModel(g);
        gt.addRow({g.id, g.name, core::formatBytes(static_cast<double>(g.memoryBytes)),
                   core::formatFixed(g.hbmBytesPerSec / 1e9, 0), core::formatFixed(g.fp16Flops / 1e12, 1),
                   g.fp8Flops > 0 ? core::formatFixed(g.fp8Flops / 1e12, 1) : "-", std::to_string(g.sms),
                   core::formatFixed(g.rooflineCrossover(core::Dtype::Fp16), 1),
                   !model ? "roofline" : (model->derived ? "derived, not measured" : "measured (Vidur)")});
    }
    gt.print(std::cout);
    std::cout << '\n';
    TextTable ft({"fabric", "name", "scope", "link GB/s", "busbw GB/s", "hop us", "base us"});
    for (const auto& f : catalog->fabrics()) {
        ft.addRow({f.id, f.name, f.scope == core::FabricScope::IntraNode ? "intra-node" : "inter-node",
                   core::formatFixed(f.linkBytesPerSec / 1e9, 1), core::formatFixed(f.busbwBytesPerSec / 1e9, 1),
                   core::formatFixed(f.hopLatencyNs / 1e3, 2), core::formatFixed(f.baseLatencyNs / 1e3, 2)});
    }
    ft.print(std::cout);
    std::cout << "\nsources: tpscope-cli hardware --json\n";
    return kExitOk;
}

}  // namespace

void addCatalogCommands(CLI::App& app, CliContext& ctx) {
    auto json = std::make_shared<bool>(false);
    auto* models = app.add_subcommand("models", "List the model presets");
    models->add_flag("--json", *json, "Machine-readable output (docs/cli.md)");
    models->callback([json, &ctx] { ctx.exitCode = runModels(*json, ctx); });
    auto json2 = std::make_shared<bool>(false);
    auto* hw = app.add_subcommand("hardware", "List the GPU and fabric presets");
    hw->add_flag("--json", *json2, "Machine-readable output (docs/cli.md)");
    hw->callback([json2, &ctx] { ctx.exitCode = runHardware(*json2, ctx); });
}

}  // namespace tpscope::cli
