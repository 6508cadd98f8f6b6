// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Interval arithmetic for the per-layer breakdown (DESIGN.md §5).
//
// Input: half-open [startNs, endNs) intervals. unionOfSorted() merges a list sorted by start into
// disjoint, sorted intervals in one pass (O(n)); mergeUnions() joins two such lists (O(n + m)).
// CoverageTimeline sweeps up to kMaxLayers disjoint lists at once and yields the elementary
// segments between consecutive boundaries with a bit mask of the lists covering each
// (O(total intervals x lists)); measure() sums segment lengths per mask inside windows, which may
// overlap or come in any order: O(log segments + segments inside) per window. measureLists() gives
// the same times for one window without building the table.

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace tpscope::core::analysis {

struct Interval {
    std::int64_t startNs = 0;
    std::int64_t endNs = 0;
    std::int64_t length() const { return endNs - startNs; }
    bool operator==(const Interval&) const = default;
};

// Sorted by start (ties in any order) -> disjoint sorted union; empty intervals are dropped.
// Intervals that only touch ([0,5) and [5,9)) are merged.
std::vector<Interval> unionOfSorted(std::span<const Interval> sortedByStart);
// In-place variant: appends nothing, compacts `intervals` (sorted by start) to its union.
void unionInPlace(std::vector<Interval>& sortedByStart);
// Appends `iv` (starting no earlier than every interval already in `united`) to the disjoint sorted
// union `united`: merged into the last one when they overlap or touch; empty intervals are dropped.
// Building a union this way holds no list of every input interval.
// Inline: called once a kernel when a rank's coverage is built.
inline void appendToUnion(std::vector<Interval>& united, Interval iv) {
    if (iv.endNs <= iv.startNs) return;
    if (!united.empty() && iv.startNs <= united.back().endNs) {
        if (iv.endNs > united.back().endNs) united.back().endNs = iv.endNs;
    } else {
        united.push_back(iv);
    }
}
// Union of two disjoint sorted lists.
std::vector<Interval> mergeUnions(std::span<const Interval> a, std::span<const Interval> b);
// The same into `out` (cleared first; its capacity is reused).
void mergeUnions(std::span<const Interval> a, std::span<const Interval> b, std::vector<Interval>& out);
std::int64_t totalLength(std::span<const Interval> disjoint);

struct CoverageSegment {
    std::int64_t startNs = 0;
    std::int64_t endNs = 0;
    std::uint32_t mask = 0;  // bit i set: list i covers the segment
};

class CoverageTimeline {
  public:
    // Few lists keep a window's per-mask table small (16 x 8 bytes); the breakdown needs three.
    static constexpr int kMaxLayers = 4;
    static constexpr std::size_t kMaskCount = std::size_t{1} << kMaxLayers;

    // Each list disjoint and sorted. Segments where no list is present are not stored.
    explicit CoverageTimeline(std::span<const std::span<const Interval>> lists);

    const std::vector<CoverageSegment>& segments() const { return m_segments; }

    // Time per mask inside the window; mask 0 (no list) is the window time left uncovered.
    using MaskTimes = std::array<std::int64_t, kMaskCount>;
    MaskTimes measure(Interval window) const;

  private:
    std::vector<CoverageSegment> m_segments;
};

// The same per-mask times as CoverageTimeline(lists).measure(window), swept from the lists
// themselves, without the segment table (~24 bytes a kernel: ~0.5 GB for one rank of a 100 M-event
// trace). The list with the most intervals (the breakdown's compute) is not swept: the others give the
// stretches where their mask stays the same, each list re-read only at its own next boundary, and in
// each stretch the longest list's covered time is summed from its intervals (the same sums of the same
// lengths). A window that starts where the last one ended, or later, resumes the sweep there (lists
// whose next boundary it passed find their place galloping forward), so a run of windows in start
// order costs about one sweep over the intervals they cover; a window that starts earlier costs a
// backward gallop. The lists must outlive the sweep.
class CoverageSweep {
  public:
    explicit CoverageSweep(std::span<const std::span<const Interval>> lists);
    CoverageTimeline::MaskTimes measure(Interval window);
    // The same for the consecutive parts of one window, cut at `cuts` (ascending, inside the window):
    // parts[i] gets [cut i-1, cut i), the first from the window's start, the last to its end
    // (parts.size() == cuts.size() + 1). One sweep, so a layer's blocks cost what the layer costs.
    void measureParts(Interval window, std::span<const std::int64_t> cuts,
                      std::span<CoverageTimeline::MaskTimes> parts);

  private:
    // measureParts with K lists swept beside the summed one (interval_union.cpp).
    template <std::size_t K>
    void sweepParts(Interval window, std::span<const std::int64_t> cuts, std::span<CoverageTimeline::MaskTimes> parts);

    // The lists swept first, the one summed inside their stretches last; m_bits: each one's bit in
    // the masks (1 << its index in the constructor's lists).
    std::array<std::span<const Interval>, CoverageTimeline::kMaxLayers> m_lists{};
    std::array<std::uint32_t, CoverageTimeline::kMaxLayers> m_bits{};
    std::size_t m_count = 0;
    // Where the last window ended (once m_live), and there: each list's first interval ending after
    // it, each swept list's next boundary, and which swept lists cover it.
    std::array<std::size_t, CoverageTimeline::kMaxLayers> m_pos{};
    std::array<std::int64_t, CoverageTimeline::kMaxLayers> m_boundary{};
    std::int64_t m_at = 0;
    std::uint32_t m_mask = 0;
    bool m_live = false;
};

// One window: CoverageSweep(lists).measure(window).
CoverageTimeline::MaskTimes measureLists(std::span<const std::span<const Interval>> lists, Interval window);

}  // namespace tpscope::core::analysis
