// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The mix of event kinds inside one level-of-detail item, by time: what a folded bar is made of, so
// that the timeline can draw it as stacked shares (as Perfetto and Nsight do) instead of in the
// dominant kind's colour, which hides a 30 % collective share behind a solid GEMM bar.
//
// Input: finalized EventColumns and an item of visibleSpans over them (its events are the indices
// [firstIndex, firstIndex + count)). Mapping: share(kind) = summed duration of the item's events of
// that kind / summed duration of all its events (by count when every duration is 0).
// Complexity: O(min(count, maxSamples)): items of more events are estimated from maxSamples events
// spread evenly over the item, exact for items of up to maxSamples events.

#include <array>
#include <cstddef>

#include "core/trace/event_columns.h"
#include "core/trace/level_of_detail.h"

namespace tpscope::core {

using KindShares = std::array<double, kEventKindCount>;

KindShares kindMix(const EventColumns& events, const LodSpan& span, std::size_t maxSamples = 64);

}  // namespace tpscope::core
