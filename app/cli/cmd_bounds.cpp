// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// tpscope-cli bounds: the floors of a decode step (core/sim/step_floors.h): the bandwidth-only and
// the alpha-beta communication floor on a fabric, which term dominates, and with --gpu the step's
// HBM floor, the ratio communication floor / memory floor, and the roofline.

#include <iostream>

#include "cli_context.h"
#include "core/calc/allreduce_bound.h"
#include "core/calc/roofline.h"
#include "core/sim/defaults.h"
#include "core/sim/step_floors.h"
#include "core/util/json_writer.h"
#include "core/util/units.h"
#include "plan_options.h"

namespace tpscope::cli {

namespace {

struct BoundsOptions {
    ConfigOptions config;  // model, dtype, precision, MoE mode and the optional GPU
    int tp = 1;
    int batch = 1;
    int context = core::sim::kDefaults.contextLen;
    std::string fabric{core::sim::kDefaults.fabric};
    bool json = false;
};

// Everything the command prints, from the options (parse, then compute; printJson/printText print).
struct Bounds {
    core::ModelSpec model;
    core::PlanConfig config;
    core::FabricSpec fabric;
    std::optional<core::GpuSpec> gpu;
    std::optional<core::RooflineReport> roof;
    core::sim::StepFloors floors;
};

core::Result<Bounds> computeBounds(const BoundsOptions& o, const core::Catalog& catalog) {
    Bounds b;
    ResolvedConfig resolved;
    TPSCOPE_TRY_ASSIGN(resolved, resolveConfig(catalog, o.config, o.tp, o.batch, o.context));
    b.config = resolved.plan;
    b.model = b.config.model;
    b.gpu = resolved.gpu;
    TPSCOPE_TRY_ASSIGN(b.fabric, catalog.fabric(o.fabric));
    auto plan = core::buildDecodePlan(b.config);
    if (!plan) return plan.error();
    if (b.gpu) TPSCOPE_TRY_ASSIGN(b.roof, core::roofline(*plan, *b.gpu));
    TPSCOPE_TRY_ASSIGN(b.floors, core::sim::stepFloors(*plan, b.fabric, b.gpu ? &*b.gpu : nullptr));
    return b;
}

const char* dominantTerm(const Bounds& b) {
    return b.floors.latencyDominates() ? "latency" : "bandwidth";
}

void printJson(const BoundsOptions& o, const Bounds& b) {
    const auto& bound = b.floors.bandwidthOnly;
    const auto& floors = b.floors;
    const auto& fabric = b.fabric;
    const auto& roof = b.roof;
    core::JsonWriter w(std::cout);
    w.beginObject();
    w.field("model", b.model.id)
        .field("tp", o.tp)
        .field("batch", o.batch)
        .field("dtype", core::toString(b.config.dtype));
    w.field("weight_dtype", core::toString(b.config.weightsDtype()))
        .field("kv_dtype", core::toString(b.config.kvCacheDtype()));
    w.field("fabric", fabric.id).field("link_bytes_per_sec", fabric.linkBytesPerSec);
    w.field("busbw_bytes_per_sec", fabric.busbwBytesPerSec);
    w.field("allreduce_message_bytes", bound.messageBytes);
    w.field("allreduce_wire_bytes_per_gpu", bound.wireBytesPerGpu);
    w.field("layer_allreduces_per_step", bound.layerAllreducesPerStep);
    w.field("wire_bytes_per_step_per_gpu", bound.wireBytesPerStepPerGpu);
    w.field("per_call_us", bound.perCallAtLinkNs / 1e3);
    w.field("per_call_at_busbw_us", bound.perCallAtBusbwNs / 1e3);
    w.field("per_step_us", bound.perStepAtLinkNs / 1e3);
    w.field("per_step_at_busbw_us", bound.perStepAtBusbwNs / 1e3);
    w.field("per_token_us", bound.perTokenAtLinkNs / 1e3);
    w.field("per_token_at_busbw_us", bound.perTokenAtBusbwNs / 1e3);
    w.field("layer_allreduces_at_busbw_us", bound.layerAllreducesAtBusbwNs / 1e3);
    w.key("alpha_beta").beginObject();
    w.field("min_call_latency_us", floors.minCallLatencyNs / 1e3);
    w.field("collectives_per_step", floors.collectivesPerStep);
    w.field("per_call_us", floors.perCallAlphaBetaNs / 1e3).field("per_step_us", floors.perStepAlphaBetaNs / 1e3);
    w.field("dominant", dominantTerm(b)).endObject();
    if (b.gpu) w.field("hbm_floor_us", floors.hbmFloorNs / 1e3).field("comm_over_hbm", floors.commOverHbm);
    if (roof) {
        w.key("roofline").beginObject();
        w.field("gpu", o.config.gpu).field("arithmetic_intensity", roof->arithmeticIntensity);
        w.field("crossover", roof->crossover).field("memory_bound", roof->memoryBound);
        w.field("compute_time_us", roof->computeTimeNs / 1e3).field("memory_time_us", roof->memoryTimeNs / 1e3);
        w.field("step_lower_bound_us", roof->stepLowerBoundNs / 1e3);
        w.field("attainable_flops", roof->attainableFlops);
        w.endObject();
    }
    w.endObject();
}

void printText(const BoundsOptions& o, const Bounds& b) {
    const auto& bound = b.floors.bandwidthOnly;
    const auto& floors = b.floors;
    const auto& fabric = b.fabric;
    const auto& roof = b.roof;
    auto us = [](double ns) { return core::formatDurationNs(ns); };
    std::cout << b.model.name << ", TP " << o.tp << ", batch " << o.batch << " on " << fabric.name << "\n";
    std::cout << "  all-reduce message " << core::formatBytes(static_cast<double>(bound.messageBytes))
              << ", ring wire bytes per GPU " << core::formatBytes(static_cast<double>(bound.wireBytesPerGpu)) << '\n';
    std::cout << "  per call:  " << us(bound.perCallAtLinkNs) << " at link "
              << core::formatFixed(fabric.linkBytesPerSec / 1e9, 1) << " GB/s, " << us(bound.perCallAtBusbwNs)
              << " at busbw " << core::formatFixed(fabric.busbwBytesPerSec / 1e9, 1) << " GB/s\n";
    std::cout << "  per step:  " << us(bound.perStepAtLinkNs) << " at link, " << us(bound.perStepAtBusbwNs)
              << " at busbw (" << core::formatBytes(static_cast<double>(bound.wireBytesPerStepPerGpu))
              << " on the wire per GPU)\n";
    std::cout << "  per token: " << us(bound.perTokenAtLinkNs) << " at link, " << us(bound.perTokenAtBusbwNs)
              << " at busbw\n";
    std::cout << "bandwidth-only floor (bytes / busbw, no latency): " << us(bound.perCallAtBusbwNs) << " per call, "
              << us(bound.perStepAtBusbwNs) << " per step\n";
    std::cout << "alpha-beta floor (" << us(floors.minCallLatencyNs) << " minimum per-call latency at TP " << o.tp
              << " + bytes / busbw): " << us(floors.perCallAlphaBetaNs) << " per call, "
              << us(floors.perStepAlphaBetaNs) << " per step (" << floors.collectivesPerStep << " collectives) -> "
              << dominantTerm(b) << " dominates\n";
    if (b.gpu) {
        std::cout << "HBM floor of the step on " << b.gpu->name << ": " << us(floors.hbmFloorNs)
                  << "; communication floor / memory floor = " << core::formatFixed(floors.commOverHbm, 3) << '\n';
    } else {
        std::cout << "(--gpu adds the step's HBM floor and the ratio communication / memory)\n";
    }
    if (roof) {
        std::cout << "roofline on " << o.config.gpu << ": intensity " << core::formatFixed(roof->arithmeticIntensity, 2)
                  << " FLOP/B vs crossover " << core::formatFixed(roof->crossover, 1) << " -> "
                  << (roof->memoryBound ? "memory-bound" : "compute-bound")
                  << ", step >= " << us(roof->stepLowerBoundNs) << '\n';
    }
}

int run(const BoundsOptions& o, const CliContext& ctx) {
    auto catalog = ctx.catalog();
    if (!catalog) return reportError(catalog.error());
    auto bounds = computeBounds(o, *catalog);
    if (!bounds) return reportError(bounds.error());
    if (o.json) {
        printJson(o, *bounds);
    } else {
        printText(o, *bounds);
    }
    return kExitOk;
}

}  // namespace

void addBoundsCommand(CLI::App& app, CliContext& ctx) {
    auto opts = std::make_shared<BoundsOptions>();
    auto* cmd = app.add_subcommand(
        "bounds", "Floors of a decode step: bandwidth-only and alpha-beta communication floors, HBM floor (--gpu)");
    addModelOptions(*cmd, opts->config.model);
    cmd->add_option("--tp", opts->tp, "Tensor-parallel degree")->capture_default_str();
    cmd->add_option("--batch", opts->batch, "Sequences decoded together")->capture_default_str();
    cmd->add_option("--context", opts->context, "Tokens in the KV cache")->capture_default_str();
    cmd->add_option("--dtype", opts->config.dtype, "fp16, bf16, fp8 or fp32")->capture_default_str();
    addPrecisionOptions(*cmd, opts->config.precision);
    cmd->add_option("--fabric", opts->fabric, "Fabric preset (see 'tpscope-cli hardware')")->capture_default_str();
    cmd->add_option("--gpu", opts->config.gpu, "GPU preset: also print the step's roofline");
    cmd->add_flag("--json", opts->json, "Machine-readable output (docs/cli.md)");
    cmd->callback([opts, &ctx] { ctx.exitCode = run(*opts, ctx); });
}

}  // namespace tpscope::cli
