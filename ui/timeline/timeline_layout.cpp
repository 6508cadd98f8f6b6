// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/timeline/timeline_layout.h"

#include <algorithm>

namespace tpscope::ui {

void TimelineLayout::rebuild(const core::Trace& trace, const TimelineData& data, const std::vector<bool>& collapsed) {
    m_rows.clear();
    int y = 0;
    const auto add = [&](RowKind kind, int rank, int sub, int height) {
        m_rows.push_back({kind, rank, sub, y, height});
        y += height;
    };
    for (std::size_t r = 0; r < trace.ranks.size(); ++r) {
        const int rank = static_cast<int>(r);
        const auto& rd = data.ranks()[r];
        if (r < collapsed.size() && collapsed[r]) {
            // Folded: one lane, its busiest stream (-1: a rank without streams keeps an empty lane).
            const auto& streams = trace.ranks[r].streams;
            const auto busiest = std::max_element(streams.begin(), streams.end(), [](const auto& a, const auto& b) {
                return a.events.size() < b.events.size();
            });
            add(RowKind::Summary, rank, streams.empty() ? -1 : static_cast<int>(busiest - streams.begin()),
                m_heights.summary);
            if (rd.hasCollectives()) add(RowKind::Exposed, rank, 0, m_heights.foldedExposed);
            y += m_heights.foldedGap;
            continue;
        }
        add(RowKind::RankHeader, rank, 0, m_heights.header);
        for (std::size_t d = 0; d < rd.nvtx.size(); ++d) add(RowKind::Nvtx, rank, static_cast<int>(d), m_heights.nvtx);
        for (std::size_t h = 0; h < trace.ranks[r].hostThreads.size(); ++h) {
            if (!trace.ranks[r].hostThreads[h].events.empty())
                add(RowKind::Host, rank, static_cast<int>(h), m_heights.host);
        }
        for (std::size_t s = 0; s < trace.ranks[r].streams.size(); ++s) {
            add(RowKind::Stream, rank, static_cast<int>(s), m_heights.stream);
        }
        if (rd.hasCollectives()) add(RowKind::Exposed, rank, 0, m_heights.exposed);
        y += m_heights.rankGap;
    }
    m_contentHeight = y;
}

int TimelineLayout::rowAt(int contentY) const {
    const std::size_t i = firstRowBelow(contentY);
    if (i >= m_rows.size() || m_rows[i].y > contentY) return -1;
    return static_cast<int>(i);
}

std::size_t TimelineLayout::firstRowBelow(int contentY) const {
    return static_cast<std::size_t>(
        std::upper_bound(m_rows.begin(), m_rows.end(), contentY,
                         [](int y, const TimelineRow& row) { return y < row.y + row.height; }) -
        m_rows.begin());
}

}  // namespace tpscope::ui
