// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/analysis/understanding.h"

#include <algorithm>

#include "core/analysis/analysis.h"
#include "core/trace/kernel_time.h"
#include "core/util/units.h"

namespace tpscope::core::analysis {

std::string_view toString(GapKind kind) {
    switch (kind) {
        case GapKind::NoLayers:
            return "no_layers";
        case GapKind::BatchAssumed:
            return "batch_assumed";
        case GapKind::OtherKernels:
            break;
    }
    return "other_kernels";
}

namespace {

// "other" kernel time over kernel time, memcpy and memset left out (as core/trace/kernel_time.h).
double otherShareOf(const RunSummary& s) {
    std::int64_t kernelNs = 0;
    std::int64_t otherNs = 0;
    for (const auto& k : s.kinds) {
        if (k.kind == EventKind::Memcpy || k.kind == EventKind::Memset) continue;
        kernelNs += k.busyNs;
        if (k.kind == EventKind::Other) otherNs += k.busyNs;
    }
    return kernelNs > 0 ? static_cast<double>(otherNs) / static_cast<double>(kernelNs) : 0;
}

}  // namespace

std::string Understanding::headline() const {
    if (understood()) return {};
    std::string what;
    std::string fix;
    for (const auto& g : gaps) {
        what += (what.empty() ? "" : "; ") + g.what;
        fix += (fix.empty() ? "" : "; ") + g.fix;
    }
    return "tpscope did not understand this trace: " + what + ". Fix: " + fix + ".";
}

Understanding checkUnderstanding(const Trace& trace, const RunAnalysis& a, std::size_t topNames) {
    Understanding u;
    u.otherShare = otherShareOf(a.summary);
    if (u.otherShare > kOtherShareLimit) {
        std::string names;
        for (auto& n : topKernelNames(trace, EventKind::Other, topNames)) {
            names += (names.empty() ? "" : ", ") + n.name;
            u.topOther.push_back({std::move(n.name), n.ns, n.count});
        }
        u.gaps.push_back(
            {GapKind::OtherKernels,
             formatPercent(u.otherShare) + " of kernel time is in kernels no rule classes (\"other\"; top: " + names +
                 ")",
             "--kernel-rules FILE with a rule for those names (same format as resources/kernel_rules.json)"});
    }
    const bool anyLayer = std::any_of(a.segmentation.ranks.begin(), a.segmentation.ranks.end(),
                                      [](const RankSegmentation& r) { return !r.layers.empty(); });
    if (!anyLayer) {
        u.gaps.push_back({GapKind::NoLayers,
                          "0 layers found (no NVTX layer ranges, no all-reduce pattern, no repeating kernel sequence)",
                          "--layers-per-step N (and --blocks-per-layer N) to set the pattern rule"});
    }
    if (!a.summary.batchKnown) {
        u.gaps.push_back({GapKind::BatchAssumed,
                          "the batch is assumed to be 1 (no --batch, no 'batch' metadata, no engine step annotation)",
                          "--batch N"});
    }
    return u;
}

}  // namespace tpscope::core::analysis
