// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "calibrate_kernels.h"

#include <algorithm>
#include <iostream>
#include <string>

#include "cli_context.h"
#include "core/sim/runtime_profile.h"
#include "core/sim/trace_calibration.h"
#include "core/util/json_writer.h"
#include "core/util/units.h"
#include "text_table.h"
#include "trace_plan.h"

namespace tpscope::cli {

namespace {

// The runtime the trace ran under: its own metadata (tpscope's traces say), else eager, whose host
// time per launch the fit solves for; not the simulator's default, which is about new runs. An
// assumed runtime is said (a warning), since it decides how the idle time is split between host and device.
core::sim::Runtime traceRuntime(const core::Trace& t, const std::string& file) {
    const std::string named = t.metadataValue("runtime");
    if (const auto runtime = core::sim::parseRuntime(named)) return *runtime;
    const core::sim::Runtime assumed = core::sim::Runtime::PytorchEager;
    warn(file + (named.empty() ? std::string(" does not name its runtime") : ": unknown runtime '" + named + "'") +
         "; the fit assumes " + std::string(core::sim::toString(assumed)) +
         " (host time per launch solved for); a CUDA-graph run's idle time is the device's, not the host's");
    return assumed;
}

core::Result<core::sim::SimConfig> configOf(const core::Trace& t, const KernelCalibrationRequest& r,
                                            const core::Catalog& catalog, int batch) {
    TracePlan p;
    TPSCOPE_TRY_ASSIGN(p, resolveTracePlan(t, catalog, {r.model, r.gpu, batch, 0, ""}, "--kernels"));
    core::sim::SimConfig c;
    c.plan = p.plan;
    c.cluster.gpu = p.gpu;
    const std::string fabricId = !r.fabric.empty() ? r.fabric : t.metadataValue("fabric");
    TPSCOPE_TRY_ASSIGN(c.cluster.intraFabric, catalog.fabric(fabricId.empty() ? "nvlink4" : fabricId));
    c.cluster.gpusPerNode = std::max(c.plan.tp, c.cluster.intraFabric.maxGpus > 0 ? c.cluster.intraFabric.maxGpus : 8);
    c.params.setRuntime(traceRuntime(t, r.trace));
    return c;
}

// An efficiency far below what any kernel reaches means the fit explained the trace with the wrong
// model (another model's shapes, another GPU, a prefill trace): said, not silently written. Only
// GEMM and attention are judged: their kernels move enough bytes for the roofline to hold, while
// norms and activations take a floor of a few microseconds whatever their bytes, so their roofline
// efficiency is tiny on every trace (a correct fit of tpscope's own simulated run gives 0.002).
constexpr double kImplausibleEfficiency = 0.05;

void warnImplausibleFit(const core::sim::KernelCalibration& fit, const core::Trace& trace,
                        const core::sim::SimConfig& config) {
    const std::string traceModel = trace.metadataValue("model");
    if (!traceModel.empty() && traceModel != config.plan.model.id) {
        warn("the trace says model '" + traceModel + "', the fit assumed '" + config.plan.model.id +
             "': efficiencies fitted to another model's kernels do not carry over");
    }
    const std::string which = "is the trace of " + config.plan.model.id + " on " + config.cluster.gpu.id +
                              " at batch " + std::to_string(config.plan.batch) + "? pass --model and --gpu of the run";
    for (const auto& c : fit.classes) {
        if (c.kind != core::EventKind::Gemm && c.kind != core::EventKind::Attention) continue;
        const double lowest = std::min(c.fitted.compute, c.fitted.memory);
        if (c.measuredNsPerStep > 0 && lowest < kImplausibleEfficiency) {
            warn(std::string(core::toString(c.kind)) + " efficiency " + core::formatFixed(lowest, 3) +
                 " is implausible (kernels reach 0.3-0.9 of peak): " + which);
        } else if (c.kind == core::EventKind::Gemm && c.measuredNsPerStep > 0 && c.scale > 1 && lowest >= 1.0) {
            // Capped at the peak: the trace's GEMMs took less time than the plan's at full speed.
            warn("gemm kernels ran faster than the GPU's peak allows for this plan (efficiency capped at 1): " + which);
        }
    }
}

}  // namespace

int runKernelCalibration(const KernelCalibrationRequest& r, const core::Catalog& catalog) {
    auto trace = loadSyncedTrace(r.trace, r.analysis.clockSync, r.analysis.clockOffsets);
    if (!trace) return reportError(trace.error());
    const auto a = core::analysis::analyzeTrace(**trace, r.analysis.toCore());
    auto config = configOf(**trace, r, catalog, a.summary.batch);
    if (!config) return reportError(config.error());
    auto fit = core::sim::calibrateKernels(**trace, a, *config);
    if (!fit) return reportError(dataError(fit.error(), r.trace, "check --model and --gpu against the run"));
    warnImplausibleFit(*fit, **trace, *config);
    std::vector<std::pair<int, double>> predictions;
    if (!r.predictTp.empty()) {
        auto tps = core::parsePositiveIntList(r.predictTp, "--predict-tp");
        if (!tps) return reportError(tps.error());
        for (const int tp : *tps) {
            core::sim::SimConfig c = *config;
            c.params = fit->params;
            c.plan.tp = tp;
            c.cluster.gpusPerNode = std::max(c.cluster.gpusPerNode, tp);
            c.ignoreMemory = true;
            auto sim = core::sim::simulate(c);
            if (!sim) {
                return reportError(core::makeError(sim.error().code, sim.error().message, "TP " + std::to_string(tp)));
            }
            predictions.emplace_back(tp, core::analysis::analyzeTrace(*sim->trace).summary.latencyMeanNs);
        }
    }
    if (r.json) {
        core::JsonWriter w(std::cout);
        w.beginObject()
            .field("trace", r.trace)
            .field("model", config->plan.model.id)
            .field("gpu", config->cluster.gpu.id);
        w.field("tp", config->plan.tp).field("batch", config->plan.batch);
        w.field("measured_step_ns", fit->measuredStepNs).field("predicted_step_ns", fit->predictedStepNs);
        const core::sim::HostCosts host = fit->params.host();
        w.field("runtime", core::sim::toString(fit->params.effectiveRuntime()));
        w.field("launch_gap_ns", host.deviceGapNs).field("host_per_launch_ns", host.hostPerLaunchNs);
        w.field("step_host_ns", host.stepHostNs);
        w.key("classes").beginArray();
        for (const auto& c : fit->classes) {
            w.beginObject().field("kind", core::toString(c.kind)).field("measured_ns_per_step", c.measuredNsPerStep);
            w.field("model_ns_per_step", c.modelNsPerStep).field("scale", c.scale);
            w.field("compute_efficiency", c.fitted.compute).field("memory_efficiency", c.fitted.memory).endObject();
        }
        w.endArray().key("predictions").beginArray();
        for (const auto& [tp, ns] : predictions) {
            w.beginObject().field("tp", tp).field("step_latency_ns", ns).endObject();
        }
        w.endArray().key("notes").beginArray();
        for (const auto& n : fit->notes) w.value(n);
        w.endArray().endObject();
        std::cout << '\n';
        return kExitOk;
    }
    std::cout << "kernel efficiencies fitted to " << r.trace << " (" << config->plan.model.id << " on "
              << config->cluster.gpu.id << ", TP " << config->plan.tp << ", batch " << config->plan.batch << ")\n\n";
    TextTable t({"class", "measured / step", "model / step (start)", "compute eff", "memory eff"});
    for (const auto& c : fit->classes) {
        t.addRow({std::string(core::toString(c.kind)), core::formatDurationNs(c.measuredNsPerStep),
                  core::formatDurationNs(c.modelNsPerStep), core::formatFixed(c.fitted.compute, 3),
                  core::formatFixed(c.fitted.memory, 3)});
    }
    t.print(std::cout);
    std::cout << "\nstep latency: measured " << core::formatDurationNs(fit->measuredStepNs)
              << ", simulated with the fit " << core::formatDurationNs(fit->predictedStepNs) << " ("
              << percentText(fit->predictedStepNs / fit->measuredStepNs - 1) << ")\n";
    for (const auto& [tp, ns] : predictions) {
        std::cout << "  TP " << tp << ": predicted step latency " << core::formatDurationNs(ns)
                  << " (model estimate)\n";
    }
    for (const auto& n : fit->notes) std::cout << "note: " << n << '\n';
    return kExitOk;
}

}  // namespace tpscope::cli
