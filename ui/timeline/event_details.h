// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Rich-text descriptions for the timeline: the hover tooltip of an item, the details pane of a
// selected event (with the cross-rank wait/transfer of a collective) and the statistics table of
// a selected range. Times are shown relative to the trace origin.

#include <QString>

#include <optional>

#include "core/trace/range_stats.h"
#include "core/trace/trace.h"
#include "ui/timeline/timeline_data.h"
#include "ui/timeline/timeline_view.h"

namespace tpscope::ui {

QString itemTooltipHtml(const core::Trace& trace, const TimelineData& data, const TimelineHit& hit,
                        std::int64_t originNs);
QString eventDetailsHtml(const core::Trace& trace, const EventRef& event, const std::optional<CollectiveMatch>& match,
                         std::int64_t originNs);
QString rangeStatsHtml(const TimelineData& data, const core::RangeStats& stats, std::int64_t originNs);
QString formatBandwidth(double bytesPerSec);  // "312.4 GB/s"

}  // namespace tpscope::ui
