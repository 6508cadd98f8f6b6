// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// tpscope-cli capture: run the TP decode plan on this machine's GPUs and record it with CUPTI
// (DESIGN.md §7); under `mpirun -np N` / `srun` every process drives its share of the GPUs and
// process 0 writes the merged trace. --cpu-test (hidden: a test hook, not a user feature) runs the
// same launch and merge with synthetic events instead of GPU work (no CUDA call), which is how CI
// exercises the MPI path; its trace's origin is "synthetic", never "captured".

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <utility>

#include "cli_context.h"
#include "core/hw/gpu_sku.h"
#include "core/io/workspace/run_info.h"
#include "core/sim/defaults.h"
#include "core/util/json_writer.h"
#include "core/util/statistics.h"
#include "core/util/units.h"
#include "run_output.h"
#if TPSCOPE_HAVE_CUDA
#include "gpu/capture.h"
#endif

namespace tpscope::cli {

namespace {

struct CaptureCliOptions {
    ModelOptions model;
    int tp = 1;
    int batch = 1;
    int tokens = core::sim::kDefaults.capturedTokens;
    int warmup = 3;
    int context = core::sim::kDefaults.contextLen;
    std::string dtype = "fp16";
    bool graph = false;
    bool overlap = false;
    bool noCupti = false;
    bool cpuTest = false;
    bool hostPerProcess = false;
    std::int64_t skewNs = 0;
    int failProcess = -1;
    std::string out;
    std::string gpu;  // preset for the bandwidth comparison; matched from the device name when empty
    bool json = false;
};

// The GPU runner decodes dense GQA models only: a MoE or MLA model is refused, naming the dense preset
// whose parameter count is nearest the refused model's active parameters (the work one token does).
core::Status refuseNonDense(const core::Catalog& catalog, const core::ModelSpec& m) {
    if (!m.isMoe() && !m.isMla()) return core::Ok{};
    const auto active = static_cast<double>(m.activeParameterCount());
    const core::ModelSpec* closest = nullptr;
    for (const auto& d : catalog.models()) {
        if (d.isMoe() || d.isMla()) continue;
        const double gap = std::abs(std::log(static_cast<double>(d.parameterCount()) / active));
        if (!closest || gap < std::abs(std::log(static_cast<double>(closest->parameterCount()) / active))) closest = &d;
    }
    std::string message = "the GPU runner decodes dense models only and " + m.id + " is " + m.kindLabel();
    if (closest) {
        message += "; the closest dense preset by active parameters is " + closest->id + " (" +
                   core::formatFixed(static_cast<double>(closest->parameterCount()) / 1e9, 1) + " B vs " +
                   core::formatFixed(active / 1e9, 1) + " B active); simulate runs " + m.id;
    }
    return core::makeError(core::ErrorCode::Unsupported, message, "--model");
}

struct CaptureWorkload {
    core::Catalog catalog;  // loaded once: the model's, and the GPU preset of the bandwidth comparison
    core::ModelSpec model;
    core::Dtype dtype = core::Dtype::Fp16;
};

// The command line's model and dtype and the output's folder, checked before any device is looked
// for: a wrong command line exits 2 and an unwritable output 1 on every build, with CUDA or without.
// Returns 0, or the exit code of the error it reported.
int resolveCaptureWorkload(const CliContext& ctx, const CaptureCliOptions& o, CaptureWorkload& w) {
    auto catalog = ctx.catalog();
    if (!catalog) return reportError(catalog.error());
    auto model = resolveModel(*catalog, o.model);
    if (!model) return reportError(model.error());
    if (auto refused = refuseNonDense(*catalog, *model); !refused) return reportError(refused.error());
    auto dtype = resolveDtype(o.dtype);
    if (!dtype) return reportError(dtype.error());
    if (auto writable = checkOutputPath(o.out); !writable) return reportError(writable.error());
    w.model = *model;
    w.dtype = *dtype;
    w.catalog = std::move(*catalog);
    return 0;
}

#if TPSCOPE_HAVE_CUDA

double medianNs(const std::vector<std::int64_t>& v) {
    return core::median(std::vector<double>(v.begin(), v.end()));
}

std::int64_t firstStepStart(const core::Trace& t, const core::Rank& r) {
    for (const auto& range : r.ranges) {
        if (range.depth == 0 && t.name(range.name) == "step 0") return range.startNs;
    }
    return r.ranges.empty() ? 0 : r.ranges.front().startNs;
}

struct Bandwidth {
    std::string preset;
    std::string presetNote;  // "unknown SKU ..., using X" when the device name is not in core/hw/gpu_sku.h's table
    double peakBytesPerSec = 0;
    double achievedBytesPerSec = 0;
    double floorNs = 0;          // (streamed weights + KV cache) / peak: the HBM floor of a step
    double fractionOfFloor = 0;  // floor / measured step (1 = at the floor)
};

Bandwidth bandwidth(const core::Catalog& catalog, const CaptureCliOptions& o, const gpu::CaptureReport& rep,
                    double medianNs) {
    Bandwidth b;
    std::optional<core::GpuSpec> spec;
    if (!o.gpu.empty()) {
        if (auto g = catalog.gpu(o.gpu)) spec = *g;
    } else if (!rep.trace.ranks.empty()) {
        core::GpuSkuMatch sku = core::matchGpuSku(catalog, rep.trace.ranks.front().deviceName);
        spec = std::move(sku.gpu);
        b.presetNote = std::move(sku.note);
    }
    if (medianNs > 0) b.achievedBytesPerSec = static_cast<double>(rep.bytesPerStepPerGpu) / (medianNs * 1e-9);
    if (spec && spec->hbmBytesPerSec > 0) {
        b.preset = spec->id;
        b.peakBytesPerSec = spec->hbmBytesPerSec;
        b.floorNs = static_cast<double>(rep.hbmFloorBytesPerGpu()) / spec->hbmBytesPerSec * 1e9;
        b.fractionOfFloor = medianNs > 0 ? b.floorNs / medianNs : 0.0;
    }
    return b;
}

// A CUPTI count summed over the merged trace's processes (each process writes its own entry).
std::uint64_t countOf(const core::Trace& t, std::string_view key) {
    std::uint64_t sum = 0;
    for (const auto& [k, v] : t.metadata) {
        if (k == key) sum += std::strtoull(v.c_str(), nullptr, 10);
    }
    return sum;
}

// The rank's collective kernels (the checklist's "2 collectives per layer at TP >= 2").
std::size_t collectiveEvents(const core::Rank& r) {
    std::size_t n = 0;
    for (const auto& s : r.streams) {
        for (std::size_t i = 0; i < s.events.size(); ++i) n += s.events.kind(i) == core::EventKind::Collective;
    }
    return n;
}

// Records the trace lacks: dropped by CUPTI (both queues), cut off after an incomplete record, with
// an invalid timestamp, or never written because a buffer was refused. gpu-check fails on any.
std::uint64_t recordsLost(const core::Trace& t) {
    return countOf(t, "cupti.dropped_records") + countOf(t, "cupti.incomplete_records") +
           countOf(t, "cupti.invalid_timestamps") + countOf(t, "cupti.buffers_refused");
}

void printSummary(const CaptureCliOptions& o, const gpu::CaptureReport& rep, const Bandwidth& bw, bool json) {
    const core::Trace& t = rep.trace;
    const double median = medianNs(rep.stepNs);
    const double tokensPerSec = median > 0 ? o.batch * 1e9 / median : 0.0;
    if (json) {
        core::JsonWriter w(std::cout);
        w.beginObject();
        w.field("out", o.out).field("processes", rep.processes).field("steps", static_cast<int>(rep.stepNs.size()));
        w.field("median_step_ns", median).field("tokens_per_sec", tokensPerSec);
        w.key("step_ns").beginArray();
        for (const auto ns : rep.stepNs) w.value(ns);
        w.endArray();
        w.field("cupti", !o.noCupti).field("graph", o.graph).field("overlap", o.overlap);
        w.field("device_name", t.ranks.empty() ? std::string() : t.ranks.front().deviceName);
        w.field("gpu_preset", bw.preset).field("gpu_preset_note", bw.presetNote);
        w.field("peak_hbm_bytes_per_sec", bw.peakBytesPerSec);
        w.field("bytes_per_step_per_gpu", rep.bytesPerStepPerGpu).field("weight_bytes_per_gpu", rep.weightBytesPerGpu);
        w.field("streamed_weight_bytes_per_gpu", rep.streamedWeightBytesPerGpu);
        w.field("kv_cache_bytes_per_gpu", rep.kvCacheBytesPerGpu)
            .field("hbm_floor_bytes_per_gpu", rep.hbmFloorBytesPerGpu());
        w.field("achieved_bytes_per_sec", bw.achievedBytesPerSec).field("hbm_floor_ns", bw.floorNs);
        w.field("fraction_of_hbm_floor", bw.fractionOfFloor);
        w.field("origin", core::toString(t.origin));
        w.field("dropped_records", t.metadataValue("cupti.dropped_records"));
        w.field("incomplete_records", countOf(t, "cupti.incomplete_records"));
        w.field("invalid_timestamps", countOf(t, "cupti.invalid_timestamps"));
        w.field("buffers_refused", countOf(t, "cupti.buffers_refused"));
        w.field("records_lost", recordsLost(t));
        w.field("unattributed_kernels", t.metadataValue("cupti.unattributed_kernels"));
        w.field("graph_correlation_mismatches", countOf(t, "cupti.graph_correlation_mismatches"));
        w.field("id_agreed", t.metadataValue("launch.id_agreed")).field("failure", rep.failure);
        w.field("layers", rep.layers).field("plan_ops_per_step", rep.planOpsPerStep);
        w.field("plan_collectives_per_step", rep.planCollectivesPerStep);
        w.key("ranks").beginArray();
        for (const core::Rank& r : t.ranks) {
            w.beginObject().field("rank", r.id.value).field("host", r.host).field("device", r.deviceIndex);
            w.field("events", static_cast<std::uint64_t>(r.eventCount()));
            w.field("collectives", static_cast<std::uint64_t>(collectiveEvents(r)));
            w.field("ranges", static_cast<std::uint64_t>(r.ranges.size()));
            w.field("clock_offset_ns", r.clockOffsetNs).field("first_step_start_ns", firstStepStart(t, r));
            w.endObject();
        }
        w.endArray().endObject();
        std::cout << '\n';
        return;
    }
    if (t.origin == core::TraceOrigin::Synthetic) {
        std::cout << "synthetic events (cpu test, no GPU work): every duration below is made up, not measured\n";
    }
    std::cout << "captured " << t.ranks.size() << " rank(s) in " << rep.processes << " process(es), "
              << rep.stepNs.size() << " steps: median step " << core::formatDurationNs(median) << " ("
              << core::formatFixed(tokensPerSec, 1) << " tokens/s)\n";
    if (!bw.presetNote.empty()) std::cout << "note: " << bw.presetNote << '\n';
    std::cout << "memory traffic " << core::formatBytes(bw.achievedBytesPerSec) << "/s per GPU";
    if (!bw.preset.empty()) {
        std::cout << " of " << core::formatBytes(bw.peakBytesPerSec) << "/s peak (" << bw.preset << "); HBM floor "
                  << core::formatDurationNs(bw.floorNs) << " = " << core::formatFixed(100.0 * bw.fractionOfFloor, 1)
                  << " % of the measured step";
    }
    std::cout << '\n';
    if (const std::uint64_t lost = recordsLost(t); lost > 0) {
        std::cout << "warning: the trace lacks records: " << countOf(t, "cupti.dropped_records") << " dropped, "
                  << countOf(t, "cupti.incomplete_records") << " buffers cut at an incomplete record, "
                  << countOf(t, "cupti.invalid_timestamps") << " with invalid timestamps, "
                  << countOf(t, "cupti.buffers_refused") << " buffers refused\n";
    }
    const std::string untagged = t.metadataValue("cupti.unattributed_kernels");
    if (!untagged.empty() && untagged != "0") std::cout << "warning: " << untagged << " kernels lack their op tag\n";
    if (const std::uint64_t broken = countOf(t, "cupti.graph_correlation_mismatches"); broken > 0) {
        std::cout << "note: " << broken << " graph replays carried no correlation id of their own launch (a CUPTI "
                  << "13.0/13.1 bug after a process's first profiling session, fixed in 13.1 Update 1); their "
                  << "steps were rebuilt from the graph nodes\n";
    }
    if (!o.noCupti || o.cpuTest) std::cout << "trace written to " << o.out << '\n';
}

int runCaptureCommand(const CliContext& ctx, const CaptureCliOptions& o) {
    CaptureWorkload w;
    if (const int refused = resolveCaptureWorkload(ctx, o, w); refused != 0) return refused;
    gpu::CaptureOptions c;
    c.model = w.model;
    c.dtype = w.dtype;
    c.tp = o.tp;
    c.batch = o.batch;
    c.tokens = o.tokens;
    c.warmupSteps = o.warmup;
    c.contextLen = o.context;
    c.graph = o.graph;
    c.overlap = o.overlap;
    c.collect = !o.noCupti;
    c.cpuTest = o.cpuTest;
    c.cpuTestSkewNs = o.skewNs;
    c.cpuTestHostPerProcess = o.hostPerProcess;
    c.cpuTestFailProcess = o.failProcess;
    auto report = gpu::runCapture(c);
    if (!report) return reportError(report.error());
    if (!report->writesOutput) {
        // Its failure went to process 0 with its part of the trace, and process 0's exit status is the
        // launch's. Exiting non-zero here would let mpirun end the job (process 0 included) before
        // process 0 has written the trace that records the failure.
        if (!report->failure.empty()) {
            std::cerr << "tpscope-cli: capture failed: " << report->failure
                      << " (sent to process 0, which writes the trace and exits 1)\n";
        }
        return kExitOk;
    }
    if (c.collect || o.cpuTest) {
        // Non-owning: the report keeps the trace for the summary below.
        const std::shared_ptr<const core::Trace> trace(&report->trace, [](const core::Trace*) {});
        const core::PlanConfig plan{c.model, c.tp, c.batch, c.contextLen, c.dtype};
        core::RunInfo info = core::makeRunInfo(plan, c.tokens, o.cpuTest ? "cpu-test" : "local", o.gpu, "");
        info.spec.emplace_back("cuda_graphs", c.graph ? "1" : "0");
        info.spec.emplace_back("overlap", c.overlap ? "1" : "0");
        if (auto written = writeRuns({core::Run{info, trace, std::nullopt}}, o.out); !written) {
            return reportError(written.error());
        }
    }
    printSummary(o, *report, bandwidth(w.catalog, o, *report, medianNs(report->stepNs)), o.json);
    if (!report->failure.empty()) {
        std::cerr << "tpscope-cli: capture failed: " << report->failure << " (what was captured is in " << o.out
                  << ")\n";
        return kExitFailure;
    }
    return kExitOk;
}

#endif

}  // namespace

void addCaptureCommand(CLI::App& app, CliContext& ctx) {
    auto opts = std::make_shared<CaptureCliOptions>();
    auto* cmd =
        app.add_subcommand("capture", "Run TP decode on local GPUs (or under mpirun/srun) and record it with CUPTI");
    addModelOptions(*cmd, opts->model);
    cmd->add_option("--tp", opts->tp, "Tensor-parallel degree: one GPU (NCCL rank) each")
        ->capture_default_str()
        ->check(positiveNumber());
    cmd->add_option("--batch", opts->batch, "Sequences decoded together")
        ->capture_default_str()
        ->check(positiveNumber());
    cmd->add_option("--tokens", opts->tokens, "Measured decode steps")->capture_default_str()->check(positiveNumber());
    cmd->add_option("--warmup", opts->warmup, "Decode steps run before recording (not in the trace)")
        ->capture_default_str()
        ->check(nonNegativeNumber());
    cmd->add_option("--context", opts->context, "Tokens in the KV cache each new token attends to")
        ->capture_default_str()
        ->check(positiveNumber());
    cmd->add_option("--dtype", opts->dtype, "fp16 or bf16")->capture_default_str();
    cmd->add_flag("--graph", opts->graph, "Capture one decode step as a CUDA graph and replay it per token");
    cmd->add_flag("--overlap", opts->overlap, "All-reduces on their own stream");
    cmd->add_flag("--no-cupti", opts->noCupti, "Time the steps without CUPTI (no trace is written)");
    cmd->add_option("--out", opts->out, "Trace file to write (process 0)")->required();
    cmd->add_option("--gpu", opts->gpu, "GPU preset for the HBM comparison (default: matched from the device name)");
    cmd->add_flag("--json", opts->json, "Print the summary as JSON");
    cmd->add_flag("--cpu-test", opts->cpuTest, "No GPU work: synthetic events through the same launch and merge (CI)")
        ->group("");
    cmd->add_option("--cpu-test-skew-ns", opts->skewNs, "CPU test: process p's clock runs p x this ahead")->group("");
    cmd->add_flag("--cpu-test-host-per-process", opts->hostPerProcess, "CPU test: each process is its own host")
        ->group("");
    cmd->add_option("--cpu-test-fail-process", opts->failProcess,
                    "CPU test: this process fails and announces it; the others wait for the announcement")
        ->group("");
    cmd->callback([&ctx, opts] {
#if TPSCOPE_HAVE_CUDA
        ctx.exitCode = runCaptureCommand(ctx, *opts);
#else
        CaptureWorkload w;
        if (const int refused = resolveCaptureWorkload(ctx, *opts, w); refused != 0) {
            ctx.exitCode = refused;
            return;
        }
        ctx.exitCode = reportError(core::makeError(
            core::ErrorCode::DeviceError,
            "no CUDA device: this tpscope-cli was built without the CUDA backend (TPSCOPE_WITH_CUDA=OFF or the CUDA "
            "toolkit, NCCL or CUPTI was not found)",
            "capture"));
#endif
    });
}

}  // namespace tpscope::cli
