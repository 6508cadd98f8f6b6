// tpscope-cli bounds: lower-bound transfer time of the step's all-reduces on a fabric, and the
// roofline of the step on a GPU.

#include <iostream>

#include "cli_context.h"
#include "core/calc/allreduce_bound.h"
#include "core/calc/roofline.h"
#include "core/util/json_writer.h"
#include "core/util/units.h"

namespace tpscope::cli {

namespace {

struct BoundsOptions {
    ModelOptions model;
    int tp = 1;
    int batch = 1;
    int context = 1024;
    std::string dtype = "fp16";
    std::string fabric;
    std::string gpu;
    bool json = false;
};

int run(const BoundsOptions& o, const CliContext& ctx) {
    auto catalog = ctx.catalog();
    if (!catalog) return reportError(catalog.error());
    auto model = resolveModel(*catalog, o.model);
    if (!model) return reportError(model.error());
    auto dtype = resolveDtype(o.dtype);
    if (!dtype) return reportError(dtype.error());
    auto fabric = catalog->fabric(o.fabric);
    if (!fabric) return reportError(fabric.error());
    core::PlanConfig config{*model, o.tp, o.batch, o.context, *dtype};
    auto plan = core::buildDecodePlan(config);
    if (!plan) return reportError(plan.error());
    const auto bound = core::allReduceBound(*plan, *fabric);
    std::optional<core::RooflineReport> roof;
    if (!o.gpu.empty()) {
        auto gpu = catalog->gpu(o.gpu);
        if (!gpu) return reportError(gpu.error());
        auto r = core::roofline(*plan, *gpu);
        if (!r) return reportError(r.error());
        roof = *r;
    }
    if (o.json) {
        core::JsonWriter w(std::cout);
        w.beginObject();
        w.field("model", model->id).field("tp", o.tp).field("batch", o.batch).field("dtype", core::toString(*dtype));
        w.field("fabric", fabric->id).field("link_bytes_per_sec", fabric->linkBytesPerSec);
        w.field("busbw_bytes_per_sec", fabric->busbwBytesPerSec);
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
        if (roof) {
            w.key("roofline").beginObject();
            w.field("gpu", o.gpu).field("arithmetic_intensity", roof->arithmeticIntensity);
            w.field("crossover", roof->crossover).field("memory_bound", roof->memoryBound);
            w.field("compute_time_us", roof->computeTimeNs / 1e3).field("memory_time_us", roof->memoryTimeNs / 1e3);
            w.field("step_lower_bound_us", roof->stepLowerBoundNs / 1e3);
            w.field("attainable_flops", roof->attainableFlops);
            w.endObject();
        }
        w.endObject();
        return kExitOk;
    }
    auto us = [](double ns) { return core::formatDurationNs(ns); };
    std::cout << model->name << ", TP " << o.tp << ", batch " << o.batch << " on " << fabric->name << "\n";
    std::cout << "  all-reduce message " << core::formatBytes(static_cast<double>(bound.messageBytes))
              << ", ring wire bytes per GPU " << core::formatBytes(static_cast<double>(bound.wireBytesPerGpu)) << '\n';
    std::cout << "  per call:  " << us(bound.perCallAtLinkNs) << " at link "
              << core::formatFixed(fabric->linkBytesPerSec / 1e9, 1) << " GB/s, " << us(bound.perCallAtBusbwNs)
              << " at busbw " << core::formatFixed(fabric->busbwBytesPerSec / 1e9, 1) << " GB/s\n";
    std::cout << "  per step:  " << us(bound.perStepAtLinkNs) << " at link, " << us(bound.perStepAtBusbwNs)
              << " at busbw (" << core::formatBytes(static_cast<double>(bound.wireBytesPerStepPerGpu))
              << " on the wire per GPU)\n";
    std::cout << "  per token: " << us(bound.perTokenAtLinkNs) << " at link, " << us(bound.perTokenAtBusbwNs)
              << " at busbw\n";
    std::cout << "  (transfer only: real calls add launch, protocol and synchronisation latency)\n";
    if (roof) {
        std::cout << "roofline on " << o.gpu << ": intensity " << core::formatFixed(roof->arithmeticIntensity, 2)
                  << " FLOP/B vs crossover " << core::formatFixed(roof->crossover, 1) << " -> "
                  << (roof->memoryBound ? "memory-bound" : "compute-bound")
                  << ", step >= " << us(roof->stepLowerBoundNs) << '\n';
    }
    return kExitOk;
}

}  // namespace

void addBoundsCommand(CLI::App& app, CliContext& ctx) {
    auto opts = std::make_shared<BoundsOptions>();
    auto* cmd = app.add_subcommand("bounds", "Lower-bound all-reduce transfer time per call/step/token on a fabric");
    addModelOptions(*cmd, opts->model);
    cmd->add_option("--tp", opts->tp, "Tensor-parallel degree")->capture_default_str();
    cmd->add_option("--batch", opts->batch, "Sequences decoded together")->capture_default_str();
    cmd->add_option("--context", opts->context, "Tokens in the KV cache")->capture_default_str();
    cmd->add_option("--dtype", opts->dtype, "fp16, bf16, fp8 or fp32")->capture_default_str();
    cmd->add_option("--fabric", opts->fabric, "Fabric preset (see 'tpscope-cli hardware')")->required();
    cmd->add_option("--gpu", opts->gpu, "GPU preset: also print the step's roofline");
    cmd->add_flag("--json", opts->json, "Machine-readable output (docs/cli.md)");
    cmd->callback([opts, &ctx] { ctx.exitCode = run(*opts, ctx); });
}

}  // namespace tpscope::cli
