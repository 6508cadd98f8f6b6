// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// TimelineData of an opening excerpt (core/analysis/opening_excerpt.h): the rows of the excerpt's
// events, as buildRows makes them, with the whole trace's counts per kind and exposed totals in the
// rank headers' place. O(excerpt events).

#include "ui/timeline/timeline_data.h"

namespace tpscope::ui {

std::shared_ptr<const TimelineData> TimelineData::buildExcerptRows(const core::analysis::OpeningExcerpt& excerpt) {
    auto data = std::make_shared<TimelineData>();
    if (!excerpt.events) return data;
    auto rows = std::make_shared<std::vector<RankTimelineData>>(*buildRows(*excerpt.events)->m_ranks);
    for (std::size_t r = 0; r < rows->size() && r < excerpt.ranks.size(); ++r) {
        auto& rank = (*rows)[r];
        for (std::size_t k = 0; k < rank.kindCount.size(); ++k) {
            rank.kindCount[k] = static_cast<std::size_t>(excerpt.ranks[r].kindCount[k]);
        }
        rank.exposedTotalNs = excerpt.ranks[r].exposedNs;
    }
    data->m_ranks = std::move(rows);
    data->m_excerpt = ExcerptFacts{excerpt.traceStartNs, excerpt.traceEndNs, excerpt.traceEventCount,
                                   excerpt.windowStartNs, excerpt.windowEndNs};
    return data;
}

}  // namespace tpscope::ui
