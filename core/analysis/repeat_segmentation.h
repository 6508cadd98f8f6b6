// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The repeat rule inside the layer segmentation (layer_segmentation.h): for a rank without NVTX layer
// ranges, the step and layer windows of the repeating kernel sequence (repeat_layers.h), and whether
// they replace the pattern rule's layers.
//
// Input: the rank's kernels in start order (repeatKernels), the rank's segmentation before the pattern
// rule ran (its NVTX step windows, if any) and after it (the pattern rule's steps and layers).
// Mapping:
// - With step windows, each window's kernels are searched for the repeating unit (the previous window's
//   period as the hint); a layer runs from its first kernel's start to the next layer's first kernel.
//   A window holding several forward passes numbers their layers on, so (step, layer) stays a key.
//   Without step windows, every pass found is a step, cut from the next at the longest kernel gap.
// - A unit of k >= 2 layers (layers of alternating kinds: repeat_layers.h step 5) has been split into
//   its k layers by findRepeatLayers already; the unit's size and what split it are kept for the note.
// - Choice: the pattern rule's layers stay when the repeat rule found as many, none, or a whole
//   fraction of them (k >= 2 pattern layers per repeat layer: a unit of k layers step 5 could not
//   split; a count the collectives give is never divided); else the repeat rule's steps and layers
//   replace them.
// Cost: findRepeatLayers per step window (repeat_layers.h), plus O(kernels + layers) for the windows;
// O(log kernels) per step window to find its kernels.

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "core/analysis/layer_segmentation.h"
#include "core/analysis/layer_windows.h"
#include "core/analysis/repeat_layers.h"

namespace tpscope::core::analysis {

// `seg` and `layers` hold the pattern rule's result, `beforePattern` the segmentation before it. Sets
// seg's repeat fields (period, layers found, unit size) and, when the repeat rule wins, replaces seg
// (source Repeat) and `layers` with its result. Returns the step windows that held several forward
// passes when the repeat rule won, else 0.
std::size_t checkWithRepeatRule(std::span<const RepeatKernel> kernels, RankSegmentation beforePattern,
                                RankSegmentation& seg, std::vector<LayerWindow>& layers);

// The notes for the user about the repeat rule over all ranks: which ranks it segmented and why, units
// split into several layers, and pattern counts kept as a multiple of the repeat rule's.
void addRepeatRuleNotes(const std::vector<RankSegmentation>& ranks, std::vector<std::string>& notes);

}  // namespace tpscope::core::analysis
