// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/analysis/repeat_segmentation.h"

#include <algorithm>
#include <cstdint>
#include <utility>

namespace tpscope::core::analysis {

namespace {

// Layer windows of one window's repeat result: a layer runs from its first kernel's start to the
// next layer's (the kernel after it), as NVTX ranges pushed before each layer's first launch would.
// In a step window that holds several passes (speculative decoding, a step range around several
// forward passes), the layers of each pass are numbered on from the previous pass's last, so that
// (step, layer) stays a key: ranks are aligned by it.
// Returns whether the window held several passes.
bool appendRepeatLayers(std::span<const RepeatKernel> k, const RepeatResult& r, std::int64_t stepKey, bool passIsStep,
                        std::vector<LayerWindow>& layers) {
    int offset = 0;
    int passEnd = 0;  // one past the highest index of the current pass, offset included
    for (std::size_t li = 0; li < r.layers.size(); ++li) {
        const auto& l = r.layers[li];
        if (!passIsStep && li > 0 && l.pass != r.layers[li - 1].pass) offset = passEnd;
        const int index = passIsStep ? l.index : l.index + offset;
        passEnd = std::max(passEnd, index + 1);
        std::int64_t end = 0;
        if (l.last < k.size()) {
            end = k[l.last].startNs;
        } else {
            for (std::size_t i = l.first; i < l.last; ++i) end = std::max(end, k[i].endNs);
        }
        const std::int64_t step = passIsStep ? static_cast<std::int64_t>(l.pass) : stepKey;
        layers.push_back({step, index, k[l.first].startNs, end});
    }
    return r.passes > 1;
}

// Steps from the passes of a rank without step ranges: a pass ends at the longest gap between its
// last layer and the next pass's first, where the host prepared the next step.
void stepsFromPasses(std::span<const RepeatKernel> k, const RepeatResult& r, RankSegmentation& seg) {
    std::int64_t stepStart = k.front().startNs;
    for (std::size_t i = 1; i < r.layers.size(); ++i) {
        if (r.layers[i].pass == r.layers[i - 1].pass) continue;
        std::size_t cut = r.layers[i].first;
        std::int64_t longest = -1;
        for (std::size_t j = r.layers[i - 1].last; j <= r.layers[i].first && j > 0; ++j) {
            const std::int64_t gap = k[j].startNs - k[j - 1].endNs;
            if (gap > longest) {
                longest = gap;
                cut = j;
            }
        }
        seg.steps.push_back({static_cast<std::int64_t>(r.layers[i - 1].pass), stepStart, k[cut].startNs});
        stepStart = k[cut].startNs;
    }
    std::int64_t end = stepStart;
    for (const auto& kernel : k) end = std::max(end, kernel.endNs);
    seg.steps.push_back({static_cast<std::int64_t>(r.layers.back().pass), stepStart, end});
}

// Returns the number of step windows that held several forward passes.
std::size_t repeatLayers(std::span<const RepeatKernel> kernels, RankSegmentation& seg,
                         std::vector<LayerWindow>& layers) {
    if (kernels.empty()) return 0;
    const std::span<const RepeatKernel> all(kernels);
    if (seg.steps.empty()) {
        const RepeatResult r = findRepeatLayers(all);
        seg.repeatPeriod = r.period;
        seg.repeatLayersPerUnit = r.layersPerUnit;
        seg.repeatSplitBy = r.splitBy;
        if (r.layers.empty()) return 0;
        appendRepeatLayers(all, r, 0, true, layers);
        stepsFromPasses(all, r, seg);
        return 0;
    }
    std::size_t hint = 0;
    std::size_t multiPass = 0;
    for (const auto& step : seg.steps) {
        auto byStart = [](const RepeatKernel& a, std::int64_t t) { return a.startNs < t; };
        const auto first = std::lower_bound(kernels.begin(), kernels.end(), step.startNs, byStart);
        const auto last = std::lower_bound(first, kernels.end(), step.endNs, byStart);
        const auto window =
            all.subspan(static_cast<std::size_t>(first - kernels.begin()), static_cast<std::size_t>(last - first));
        const RepeatResult r = findRepeatLayers(window, hint);
        if (r.period == 0) continue;
        hint = r.period;
        if (seg.repeatPeriod == 0) {
            seg.repeatPeriod = r.period;
            seg.repeatLayersPerUnit = r.layersPerUnit;
            seg.repeatSplitBy = r.splitBy;
        }
        multiPass += appendRepeatLayers(window, r, step.key, false, layers) ? 1 : 0;
    }
    return multiPass;
}

}  // namespace

std::size_t checkWithRepeatRule(std::span<const RepeatKernel> kernels, RankSegmentation beforePattern,
                                RankSegmentation& seg, std::vector<LayerWindow>& layers) {
    RankSegmentation& repeat = beforePattern;
    std::vector<LayerWindow> repeatLayerList;
    const std::size_t multiPass = repeatLayers(kernels, repeat, repeatLayerList);
    seg.repeatPeriod = repeat.repeatPeriod;
    seg.repeatLayerCount = repeatLayerList.size();
    seg.repeatLayersPerUnit = repeat.repeatLayersPerUnit;
    seg.repeatSplitBy = repeat.repeatSplitBy;
    // The pattern rule's blocks end at collectives, which the analysis of TP needs: kept when the
    // repeat agrees with it (or found nothing to check it with), and when it found k >= 2 times
    // the repeat's layers: a unit of k layers that step 5 could not split, never half the layers.
    const std::size_t n = repeatLayerList.size();
    seg.patternKeptAsMultiple = n > 0 && layers.size() > n && layers.size() % n == 0;
    if (n == 0 || n == layers.size() || seg.patternKeptAsMultiple) return 0;
    repeat.source = SegmentationSource::Repeat;
    repeat.patternLayerCount = seg.patternLayerCount;
    repeat.repeatLayerCount = repeatLayerList.size();
    seg = std::move(repeat);
    layers = std::move(repeatLayerList);
    return multiPass;
}

void addRepeatRuleNotes(const std::vector<RankSegmentation>& ranks, std::vector<std::string>& notes) {
    std::size_t repeatRanks = 0;
    const RankSegmentation* firstRepeat = nullptr;
    for (const auto& seg : ranks) {
        if (seg.source != SegmentationSource::Repeat) continue;
        ++repeatRanks;
        if (firstRepeat == nullptr) firstRepeat = &seg;
    }
    if (firstRepeat != nullptr) {
        const std::string why = firstRepeat->patternLayerCount == 0
                                    ? "no collective closes a block"
                                    : "the pattern rule found " + std::to_string(firstRepeat->patternLayerCount) +
                                          " layer(s) on rank " + std::to_string(firstRepeat->rank.value) +
                                          ", the repeating sequence " + std::to_string(firstRepeat->repeatLayerCount);
        notes.push_back(std::to_string(repeatRanks) +
                        " rank(s) without NVTX layer ranges: layers from the repeating kernel sequence (" +
                        std::to_string(firstRepeat->repeatPeriod) + " kernels per layer on rank " +
                        std::to_string(firstRepeat->rank.value) + "), because " + why);
    }
    std::size_t splitRanks = 0;
    const RankSegmentation* firstSplit = nullptr;
    std::size_t multipleRanks = 0;
    const RankSegmentation* firstMultiple = nullptr;
    for (const auto& seg : ranks) {
        if (seg.source == SegmentationSource::Repeat && seg.repeatLayersPerUnit > 1) {
            firstSplit = firstSplit == nullptr ? &seg : firstSplit;
            ++splitRanks;
        }
        if (seg.source == SegmentationSource::Pattern && seg.patternKeptAsMultiple) {
            firstMultiple = firstMultiple == nullptr ? &seg : firstMultiple;
            ++multipleRanks;
        }
    }
    if (firstSplit != nullptr) {
        const std::size_t k = firstSplit->repeatLayersPerUnit;
        notes.push_back(std::to_string(splitRanks) + " rank(s): the repeating unit of " +
                        std::to_string(firstSplit->repeatPeriod) + " kernels holds " + std::to_string(k) + " layers (" +
                        (firstSplit->repeatSplitBy == UnitSplit::Attention
                             ? std::to_string(k) + " separate attention kernel runs, each with its GEMMs"
                             : std::to_string(2 * k) + " collective runs, two per layer") +
                        "; layers alternate kinds): split into " + std::to_string(k) + " layers each");
    }
    if (firstMultiple != nullptr) {
        notes.push_back(
            std::to_string(multipleRanks) + " rank(s): the pattern rule's " +
            std::to_string(firstMultiple->patternLayerCount) + " layers kept over the repeating sequence's " +
            std::to_string(firstMultiple->repeatLayerCount) + " on rank " + std::to_string(firstMultiple->rank.value) +
            ": its unit spans several layers, and a count the collectives give is never divided");
    }
}

}  // namespace tpscope::core::analysis
