#include "ui/timeline/timeline_data.h"

#include <algorithm>

#include "core/analysis/exposed_comm.h"
#include "core/trace/level_of_detail.h"

namespace tpscope::ui {

double busBandwidthFactor(core::CollectiveOp op, int ranks) {
    if (ranks <= 1) return 1.0;
    const double n = ranks;
    switch (op) {
        case core::CollectiveOp::AllReduce:
            return 2.0 * (n - 1) / n;
        case core::CollectiveOp::AllGather:
        case core::CollectiveOp::ReduceScatter:
        case core::CollectiveOp::AllToAll:
            return (n - 1) / n;
        default:
            return 1.0;
    }
}

std::shared_ptr<const TimelineData> TimelineData::build(const core::Trace& trace) {
    auto data = std::make_shared<TimelineData>();
    data->m_ranks.reserve(trace.ranks.size());
    for (const auto& rank : trace.ranks) {
        RankTimelineData& out = data->m_ranks.emplace_back();
        out.nvtx = core::nvtxDepthColumns(rank, 2);
        for (const auto& [start, end] : core::analysis::exposedCommIntervals(rank)) {
            out.exposed.append({start, end - start, core::NameId{}, core::EventKind::Collective, 0, core::kNoPayload});
            out.exposedTotalNs += end - start;
        }
        out.exposed.finalize();
        for (std::size_t s = 0; s < rank.streams.size(); ++s) {
            const auto& ev = rank.streams[s].events;
            for (std::size_t i = 0; i < ev.size(); ++i) {
                if (ev.kind(i) == core::EventKind::Collective) {
                    out.collectives.push_back({ev.startNs(i), static_cast<std::uint32_t>(s), i});
                }
            }
        }
        std::stable_sort(out.collectives.begin(), out.collectives.end(),
                         [](const CollectiveRef& a, const CollectiveRef& b) { return a.startNs < b.startNs; });
    }
    return data;
}

std::optional<CollectiveMatch> TimelineData::matchCollective(const core::Trace& trace, const EventRef& event) const {
    if (!event.valid() || static_cast<std::size_t>(event.rank) >= m_ranks.size()) return std::nullopt;
    const auto& rank = trace.ranks[static_cast<std::size_t>(event.rank)];
    const auto& ev = rank.streams[static_cast<std::size_t>(event.stream)].events;
    if (event.index >= ev.size() || ev.kind(event.index) != core::EventKind::Collective) return std::nullopt;

    const auto& mine = m_ranks[static_cast<std::size_t>(event.rank)].collectives;
    auto it = std::lower_bound(mine.begin(), mine.end(), ev.startNs(event.index),
                               [](const CollectiveRef& c, std::int64_t t) { return c.startNs < t; });
    while (it != mine.end() && !(it->stream == static_cast<std::uint32_t>(event.stream) && it->index == event.index))
        ++it;
    if (it == mine.end()) return std::nullopt;

    CollectiveMatch match;
    match.ordinal = static_cast<std::size_t>(it - mine.begin());
    for (std::size_t r = 0; r < m_ranks.size(); ++r) {
        const auto& calls = m_ranks[r].collectives;
        if (match.ordinal >= calls.size()) continue;
        const CollectiveRef& c = calls[match.ordinal];
        const auto& cev = trace.ranks[r].streams[c.stream].events;
        CollectiveMember m;
        m.event = EventRef{static_cast<int>(r), static_cast<int>(c.stream), c.index};
        m.startNs = cev.startNs(c.index);
        m.endNs = cev.endNs(c.index);
        match.members.push_back(m);
    }
    std::int64_t minStart = INT64_MAX, maxStart = INT64_MIN;
    std::vector<std::int64_t> ends;
    for (const auto& m : match.members) {
        minStart = std::min(minStart, m.startNs);
        maxStart = std::max(maxStart, m.startNs);
        ends.push_back(m.endNs);
    }
    for (auto& m : match.members) m.waitNs = maxStart - m.startNs;
    std::sort(ends.begin(), ends.end());
    // Median of an even count: the lower middle, so the value is an actual end time.
    const std::int64_t medianEnd = ends[(ends.size() - 1) / 2];
    match.skewNs = maxStart - minStart;
    match.transferNs = std::max<std::int64_t>(0, medianEnd - maxStart);
    const auto& payload = trace.payload(ev.payload(event.index));
    if (payload.kind == core::PayloadKind::Collective) {
        match.bytes = payload.collective.bytes;
        const int n = payload.collective.groupSize > 0 ? static_cast<int>(payload.collective.groupSize)
                                                       : static_cast<int>(match.members.size());
        if (match.transferNs > 0 && match.bytes > 0) {
            const double algbw = static_cast<double>(match.bytes) / (static_cast<double>(match.transferNs) * 1e-9);
            match.busbwBytesPerSec = algbw * busBandwidthFactor(payload.collective.op, n);
        }
    }
    return match;
}

std::int64_t TimelineData::exposedNs(std::size_t rank, std::int64_t t0, std::int64_t t1) const {
    if (rank >= m_ranks.size()) return 0;
    const auto& ex = m_ranks[rank].exposed;
    const auto r = ex.visibleRange(t0, t1);
    std::int64_t total = 0;
    for (std::size_t i = r.first; i < r.last; ++i) {
        total += std::max<std::int64_t>(0, std::min(ex.endNs(i), t1) - std::max(ex.startNs(i), t0));
    }
    return total;
}

}  // namespace tpscope::ui
