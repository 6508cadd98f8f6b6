// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The rows of the timeline, top to bottom: per rank a header (click to collapse), its NVTX rows
// (step, layer, block), one lane per host thread that launches its kernels (Rank::hostThreads: the
// launch calls, so that a launch-bound step shows the GPU waiting for them), one lane per stream, and a
// thin exposed-communication strip. A folded rank is one summary lane instead (no header and no host
// lanes: its gutter names the GPU, a click expands it), the compute mix of its busiest stream over a
// thin exposed-communication strip, so that 72 ranks fit on one screen (12 px a rank). Positions are in
// content coordinates (0 = top of the first row, below the ruler); the view scrolls them.

#include <cstdint>
#include <functional>
#include <vector>

#include "core/trace/trace.h"
#include "ui/timeline/timeline_data.h"

namespace tpscope::ui {

// Summary: the lane a folded rank keeps (its busiest stream, kinds mixed by time), followed by the
// rank's Exposed strip at foldedExposed height when it has collectives.
// Host: a CPU thread of Rank::hostThreads (sub = its index).
enum class RowKind : std::uint8_t { RankHeader, Nvtx, Stream, Exposed, Summary, Host };

struct TimelineRow {
    RowKind kind = RowKind::Stream;
    int rank = 0;
    int sub = 0;  // NVTX depth, stream index (Stream, Summary) or host thread index (Host)
    int y = 0;
    int height = 0;
};

struct RowHeights {
    int header = 20;
    int nvtx = 15;
    int stream = 22;
    int host = 16;
    int exposed = 7;
    int summary = 8;
    int foldedExposed = 3;  // the exposed strip under a folded rank's summary lane
    int rankGap = 6;
    int foldedGap = 1;
};

// Which traces open with every rank folded to its summary lane: one lane per GPU, its busiest stream
// with kinds mixed by time over its exposed communication; a click on the lane's GPU label expands
// it, View → Expand all GPUs expands all. The row model's one policy hook (issue 28 §3): the
// Timeline tab folds traces of more than 16 ranks (an NVL72 domain, multi-node TP), Compare folds
// every one.
using FoldPolicy = std::function<bool(const core::Trace& trace)>;
inline bool foldNoTrace(const core::Trace& /*trace*/) {
    return false;
}
inline bool foldEveryTrace(const core::Trace& /*trace*/) {
    return true;
}
inline FoldPolicy foldRanksAbove(std::size_t ranks) {
    return [ranks](const core::Trace& trace) { return trace.ranks.size() > ranks; };
}
inline constexpr std::size_t kUnfoldedRanks = 16;
inline FoldPolicy defaultFoldPolicy() {
    return foldRanksAbove(kUnfoldedRanks);
}

class TimelineLayout {
  public:
    void rebuild(const core::Trace& trace, const TimelineData& data, const std::vector<bool>& collapsed);
    const std::vector<TimelineRow>& rows() const { return m_rows; }
    int contentHeight() const { return m_contentHeight; }
    // Index of the row containing content y, or -1 (gaps between ranks, below the last row).
    int rowAt(int contentY) const;
    // First row whose bottom is below contentY (for drawing only the rows on screen).
    std::size_t firstRowBelow(int contentY) const;
    const RowHeights& heights() const { return m_heights; }

  private:
    std::vector<TimelineRow> m_rows;
    int m_contentHeight = 0;
    RowHeights m_heights;
};

}  // namespace tpscope::ui
