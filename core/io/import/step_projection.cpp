// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/io/import/step_projection.h"

#include <algorithm>
#include <limits>
#include <unordered_map>

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

std::vector<bool> projectSteps(const std::vector<CpuStepRange>& steps,
                               const std::vector<KinetoLinks::LaunchRecord>& launches, TracePart& part) {
    std::vector<bool> projected(steps.size(), false);
    if (steps.empty() || launches.empty()) return projected;
    // correlation -> (device, GPU span of its events); a graph launch's kernels share one correlation.
    std::unordered_map<std::uint32_t, std::vector<std::pair<std::size_t, GpuSpan>>> byCorrelation;
    for (std::size_t d = 0; d < part.devices.size(); ++d) {
        for (const auto& stream : part.devices[d].streams) {
            for (const auto& e : stream.events) {
                if (e.correlationId == 0) continue;
                auto& spans = byCorrelation[e.correlationId];
                auto it = std::find_if(spans.begin(), spans.end(), [d](const auto& s) { return s.first == d; });
                if (it == spans.end()) it = spans.insert(spans.end(), {d, GpuSpan{}});
                it->second.add(e.startNs, e.endNs());
            }
        }
    }
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const CpuStepRange& step = steps[i];
        std::vector<GpuSpan> perDevice(part.devices.size());
        auto it =
            std::lower_bound(launches.begin(), launches.end(), std::pair{step.thread, step.startNs},
                             [](const KinetoLinks::LaunchRecord& l, const std::pair<std::int64_t, std::int64_t>& v) {
                                 return l.thread != v.first ? l.thread < v.first : l.startNs < v.second;
                             });
        for (; it != launches.end() && it->thread == step.thread && it->startNs < step.endNs; ++it) {
            if (it->correlation <= 0 || it->correlation > std::numeric_limits<std::uint32_t>::max()) continue;
            const auto found = byCorrelation.find(static_cast<std::uint32_t>(it->correlation));
            if (found == byCorrelation.end()) continue;
            for (const auto& [device, span] : found->second) perDevice[device].add(span.startNs, span.endNs);
        }
        for (std::size_t d = 0; d < perDevice.size(); ++d) {
            if (perDevice[d].empty()) continue;
            part.devices[d].ranges.push_back({perDevice[d].startNs, perDevice[d].endNs, step.name, 0});
            projected[i] = true;
        }
    }
    return projected;
}

}  // namespace tpscope::core
