// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/sim/trace_calibration.h"

#include <algorithm>
#include <set>

#include "core/sim/kernel_model.h"
#include "core/util/units.h"

namespace tpscope::core::sim {

TraceSamples allReduceSamples(const Trace& trace, const analysis::CollectiveMatching& matching) {
    TraceSamples out;
    for (const auto& call : matching.calls) {
        if (call.op != CollectiveOp::AllReduce) continue;
        ++out.allReduceCalls;
        if (call.bytes == 0) {
            ++out.unsized;
            continue;
        }
        if (!call.complete()) {
            ++out.incomplete;
            continue;
        }
        if (call.transferNs() <= 0) {
            ++out.zeroTransfer;
            continue;
        }
        std::set<std::string> hosts;
        for (std::uint32_t i = 0; i < call.participantCount; ++i) {
            hosts.insert(trace.ranks[matching.participants[call.firstParticipant + i].rankIndex].host);
        }
        const int ranks = static_cast<int>(std::max(call.groupSize, call.participantCount));
        out.samples.push_back(
            {call.bytes, ranks, std::max(1, static_cast<int>(hosts.size())), static_cast<double>(call.transferNs())});
    }
    if (trace.ranks.size() == 1 && !out.samples.empty()) {
        out.notes.emplace_back(
            "single-rank trace: each transfer includes the wait for the other ranks, so the fitted fabric is slower "
            "than the wire");
    }
    if (out.unsized > 0) {
        out.notes.push_back(std::to_string(out.unsized) + " all-reduce call(s) without a message size skipped");
    }
    if (out.incomplete + out.zeroTransfer > 0) {
        out.notes.push_back(std::to_string(out.incomplete + out.zeroTransfer) +
                            " all-reduce call(s) not joined by every rank or with no transfer time skipped");
    }
    return out;
}

Result<KernelCalibration> calibrateKernels(const Trace& trace, const analysis::RunAnalysis& analysis,
                                           const SimConfig& config) {
    const auto& s = analysis.summary;
    if (s.steps.empty() || s.ranks == 0) {
        return makeError(ErrorCode::InvalidArgument, "the trace has no decode step to calibrate against", trace.source);
    }
    auto plan = buildDecodePlan(config.plan);
    if (!plan) return plan.error();
    KernelCalibration out;
    out.params = config.params;
    // The efficiencies fitted here scale the roofline: the built-in per-op fit would hide them.
    out.params.fittedOpTimes = false;
    const double perStepRank = static_cast<double>(s.steps.size()) * static_cast<double>(s.ranks);
    const std::size_t kernelsPerStep = plan->ops.size();
    for (const EventKind kind : {EventKind::Gemm, EventKind::Attention, EventKind::Elementwise, EventKind::Other}) {
        KernelClassFit fit;
        fit.kind = kind;
        fit.measuredNsPerStep = static_cast<double>(s.kinds[static_cast<std::size_t>(kind)].busyNs) / perStepRank;
        double roofline = 0, overhead = 0;
        for (const auto& op : plan->ops) {
            if (op.eventKind != kind) continue;
            const KernelCost c = kernelCost(op, config.cluster.gpu, plan->config.dtype, out.params);
            roofline += c.timeNs() - c.overheadNs;
            overhead += c.overheadNs;
        }
        fit.modelNsPerStep = roofline + overhead;
        KernelEfficiency* eff = &out.params.efficiency(kind);
        fit.fitted = *eff;
        if (roofline > 0 && fit.measuredNsPerStep > 0) {
            const double available = fit.measuredNsPerStep - overhead;
            if (available > 0) {
                fit.scale = roofline / available;
                eff->compute = std::clamp(eff->compute * fit.scale, 1e-3, 1.0);
                eff->memory = std::clamp(eff->memory * fit.scale, 1e-3, 1.0);
            } else {
                out.notes.push_back(std::string(toString(kind)) +
                                    " kernels are shorter than the fixed per-kernel overhead: efficiencies set to 1");
                eff->compute = eff->memory = 1.0;
            }
            fit.fitted = *eff;
        } else if (roofline > 0) {
            out.notes.push_back("no " + std::string(toString(kind)) + " kernel in the trace: its efficiency is kept");
        }
        out.classes.push_back(fit);
    }
    // The host: the idle time inside the steps spread over the kernels of a step becomes the device
    // gap (at most the profile's under an eager runtime: a larger gap is the host's doing). An eager
    // runtime's host time per launch is then solved for: the value in [0, step / kernels] whose
    // simulation has the measured step (the step grows monotonically with it), by bisection.
    std::int64_t idle = 0;
    for (const auto& r : analysis.breakdown.rankTotals) idle += r.idleNs;
    HostCosts host = config.params.host();
    host.stepHostNs = 0;  // the measured step holds whatever the host did between steps
    const double idlePerKernel =
        kernelsPerStep > 0
            ? std::max(0.0, static_cast<double>(idle) / perStepRank / static_cast<double>(kernelsPerStep))
            : 0.0;
    if (host.graphs) {
        host.deviceGapNs = idlePerKernel;
    } else {
        host.deviceGapNs = std::min(host.deviceGapNs, idlePerKernel);
    }
    out.measuredStepNs = s.latencyMeanNs;
    SimConfig check = config;
    check.tokens = std::clamp(static_cast<int>(s.steps.size()), 2, 16);
    check.ignoreMemory = true;
    auto predict = [&](double hostPerLaunchNs) -> Result<double> {
        HostCosts h = host;
        h.hostPerLaunchNs = hostPerLaunchNs;
        check.params = out.params;
        check.params.hostCosts = h;
        auto sim = simulate(check);
        if (!sim) return sim.error();
        return analysis::analyzeTrace(*sim->trace).summary.latencyMeanNs;
    };
    if (!host.graphs && kernelsPerStep > 0) {
        double lo = 0, hi = s.latencyMeanNs / static_cast<double>(kernelsPerStep);
        double atLo = 0;
        TPSCOPE_TRY_ASSIGN(atLo, predict(lo));
        if (atLo >= s.latencyMeanNs) {
            hi = lo;  // the GPU alone is as slow as the measurement: the host never binds
        } else {
            for (int i = 0; i < 24 && hi - lo > 1.0; ++i) {
                const double mid = 0.5 * (lo + hi);
                double at = 0;
                TPSCOPE_TRY_ASSIGN(at, predict(mid));
                (at < s.latencyMeanNs ? lo : hi) = mid;
            }
        }
        host.hostPerLaunchNs = hi;
    }
    out.params.hostCosts = host;
    TPSCOPE_TRY_ASSIGN(out.predictedStepNs, predict(host.hostPerLaunchNs));
    out.notes.push_back("device gap fitted to " + formatDurationNs(host.deviceGapNs) +
                        " (idle time inside the steps / " + std::to_string(kernelsPerStep) + " kernels per step)" +
                        (host.graphs ? std::string()
                                     : ", host time per launch to " + formatDurationNs(host.hostPerLaunchNs) +
                                           " (the value whose simulation has the measured step)"));
    return out;
}

}  // namespace tpscope::core::sim
