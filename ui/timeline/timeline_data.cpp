#include "ui/timeline/timeline_data.h"

#include <algorithm>
#include <cmath>

#include "core/analysis/exposed_comm.h"
#include "core/trace/level_of_detail.h"
#include "core/trace/range_stats.h"

namespace tpscope::ui {

std::size_t RankTimelineData::kernelCount() const {
    std::size_t n = 0;
    for (std::size_t k = 0; k < kindCount.size(); ++k) {
        const auto kind = static_cast<core::EventKind>(k);
        if (kind != core::EventKind::Memcpy && kind != core::EventKind::Memset) n += kindCount[k];
    }
    return n;
}

namespace {

// Sums before each block of kExposedBlock intervals; empty unless the intervals are disjoint and in
// order (exposedCommIntervals gives a union, so they are; the check keeps exposedNs exact regardless).
std::vector<std::int64_t> exposedBlockSums(const core::EventColumns& ex) {
    std::vector<std::int64_t> sums;
    sums.reserve(ex.size() / kExposedBlock + 1);
    std::int64_t total = 0;
    for (std::size_t i = 0; i < ex.size(); ++i) {
        if (i > 0 && ex.startNs(i) < ex.endNs(i - 1)) return {};
        if (i % kExposedBlock == 0) sums.push_back(total);
        total += ex.durNs(i);
    }
    return sums;
}

// Exposed time of the intervals [0, i).
std::int64_t exposedBefore(const RankTimelineData& rank, std::size_t i) {
    const std::size_t block = i / kExposedBlock;
    std::int64_t total = block < rank.exposedBlockSum.size() ? rank.exposedBlockSum[block] : 0;
    for (std::size_t j = block * kExposedBlock; j < i; ++j) total += rank.exposed.durNs(j);
    return total;
}

}  // namespace

std::shared_ptr<const TimelineData> TimelineData::build(const core::Trace& trace,
                                                        std::shared_ptr<const core::analysis::RunAnalysis> analysis) {
    auto data = std::make_shared<TimelineData>();
    data->m_analysis = analysis
                           ? std::move(analysis)
                           : std::make_shared<const core::analysis::RunAnalysis>(core::analysis::analyzeTrace(trace));
    // O(k log k) in the collective kernels: cheap beside the analysis, and done here on the worker.
    data->m_clock = core::analysis::estimateClockOffsets(trace);
    const auto stats = core::rangeStats(trace, trace.startNs(), std::max(trace.endNs(), trace.startNs() + 1));
    data->m_ranks.reserve(trace.ranks.size());
    for (std::size_t r = 0; r < trace.ranks.size(); ++r) {
        const auto& rank = trace.ranks[r];
        RankTimelineData& out = data->m_ranks.emplace_back();
        out.nvtx = core::nvtxDepthColumns(rank, 2);
        const auto exposed = core::analysis::exposedCommIntervals(rank);
        out.exposed.reserve(exposed.size());
        for (const auto& [start, end] : exposed) {
            out.exposed.append({start, end - start, core::NameId{}, core::EventKind::Collective, 0, core::kNoPayload});
            out.exposedTotalNs += end - start;
        }
        out.exposed.finalize();
        out.exposedBlockSum = exposedBlockSums(out.exposed);
        if (r < stats.ranks.size()) out.kindCount = stats.ranks[r].kindCount;
        // Allocated once at its size (grown by push_back it would hold up to twice the bytes).
        out.collectives.reserve(out.kindCount[static_cast<std::size_t>(core::EventKind::Collective)]);
        for (std::size_t s = 0; s < rank.streams.size(); ++s) {
            const auto& ev = rank.streams[s].events;
            for (std::size_t i = 0; i < ev.size(); ++i) {
                if (ev.kind(i) == core::EventKind::Collective) {
                    out.collectives.push_back({ev.startNs(i), static_cast<std::uint32_t>(s), i, -1});
                }
            }
        }
        std::stable_sort(out.collectives.begin(), out.collectives.end(),
                         [](const CollectiveRef& a, const CollectiveRef& b) { return a.startNs < b.startNs; });
    }
    // Each participant of core's matching points back to its kernel: tag the kernel with its call.
    const auto& matching = data->m_analysis->matching;
    for (std::size_t c = 0; c < matching.calls.size(); ++c) {
        const auto& call = matching.calls[c];
        for (std::uint32_t i = 0; i < call.participantCount; ++i) {
            const auto& p = matching.participants[call.firstParticipant + i];
            if (p.rankIndex >= data->m_ranks.size()) continue;
            auto& refs = data->m_ranks[p.rankIndex].collectives;
            const std::int64_t start = core::analysis::participantStartNs(trace, p);
            auto it = std::lower_bound(refs.begin(), refs.end(), start,
                                       [](const CollectiveRef& ref, std::int64_t t) { return ref.startNs < t; });
            for (; it != refs.end() && it->startNs == start; ++it) {
                if (it->stream == p.streamIndex && it->index == p.eventIndex) {
                    it->call = static_cast<std::int64_t>(c);
                    break;
                }
            }
        }
    }
    return data;
}

std::optional<CollectiveMatch> TimelineData::matchCollective(const core::Trace& trace, const EventRef& event) const {
    if (!event.valid() || static_cast<std::size_t>(event.rank) >= m_ranks.size()) return std::nullopt;
    const auto& rank = trace.ranks[static_cast<std::size_t>(event.rank)];
    if (static_cast<std::size_t>(event.stream) >= rank.streams.size()) return std::nullopt;
    const auto& ev = rank.streams[static_cast<std::size_t>(event.stream)].events;
    if (event.index >= ev.size() || ev.kind(event.index) != core::EventKind::Collective) return std::nullopt;

    const auto& mine = m_ranks[static_cast<std::size_t>(event.rank)].collectives;
    auto it = std::lower_bound(mine.begin(), mine.end(), ev.startNs(event.index),
                               [](const CollectiveRef& c, std::int64_t t) { return c.startNs < t; });
    while (it != mine.end() && !(it->stream == static_cast<std::uint32_t>(event.stream) && it->index == event.index))
        ++it;
    if (it == mine.end() || it->call < 0) return std::nullopt;

    const auto& matching = m_analysis->matching;
    const auto& call = matching.calls[static_cast<std::size_t>(it->call)];
    CollectiveMatch match;
    match.ordinal = static_cast<std::size_t>(it - mine.begin());
    for (std::uint32_t i = 0; i < call.participantCount; ++i) {
        const auto& p = matching.participants[call.firstParticipant + i];
        CollectiveMember m;
        m.event = EventRef{static_cast<int>(p.rankIndex), static_cast<int>(p.streamIndex), p.eventIndex};
        m.startNs = core::analysis::participantStartNs(trace, p);
        m.endNs = core::analysis::participantEndNs(trace, p);
        m.waitNs = p.waitNs;
        match.members.push_back(m);
    }
    std::sort(match.members.begin(), match.members.end(),
              [](const CollectiveMember& a, const CollectiveMember& b) { return a.event.rank < b.event.rank; });
    match.skewNs = call.lastStartNs - call.firstStartNs;
    match.transferNs = call.transferNs;
    match.bytes = call.bytes;
    match.busbwBytesPerSec = core::analysis::busBandwidth(call);
    match.complete = call.complete();
    return match;
}

std::int64_t TimelineData::exposedNs(std::size_t rank, std::int64_t t0, std::int64_t t1) const {
    if (rank >= m_ranks.size()) return 0;
    const auto& ex = m_ranks[rank].exposed;
    const auto r = ex.visibleRange(t0, t1);
    if (r.first >= r.last) return 0;
    if (!m_ranks[rank].exposedBlockSum.empty()) {
        // Disjoint and in order: only the first interval can start before t0, only the last end after t1.
        const std::int64_t whole = exposedBefore(m_ranks[rank], r.last) - exposedBefore(m_ranks[rank], r.first);
        return whole - std::max<std::int64_t>(0, t0 - ex.startNs(r.first)) -
               std::max<std::int64_t>(0, ex.endNs(r.last - 1) - t1);
    }
    std::int64_t total = 0;
    for (std::size_t i = r.first; i < r.last; ++i) {
        total += std::max<std::int64_t>(0, std::min(ex.endNs(i), t1) - std::max(ex.startNs(i), t0));
    }
    return total;
}

}  // namespace tpscope::ui
