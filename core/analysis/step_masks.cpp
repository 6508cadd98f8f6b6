// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/analysis/step_masks.h"

#include <algorithm>
#include <limits>

namespace tpscope::core::analysis {

namespace {

constexpr std::uint32_t kNoStep = std::numeric_limits<std::uint32_t>::max();

void addMasks(CoverageTimeline::MaskTimes& to, const CoverageTimeline::MaskTimes& from) {
#pragma GCC unroll 16
    for (std::size_t m = 0; m < to.size(); ++m) to[m] += from[m];
}

}  // namespace

StepMasks::StepMasks(std::span<const StepWindow> steps, const LayerWindows& layers)
    : m_steps(steps), m_layers(layers), m_state(steps.size()), m_stepOfLayer(layers.size(), kNoStep) {
    bool disjoint = steps.size() < std::size_t{kNoStep};
    for (std::size_t s = 1; s < steps.size() && disjoint; ++s) disjoint = steps[s - 1].endNs <= steps[s].startNs;
    if (!disjoint) {
        for (auto& st : m_state) st.tiled = false;
        return;
    }
    // Both lists in start order: each layer finds the step that holds its start by a forward walk.
    std::size_t s = 0;
    std::int64_t previousEndNs = 0;  // the end of the last layer counted in a step
    for (std::size_t i = 0; i < layers.size(); ++i) {
        const LayerWindow l = layers[i];
        while (s < steps.size() && steps[s].endNs <= l.startNs) ++s;
        if (s == steps.size()) break;
        if (l.startNs < steps[s].startNs) {
            // Before this step's start: outside every step, unless it reaches into this one.
            if (l.endNs > steps[s].startNs) m_state[s].tiled = false;
            continue;
        }
        Step& st = m_state[s];
        const bool inside = l.endNs <= steps[s].endNs && l.endNs >= l.startNs;
        const bool afterPrevious = st.layerCount == 0 || previousEndNs <= l.startNs;
        previousEndNs = l.endNs;
        if (st.layerCount == 0) st.firstLayer = i;
        ++st.layerCount;
        if (!inside || !afterPrevious || st.firstLayer + st.layerCount - 1 != i) st.tiled = false;
        m_stepOfLayer[i] = static_cast<std::uint32_t>(s);
    }
}

void StepMasks::addLayer(std::size_t index, const CoverageTimeline::MaskTimes& masks) {
    const std::uint32_t s = m_stepOfLayer[index];
    if (s != kNoStep && m_state[s].tiled) addMasks(m_state[s].layerMasks, masks);
}

CoverageTimeline::MaskTimes StepMasks::measure(std::size_t index, CoverageSweep& sweep) const {
    const StepWindow& step = m_steps[index];
    const Step& st = m_state[index];
    if (!st.tiled) return sweep.measure({step.startNs, step.endNs});
    CoverageTimeline::MaskTimes out = st.layerMasks;
    std::int64_t t = step.startNs;
    for (std::size_t i = st.firstLayer; i < st.firstLayer + st.layerCount; ++i) {
        const LayerWindow l = m_layers[i];
        if (l.startNs > t) addMasks(out, sweep.measure({t, l.startNs}));
        t = l.endNs;
    }
    if (t < step.endNs) addMasks(out, sweep.measure({t, step.endNs}));
    return out;
}

std::size_t StepMasks::tiledSteps() const {
    return static_cast<std::size_t>(
        std::count_if(m_state.begin(), m_state.end(), [](const Step& st) { return st.tiled; }));
}

}  // namespace tpscope::core::analysis
