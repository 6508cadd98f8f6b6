// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/io/import/step_projection.h"

#include <algorithm>
#include <limits>

#include "core/trace/step_annotation.h"

namespace tpscope::core {

namespace {

struct GpuSpan {
    std::int64_t startNs = std::numeric_limits<std::int64_t>::max();
    std::int64_t endNs = std::numeric_limits<std::int64_t>::min();
    void add(std::int64_t s, std::int64_t e) {
        startNs = std::min(startNs, s);
        endNs = std::max(endNs, e);
    }
    bool empty() const { return startNs > endNs; }
};

}  // namespace

bool projectedStep(std::string_view name) {
    const auto annotation = parseStepAnnotation(name);
    return annotation && annotation->engine != StepEngine::PyTorch;
}

namespace {

// Index of the first entry of `launched` (sorted by correlation) whose correlation is >= c, searched
// from `hint` on: a stream's events mostly come in launch order, so the answer lies a few entries
// after the previous one (found by doubling steps), and a full binary search is the fallback.
std::size_t seekCorrelation(const std::vector<std::pair<std::uint32_t, std::int32_t>>& launched, std::uint32_t c,
                            std::size_t hint) {
    auto below = [](const std::pair<std::uint32_t, std::int32_t>& l, std::uint32_t v) { return l.first < v; };
    const auto begin = launched.begin();
    if (hint >= launched.size() || (hint > 0 && launched[hint - 1].first >= c)) {
        return static_cast<std::size_t>(std::lower_bound(begin, launched.end(), c, below) - begin);
    }
    std::size_t lo = hint;
    std::size_t step = 1;
    while (lo + step < launched.size() && launched[lo + step].first < c) {
        lo += step;
        step *= 2;
    }
    const std::size_t hi = std::min(launched.size(), lo + step + 1);
    return static_cast<std::size_t>(
        std::lower_bound(begin + static_cast<std::ptrdiff_t>(lo), begin + static_cast<std::ptrdiff_t>(hi), c, below) -
        begin);
}

// Per (annotation, device), the span of the GPU events whose correlation `launched` maps to it
// (`launched` is sorted here; of two entries for one correlation, the later one wins). A sorted list
// searched per event, not a table indexed by correlation: such a table spans every correlation id
// between the first and the last launch (all the runtime calls, 1 MB a rank of k8), fresh pages for
// each file that the searches cost less than (a few steps an event, the hint being close).
std::vector<GpuSpan> spansOf(std::vector<std::pair<std::uint32_t, std::int32_t>>& launched, std::size_t annotations,
                             const TracePart& part) {
    auto byCorrelation = [](const auto& a, const auto& b) { return a.first < b.first; };
    if (!std::is_sorted(launched.begin(), launched.end(), byCorrelation)) {
        std::stable_sort(launched.begin(), launched.end(), byCorrelation);
    }
    // Of equal correlations the later entry wins: keep the last of each run.
    std::size_t kept = 0;
    for (std::size_t i = 0; i < launched.size(); ++i) {
        if (i + 1 < launched.size() && launched[i + 1].first == launched[i].first) continue;
        launched[kept++] = launched[i];
    }
    launched.resize(kept);
    const std::size_t devices = part.devices.size();
    std::vector<GpuSpan> spans(annotations * devices);
    for (std::size_t d = 0; d < devices; ++d) {
        for (const auto& stream : part.devices[d].streams) {
            std::size_t hint = 0;
            for (const auto& e : stream.events) {
                const std::size_t i = seekCorrelation(launched, e.correlationId, hint);
                if (i >= launched.size() || launched[i].first != e.correlationId) continue;
                hint = i + 1;
                const std::int32_t owner = launched[i].second;
                if (owner >= 0) spans[static_cast<std::size_t>(owner) * devices + d].add(e.startNs, e.endNs());
            }
        }
    }
    return spans;
}

bool usableCorrelation(std::int64_t c) {
    return c > 0 && c <= std::numeric_limits<std::uint32_t>::max();
}

// Adds annotation i's non-empty spans to its devices; returns whether there was one.
bool addRanges(const std::vector<GpuSpan>& spans, std::size_t i, NameId name, int depth, TracePart& part) {
    const std::size_t devices = part.devices.size();
    bool any = false;
    for (std::size_t d = 0; d < devices; ++d) {
        const GpuSpan& span = spans[i * devices + d];
        if (span.empty()) continue;
        part.devices[d].ranges.push_back({span.startNs, span.endNs, name, depth});
        any = true;
    }
    return any;
}

}  // namespace

std::vector<bool> projectSteps(const std::vector<CpuStepRange>& steps,
                               const std::vector<KinetoLinks::LaunchRecord>& launches, TracePart& part) {
    std::vector<bool> projected(steps.size(), false);
    if (steps.empty() || launches.empty()) return projected;
    std::vector<std::pair<std::uint32_t, std::int32_t>> launched;  // correlation, step
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const CpuStepRange& step = steps[i];
        auto it =
            std::lower_bound(launches.begin(), launches.end(), std::pair{step.thread, step.startNs},
                             [](const KinetoLinks::LaunchRecord& l, const std::pair<std::int64_t, std::int64_t>& v) {
                                 return l.thread != v.first ? l.thread < v.first : l.startNs < v.second;
                             });
        for (; it != launches.end() && it->thread == step.thread && it->startNs < step.endNs; ++it) {
            if (!usableCorrelation(it->correlation)) continue;
            launched.emplace_back(static_cast<std::uint32_t>(it->correlation), static_cast<std::int32_t>(i));
        }
    }
    if (launched.empty()) return projected;
    const auto spans = spansOf(launched, steps.size(), part);
    for (std::size_t i = 0; i < steps.size(); ++i) projected[i] = addRanges(spans, i, steps[i].name, 0, part);
    return projected;
}

std::vector<bool> projectAnnotationTree(const std::vector<CpuAnnotation>& annotations,
                                        const std::vector<KinetoLinks::LaunchRecord>& launches, TracePart& part) {
    const std::size_t n = annotations.size();
    std::vector<bool> projected(n, false);
    if (n == 0 || launches.empty()) return projected;
    // CPU nesting order: by thread, then start, the longer first (a parent before its children).
    std::vector<std::uint32_t> order(n);
    for (std::uint32_t i = 0; i < n; ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
        const CpuStepRange& x = annotations[a].range;
        const CpuStepRange& y = annotations[b].range;
        if (x.thread != y.thread) return x.thread < y.thread;
        if (x.startNs != y.startNs) return x.startNs < y.startNs;
        return x.endNs != y.endNs ? x.endNs > y.endNs : a < b;
    });
    // One merge of annotations and launches (both by thread, start): each annotation's parent (the
    // innermost open range that contains it) and each launch's innermost open range.
    std::vector<std::int32_t> parent(n, -1);
    std::vector<std::pair<std::uint32_t, std::int32_t>> launched;  // correlation, innermost annotation
    launched.reserve(launches.size());                             // at most one entry a launch
    std::vector<std::uint32_t> open;                               // stack, outermost first
    std::size_t a = 0;
    auto contains = [&](std::uint32_t outer, std::int64_t thread, std::int64_t startNs, std::int64_t endNs) {
        const CpuStepRange& o = annotations[outer].range;
        return o.thread == thread && o.startNs <= startNs && endNs <= o.endNs;
    };
    for (std::size_t l = 0; l <= launches.size(); ++l) {
        // Open every annotation that starts before this launch (on its thread, or on an earlier one).
        while (a < n) {
            const CpuStepRange& r = annotations[order[a]].range;
            if (l < launches.size() && (r.thread > launches[l].thread ||
                                        (r.thread == launches[l].thread && r.startNs > launches[l].startNs))) {
                break;
            }
            while (!open.empty() && !contains(open.back(), r.thread, r.startNs, r.endNs)) open.pop_back();
            if (!open.empty()) parent[order[a]] = static_cast<std::int32_t>(open.back());
            open.push_back(order[a]);
            ++a;
        }
        if (l == launches.size()) break;
        const auto& launch = launches[l];
        while (!open.empty() && !contains(open.back(), launch.thread, launch.startNs, launch.startNs + 1)) {
            open.pop_back();
        }
        if (!open.empty() && usableCorrelation(launch.correlation)) {
            launched.emplace_back(static_cast<std::uint32_t>(launch.correlation),
                                  static_cast<std::int32_t>(open.back()));
        }
    }
    if (launched.empty()) return projected;
    auto spans = spansOf(launched, n, part);
    // Children after their parent in `order`: walking it backwards hands each span up once.
    const std::size_t devices = part.devices.size();
    for (std::size_t k = n; k-- > 0;) {
        const std::uint32_t i = order[k];
        if (parent[i] < 0) continue;
        for (std::size_t d = 0; d < devices; ++d) {
            const GpuSpan& child = spans[i * devices + d];
            if (!child.empty()) {
                spans[static_cast<std::size_t>(parent[i]) * devices + d].add(child.startNs, child.endNs);
            }
        }
    }
    // Depth from the CPU tree, not from overlaps on the GPU: two siblings whose work overlaps there
    // (several streams) stay on one row instead of the later one passing for the earlier's child.
    std::vector<int> depth(n, 0);
    for (const std::uint32_t i : order) {
        depth[i] = annotations[i].depth >= 0 ? annotations[i].depth
                   : parent[i] >= 0          ? depth[static_cast<std::size_t>(parent[i])] + 1
                                             : 0;
        projected[i] = addRanges(spans, i, annotations[i].range.name, depth[i], part);
    }
    return projected;
}

}  // namespace tpscope::core
