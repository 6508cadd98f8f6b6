#include "ui/standin/exposed_comm.h"

#include <algorithm>

namespace tpscope::ui {

std::vector<Interval> unionOf(std::vector<Interval> intervals) {
    if (!std::is_sorted(intervals.begin(), intervals.end())) std::sort(intervals.begin(), intervals.end());
    std::vector<Interval> out;
    for (const auto& iv : intervals) {
        if (iv.second <= iv.first) continue;
        if (!out.empty() && iv.first <= out.back().second) {
            out.back().second = std::max(out.back().second, iv.second);
        } else {
            out.push_back(iv);
        }
    }
    return out;
}

std::vector<Interval> subtract(const std::vector<Interval>& a, const std::vector<Interval>& b) {
    std::vector<Interval> out;
    std::size_t j = 0;
    for (const auto& iv : a) {
        std::int64_t cursor = iv.first;
        while (j < b.size() && b[j].second <= cursor) ++j;
        std::size_t k = j;
        while (k < b.size() && b[k].first < iv.second) {
            if (b[k].first > cursor) out.emplace_back(cursor, b[k].first);
            cursor = std::max(cursor, b[k].second);
            ++k;
        }
        if (cursor < iv.second) out.emplace_back(cursor, iv.second);
    }
    return out;
}

std::vector<Interval> exposedCommIntervals(const core::Rank& rank) {
    std::vector<Interval> compute, comm;
    for (const auto& stream : rank.streams) {
        const auto& ev = stream.events;
        for (std::size_t i = 0; i < ev.size(); ++i) {
            const auto kind = ev.kind(i);
            if (kind == core::EventKind::Collective) {
                comm.emplace_back(ev.startNs(i), ev.endNs(i));
            } else if (kind != core::EventKind::Memcpy && kind != core::EventKind::Memset) {
                compute.emplace_back(ev.startNs(i), ev.endNs(i));
            }
        }
    }
    return subtract(unionOf(std::move(comm)), unionOf(std::move(compute)));
}

}  // namespace tpscope::ui
