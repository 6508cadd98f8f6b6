// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/io/import/step_projection.h"

#include <algorithm>
#include <limits>
#include <unordered_map>

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

std::vector<bool> projectSteps(const std::vector<CpuStepRange>& steps,
                               const std::vector<KinetoLinks::LaunchRecord>& launches, TracePart& part) {
    std::vector<bool> projected(steps.size(), false);
    if (steps.empty() || launches.empty()) return projected;
    // Which step launched each correlation: dense when the ids are (CUPTI numbers them from 1).
    std::vector<std::pair<std::uint32_t, std::int32_t>> launched;  // correlation, step
    std::uint32_t maxCorrelation = 0;
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const CpuStepRange& step = steps[i];
        auto it =
            std::lower_bound(launches.begin(), launches.end(), std::pair{step.thread, step.startNs},
                             [](const KinetoLinks::LaunchRecord& l, const std::pair<std::int64_t, std::int64_t>& v) {
                                 return l.thread != v.first ? l.thread < v.first : l.startNs < v.second;
                             });
        for (; it != launches.end() && it->thread == step.thread && it->startNs < step.endNs; ++it) {
            if (it->correlation <= 0 || it->correlation > std::numeric_limits<std::uint32_t>::max()) continue;
            const auto c = static_cast<std::uint32_t>(it->correlation);
            launched.emplace_back(c, static_cast<std::int32_t>(i));
            maxCorrelation = std::max(maxCorrelation, c);
        }
    }
    if (launched.empty()) return projected;
    std::size_t events = 0;
    for (const auto& d : part.devices) {
        for (const auto& s : d.streams) events += s.events.size();
    }
    const bool dense = maxCorrelation <= 4 * (events + launched.size()) + 1024;
    std::vector<std::int32_t> denseStep(dense ? maxCorrelation + 1 : 0, -1);
    std::unordered_map<std::uint32_t, std::int32_t> sparseStep;
    for (const auto& [c, step] : launched) {
        if (dense) {
            denseStep[c] = step;
        } else {
            sparseStep[c] = step;
        }
    }
    const std::size_t devices = part.devices.size();
    std::vector<GpuSpan> spans(steps.size() * devices);
    for (std::size_t d = 0; d < devices; ++d) {
        for (const auto& stream : part.devices[d].streams) {
            for (const auto& e : stream.events) {
                std::int32_t step = -1;
                if (dense) {
                    if (e.correlationId <= maxCorrelation) step = denseStep[e.correlationId];
                } else if (const auto it = sparseStep.find(e.correlationId); it != sparseStep.end()) {
                    step = it->second;
                }
                if (step >= 0) spans[static_cast<std::size_t>(step) * devices + d].add(e.startNs, e.endNs());
            }
        }
    }
    for (std::size_t i = 0; i < steps.size(); ++i) {
        for (std::size_t d = 0; d < devices; ++d) {
            const GpuSpan& span = spans[i * devices + d];
            if (span.empty()) continue;
            part.devices[d].ranges.push_back({span.startNs, span.endNs, steps[i].name, 0});
            projected[i] = true;
        }
    }
    return projected;
}

}  // namespace tpscope::core
