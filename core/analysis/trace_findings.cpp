// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/analysis/trace_findings.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "core/analysis/analysis.h"
#include "core/analysis/host_idle.h"
#include "core/util/statistics.h"
#include "core/util/units.h"

namespace tpscope::core::analysis {

std::string_view toString(FindingKind kind) {
    switch (kind) {
        case FindingKind::LaunchBound:
            return "launch_bound";
        case FindingKind::SingleRankCollectives:
            return "single_rank_collectives";
    }
    return "launch_bound";
}

namespace {

std::string percent(double fraction) {
    return formatFixed(fraction * 100.0, 0) + " %";
}

std::optional<TraceFinding> launchBound(const Trace& trace, const LayerBreakdown& breakdown, const FindingOptions& o) {
    std::map<std::int64_t, TimeBreakdown> perStep;
    for (const auto& row : breakdown.steps) perStep[row.step] += row.time;
    TraceFinding f;
    f.kind = FindingKind::LaunchBound;
    double sumIdle = 0, sumWall = 0, sumExposed = 0;
    for (const auto& [step, t] : perStep) {
        if (t.wallNs <= 0) continue;
        const double idle = static_cast<double>(t.idleNs) / static_cast<double>(t.wallNs);
        if (idle >= o.launchBoundIdleShare) {
            f.steps.push_back(step);
            f.value = std::max(f.value, idle);
            sumIdle += static_cast<double>(t.idleNs);
            sumWall += static_cast<double>(t.wallNs);
            sumExposed += static_cast<double>(t.exposedCommNs);
        }
    }
    if (f.steps.empty()) return std::nullopt;
    const double mean = sumIdle / sumWall;
    f.text = std::to_string(f.steps.size()) + " of " + std::to_string(perStep.size()) + " step(s) leave the GPU idle " +
             percent(mean) + " of their time (worst " + percent(f.value) + "; exposed communication " +
             percent(sumExposed / sumWall) +
             "): launch- or CPU-bound, the host limits them more than communication; capture the step in a CUDA "
             "graph or run larger batches before tuning the fabric";
    // With host rows the cause is measured, not inferred: the gaps whose kernel was launched late.
    if (const HostIdle host = attributeIdleToHost(trace); host.hostRows && host.gapNs > 0) {
        f.text += "; the host rows show " + percent(host.launchWaitShare()) +
                  " of the idle gaps waiting for the kernel's launch call (" + std::to_string(host.launchBoundKernels) +
                  " of " + std::to_string(host.kernels) + " kernels launched after the GPU was free)";
    }
    return f;
}

std::optional<TraceFinding> singleRank(const Trace& trace, const CollectiveMatching& m, const RunSummary& s,
                                       const FindingOptions& o) {
    if (trace.ranks.size() != 1 || m.calls.empty()) return std::nullopt;
    TraceFinding f;
    f.kind = FindingKind::SingleRankCollectives;
    std::int64_t allReduceNs = 0, kernelNs = 0;
    for (const auto& k : s.kinds) kernelNs += k.busyNs;
    std::vector<double> busbw;  // algbw first; the bus factor once the communicator size is known
    for (const auto& call : m.calls) {
        if (call.op != CollectiveOp::AllReduce) continue;
        f.communicatorSize = std::max(f.communicatorSize, call.groupSize);
        for (std::uint32_t i = 0; i < call.participantCount; ++i) {
            const auto& p = m.participants[call.firstParticipant + i];
            allReduceNs += participantEndNs(trace, p) - participantStartNs(trace, p);
        }
        if (const double b = algBandwidth(call); std::isfinite(b)) busbw.push_back(b);
    }
    if (allReduceNs == 0) return std::nullopt;
    if (f.communicatorSize <= 1) {
        // Custom all-reduce ops do not name their group: the job's world size is the best bound.
        f.communicatorSize = std::max(f.communicatorSize, static_cast<std::uint32_t>(metadataInt(trace, "world_size")));
    }
    f.value = kernelNs > 0 ? static_cast<double>(allReduceNs) / static_cast<double>(kernelNs) : 0;
    const double factor = busBandwidthFactor(CollectiveOp::AllReduce, f.communicatorSize);
    if (f.communicatorSize < 2) busbw.clear();
    f.busbwBytesPerSec = busbw.empty() ? std::nan("") : percentile(busbw, 0.5) * factor;
    f.fabricBusbwBytesPerSec = o.fabricBusbwBytesPerSec;
    f.text = "single rank of " +
             (f.communicatorSize > 1 ? "a " + std::to_string(f.communicatorSize) + "-rank communicator"
                                     : std::string("a multi-rank job")) +
             ": all-reduces take " + percent(f.value) + " of kernel time; wait and transfer cannot be split";
    if (!busbw.empty()) {
        f.text += "; median busbw " + formatFixed(f.busbwBytesPerSec / 1e9, 1) + " GB/s (wait included: a lower bound)";
        if (o.fabricBusbwBytesPerSec > 0) {
            f.text += ", " + percent(f.busbwBytesPerSec / o.fabricBusbwBytesPerSec) + " of " +
                      (o.fabricId.empty() ? std::string("the fabric") : o.fabricId) + "'s " +
                      formatFixed(o.fabricBusbwBytesPerSec / 1e9, 1) + " GB/s";
        }
    }
    return f;
}

}  // namespace

std::vector<TraceFinding> findTraceIssues(const Trace& trace, const CollectiveMatching& matching,
                                          const LayerBreakdown& breakdown, const RunSummary& summary,
                                          const FindingOptions& options) {
    std::vector<TraceFinding> out;
    if (auto f = launchBound(trace, breakdown, options)) out.push_back(std::move(*f));
    if (auto f = singleRank(trace, matching, summary, options)) out.push_back(std::move(*f));
    return out;
}

}  // namespace tpscope::core::analysis
