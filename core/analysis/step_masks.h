// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// A rank's step windows measured from its layers, so that the breakdown sweeps each rank's coverage
// once instead of twice (once for the layers, once again for the steps that hold them).
//
// Input: the rank's step windows and layer windows, each in start order. The layer masks are handed
// in as the layer sweep measures them (addLayer, in layer order).
// Mapping: a step whose layers lie inside it, in order and without overlap, is "tiled": its mask times
// are the sum of its layers' and of the gaps between them (and before the first, after the last),
// and only the gaps are swept again. A step that holds a layer reaching outside it, or overlapping
// the previous one, or steps that overlap each other, are swept whole as before. Exact: the time of
// each mask adds over disjoint windows that cover the step, in integer nanoseconds.
// Cost: O(layers + steps) bookkeeping, one MaskTimes (128 bytes) per step; the gaps' sweep touches
// only the intervals in the gaps (launch gaps, embedding, LM head), not the layers' kernels.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "core/analysis/interval_union.h"
#include "core/analysis/layer_segmentation.h"

namespace tpscope::core::analysis {

class StepMasks {
  public:
    // Both must outlive this.
    StepMasks(std::span<const StepWindow> steps, const LayerWindows& layers);
    StepMasks(std::span<const StepWindow> steps, const LayerWindows&& layers) = delete;  // would dangle
    // Layer `index` (of the layers given above) measured `masks`. Called in layer order, each once.
    void addLayer(std::size_t index, const CoverageTimeline::MaskTimes& masks);
    // Step `index`'s mask times: from its layers and gaps when it is tiled, else swept whole.
    CoverageTimeline::MaskTimes measure(std::size_t index, CoverageSweep& sweep) const;
    std::size_t tiledSteps() const;

  private:
    struct Step {
        CoverageTimeline::MaskTimes layerMasks{};
        std::size_t firstLayer = 0;
        std::size_t layerCount = 0;
        bool tiled = true;
    };
    std::span<const StepWindow> m_steps;
    const LayerWindows& m_layers;
    std::vector<Step> m_state;
    std::vector<std::uint32_t> m_stepOfLayer;  // kNoStep: a layer outside every step
};

}  // namespace tpscope::core::analysis
