// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// tpscope-cli kernels: what each kernel of one decoder layer and the LM head should take on a GPU
// (core/sim/kernel_table.h: the simulator's per-op times, fitted to measured kernels where there is data).

#include <iostream>
#include <optional>

#include "cli_context.h"
#include "core/sim/kernel_table.h"
#include "core/util/json_writer.h"
#include "core/util/units.h"
#include "plan_options.h"
#include "text_table.h"

namespace tpscope::cli {

namespace {

struct KernelsOptions {
    ConfigOptions config;  // model, dtype, precision, MoE mode and the (required) GPU
    int tp = 1;
    int batch = 1;
    int context = 1024;
    int layer = 0;
    bool roofline = false;
    bool json = false;
};

std::string shapeText(const core::PlanOp& op) {
    if (op.eventKind == core::EventKind::Gemm) {
        return std::to_string(op.gemm.m) + "x" + std::to_string(op.gemm.n) + "x" + std::to_string(op.gemm.k);
    }
    if (op.rowWidth > 0) return std::to_string(op.rows) + "x" + std::to_string(op.rowWidth);
    return "";
}

void printJson(const core::sim::KernelTable& t, const core::PlanConfig& c) {
    core::JsonWriter w(std::cout);
    w.beginObject();
    w.field("model", c.model.id).field("gpu", t.gpuId).field("tp", c.tp).field("batch", c.batch);
    w.field("context", c.contextLen).field("dtype", core::toString(c.dtype));
    w.field("weights", core::toString(c.weightsDtype())).field("layer", t.layer);
    w.field("op_time_model", t.fitDescription.empty() ? std::string("roofline") : t.fitDescription);
    w.field("derived", t.derived).field("layer_time_ns", t.layerTimeNs);
    w.key("ops").beginArray();
    for (const auto& r : t.rows) {
        const auto& op = r.op;
        w.beginObject();
        w.field("layer", op.layer).field("op", core::toString(op.kind)).field("kind", core::toString(op.eventKind));
        if (op.eventKind == core::EventKind::Gemm) w.field("m", op.gemm.m).field("n", op.gemm.n).field("k", op.gemm.k);
        if (op.rowWidth > 0) w.field("rows", op.rows).field("width", op.rowWidth);
        w.field("weight_bytes", op.weightBytesRead).field("bytes_read", op.bytesRead);
        w.field("bytes_written", op.bytesWritten).field("flops", op.flops);
        w.field("time_ns", r.timeNs).field("bandwidth_fraction", r.bandwidthFraction).field("timed_by", r.source);
        w.endObject();
    }
    w.endArray();
    w.endObject();
}

void printText(const core::sim::KernelTable& t, const core::PlanConfig& c, const core::GpuSpec& gpu) {
    auto& out = std::cout;
    out << c.model.name << " on " << gpu.name << ", TP " << c.tp << ", batch " << c.batch << ", context "
        << c.contextLen << ", " << core::toString(c.dtype);
    if (c.weightsDtype() != c.dtype) out << " (weights " << core::toString(c.weightsDtype()) << ")";
    out << "\nkernel times: " << (t.fitDescription.empty() ? std::string("roofline") : t.fitDescription) << "\n\n";
    TextTable table({"layer", "op", "shape", "weights", "bytes", "time", "of peak HBM", "timed by"});
    for (const auto& r : t.rows) {
        const auto& op = r.op;
        table.addRow({op.layer < 0 ? "-" : std::to_string(op.layer), std::string(core::toString(op.kind)),
                      shapeText(op),
                      op.weightBytesRead > 0 ? core::formatBytes(static_cast<double>(op.weightBytesRead)) : "",
                      core::formatBytes(static_cast<double>(op.bytesRead + op.bytesWritten)),
                      core::formatDurationNs(r.timeNs), core::formatPercent(r.bandwidthFraction),
                      r.source == "roofline" ? r.source : r.source.substr(r.source.rfind(", ") + 2)});
    }
    table.print(out);
    out << "\nlayer " << t.layer << ": " << core::formatDurationNs(t.layerTimeNs)
        << " of compute kernels (collectives not included: see 'tpscope-cli allreduce')\n";
    if (t.derived) {
        out << "note: " << gpu.id << " has no measured per-op data; its fitted times are " << t.fitDescription << '\n';
    }
}

int run(const KernelsOptions& o, const CliContext& ctx) {
    auto catalog = ctx.catalog();
    if (!catalog) return reportError(catalog.error());
    auto resolved = resolveConfig(*catalog, o.config, o.tp, o.batch, o.context);
    if (!resolved) return reportError(resolved.error());
    const core::PlanConfig& config = resolved->plan;
    if (!resolved->gpu) return reportError(core::makeError(core::ErrorCode::InvalidArgument, "is required", "--gpu"));
    const core::GpuSpec& gpu = *resolved->gpu;
    core::sim::SimParams params;
    params.fittedOpTimes = !o.roofline;
    auto table = core::sim::kernelTable(config, gpu, params, o.layer);
    if (!table) return reportError(table.error());
    if (o.json) {
        printJson(*table, config);
    } else {
        printText(*table, config, gpu);
    }
    return kExitOk;
}

}  // namespace

void addKernelsCommand(CLI::App& app, CliContext& ctx) {
    auto opts = std::make_shared<KernelsOptions>();
    auto* cmd = app.add_subcommand(
        "kernels", "What each kernel of one decoder layer and the LM head should take on a GPU (fitted per-op times)");
    addModelOptions(*cmd, opts->config.model);
    cmd->add_option("--gpu", opts->config.gpu, "GPU preset (see 'tpscope-cli hardware')")->required();
    cmd->add_option("--tp", opts->tp, "Tensor-parallel degree")->capture_default_str()->check(positiveNumber());
    cmd->add_option("--batch", opts->batch, "Sequences decoded together")
        ->capture_default_str()
        ->check(positiveNumber());
    cmd->add_option("--context", opts->context, "Tokens in the KV cache")
        ->capture_default_str()
        ->check(positiveNumber());
    cmd->add_option("--layer", opts->layer, "The decoder layer to show (MoE models: dense and MoE layers differ)")
        ->capture_default_str()
        ->check(nonNegativeNumber());
    cmd->add_option("--dtype", opts->config.dtype, "fp16, bf16, fp8 or fp32")->capture_default_str();
    addPrecisionOptions(*cmd, opts->config.precision);
    cmd->add_flag("--roofline", opts->roofline, "Time every op by the roofline (the fitted per-op times off)");
    addJsonFlag(*cmd, opts->json);
    cmd->callback([opts, &ctx] { ctx.exitCode = run(*opts, ctx); });
}

}  // namespace tpscope::cli
