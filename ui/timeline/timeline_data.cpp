// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/timeline/timeline_data.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <thread>

#include "core/analysis/exposed_comm.h"
#include "core/trace/event_batch_builder.h"
#include "core/trace/nvtx_depth_rows.h"
#include "core/trace/range_stats.h"
#include "core/util/parallel_for.h"

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

// exposed: the calling worker's list of exposed intervals, reused from rank to rank.
RankTimelineData rowsOf(const core::Rank& rank, std::int64_t t0, std::int64_t t1,
                        std::vector<core::analysis::TimeInterval>& exposed) {
    RankTimelineData out;
    out.nvtx = core::nvtxDepthIndex(rank, 2);
    core::analysis::exposedCommIntervals(rank, exposed);
    out.exposed.reserve(exposed.size());
    core::EventBatchBuilder builder(out.exposed);
    for (const auto& [start, end] : exposed) {
        builder.add(start, end - start, core::NameId{}, core::EventKind::Collective);
        out.exposedTotalNs += end - start;
    }
    builder.flush();
    out.exposed.finalize();
    out.exposedBlockSum = exposedBlockSums(out.exposed);
    out.kindCount = core::rankRangeStats(rank, t0, t1).kindCount;
    return out;
}

// Ranks are independent here, so they are built a few at a time (at 100 M events one rank takes about
// a second). Not more than four: each worker holds its exposed-communication list while it works.
std::shared_ptr<const std::vector<RankTimelineData>> rowsOfRanks(const core::Trace& trace) {
    auto rows = std::make_shared<std::vector<RankTimelineData>>(trace.ranks.size());
    const std::int64_t t0 = trace.startNs();
    const std::int64_t t1 = std::max(trace.endNs(), t0 + 1);
    const auto threads = std::min(4u, std::max(1u, std::thread::hardware_concurrency()));
    core::parallelForWithScratch<std::vector<core::analysis::TimeInterval>>(
        rows->size(), threads, [&](std::size_t r, std::vector<core::analysis::TimeInterval>& exposed) {
            (*rows)[r] = rowsOf(trace.ranks[r], t0, t1, exposed);
        });
    return rows;
}

// A rank's collective kernels, each stream's in index order. Call indices and event indices are
// 32-bit: a stream of over 4 G events would be 100+ GB of trace; past that, kernels stay unindexed.
RankCollectives collectivesOf(const core::Rank& rank, std::size_t count) {
    RankCollectives out;
    out.streamFirst.reserve(rank.streams.size() + 1);
    out.refs.reserve(count);  // allocated once at its size: grown by push_back it could hold twice the bytes
    for (const auto& stream : rank.streams) {
        out.streamFirst.push_back(out.refs.size());
        const auto& ev = stream.events;
        const std::size_t n = std::min<std::size_t>(ev.size(), std::numeric_limits<std::uint32_t>::max());
        for (std::size_t i = 0; i < n; ++i) {
            if (ev.kind(i) == core::EventKind::Collective) out.refs.push_back({static_cast<std::uint32_t>(i), -1});
        }
    }
    out.streamFirst.push_back(out.refs.size());
    return out;
}

using RefIt = std::vector<RankCollectives::Ref>::const_iterator;

// The refs of one stream and where `index` sits among them.
std::pair<RefIt, RefIt> streamRefs(const RankCollectives& rc, std::size_t stream) {
    if (stream + 1 >= rc.streamFirst.size()) return {rc.refs.end(), rc.refs.end()};
    const auto base = rc.refs.begin();
    return {base + static_cast<std::ptrdiff_t>(rc.streamFirst[stream]),
            base + static_cast<std::ptrdiff_t>(rc.streamFirst[stream + 1])};
}

RefIt findRef(const RankCollectives& rc, std::size_t stream, std::size_t index) {
    const auto [first, last] = streamRefs(rc, stream);
    const auto it = std::lower_bound(first, last, index,
                                     [](const RankCollectives::Ref& ref, std::size_t i) { return ref.index < i; });
    return it != last && it->index == index ? it : rc.refs.end();
}

// findRef for a walk whose indices mostly grow along each stream (the matching's calls come in time
// order): each stream remembers where its last kernel was found and gallops forward from there, so a
// kernel costs O(1) instead of a binary search over the stream's millions (2 of every 100 kernels'
// CPU at 100 M events). An index behind the cursor falls back to the plain search.
class RefCursor {
  public:
    explicit RefCursor(const RankCollectives& rc) : m_rc(&rc), m_at(rc.streamFirst) {}

    RefIt find(std::size_t stream, std::size_t index) {
        if (stream + 1 >= m_rc->streamFirst.size()) return m_rc->refs.end();
        const auto [first, last] = streamRefs(*m_rc, stream);
        const auto at = first + static_cast<std::ptrdiff_t>(m_at[stream] - m_rc->streamFirst[stream]);
        if (at != first && (at - 1)->index >= index) return findRef(*m_rc, stream, index);
        const auto before = [](const RankCollectives::Ref& ref, std::size_t i) { return ref.index < i; };
        auto lo = at;
        std::ptrdiff_t step = 1;
        while (lo != last && lo->index < index) {
            const auto hi = last - lo > step ? lo + step : last;
            if (hi == last || hi->index >= index) {
                lo = std::lower_bound(lo, hi, index, before);
                break;
            }
            lo = hi;
            step *= 2;
        }
        if (lo == last || lo->index != index) return m_rc->refs.end();
        m_at[stream] = static_cast<std::size_t>(lo - m_rc->refs.begin()) + 1;
        return lo;
    }

  private:
    const RankCollectives* m_rc;
    std::vector<std::size_t> m_at;  // per stream: one past the last ref found (into refs)
};

// Position of the kernel at `at` (stream `stream`) among its rank's collective kernels ordered by
// start, ties by stream then index: counted per stream by binary search, no sorted copy kept.
std::size_t ordinalOf(const core::Rank& rank, const RankCollectives& rc, std::size_t stream, RefIt at) {
    const std::int64_t start = rank.streams[stream].events.startNs(at->index);
    std::size_t n = 0;
    for (std::size_t s = 0; s < rank.streams.size(); ++s) {
        const auto [first, last] = streamRefs(rc, s);
        if (s == stream) {
            n += static_cast<std::size_t>(at - first);
            continue;
        }
        const auto& ev = rank.streams[s].events;
        const auto before = [&](const RankCollectives::Ref& ref) {
            return s < stream ? ev.startNs(ref.index) <= start : ev.startNs(ref.index) < start;
        };
        n += static_cast<std::size_t>(std::partition_point(first, last, before) - first);
    }
    return n;
}

}  // namespace

std::shared_ptr<const TimelineData> TimelineData::buildRows(const core::Trace& trace) {
    auto data = std::make_shared<TimelineData>();
    data->m_ranks = rowsOfRanks(trace);
    return data;
}

std::shared_ptr<const TimelineData> TimelineData::build(const core::Trace& trace,
                                                        std::shared_ptr<const core::analysis::RunAnalysis> analysis,
                                                        const TimelineData* rows,
                                                        std::optional<core::analysis::ClockEstimate> clock) {
    auto data = std::make_shared<TimelineData>();
    data->m_ranks = rows && rows->m_ranks->size() == trace.ranks.size() ? rows->m_ranks : rowsOfRanks(trace);
    data->m_analysis = analysis
                           ? std::move(analysis)
                           : std::make_shared<const core::analysis::RunAnalysis>(core::analysis::analyzeTrace(trace));
    // O(k log k) in the collective kernels: cheap beside the analysis, and done here on the worker.
    data->m_clock = clock ? std::move(*clock) : core::analysis::estimateClockOffsets(trace);
    // The index, rank by rank: each worker takes every workers-th rank, lists its collective kernels
    // and tags each with its call (a participant of core's matching points back to its kernel),
    // reading the calls in order as one worker did; the same index on any number of workers.
    const auto& matching = data->m_analysis->matching;
    const std::size_t rankCount = trace.ranks.size();
    const std::size_t calls = std::min<std::size_t>(matching.calls.size(), std::numeric_limits<std::int32_t>::max());
    data->m_collectives.resize(rankCount);
    const unsigned workers = core::resolveThreadCount(0, rankCount);
    core::parallelFor(workers, workers, [&](std::size_t w) {
        std::vector<RefCursor> cursors;  // of this worker's ranks r: cursors[r / workers]
        for (std::size_t r = w; r < rankCount; r += workers) {
            const auto count = data->ranks()[r].kindCount[static_cast<std::size_t>(core::EventKind::Collective)];
            data->m_collectives[r] = collectivesOf(trace.ranks[r], count);
            cursors.emplace_back(data->m_collectives[r]);
        }
        for (std::size_t c = 0; c < calls; ++c) {
            const auto& call = matching.calls[c];
            for (std::uint32_t i = 0; i < call.participantCount; ++i) {
                const auto& p = matching.participants[call.firstParticipant + i];
                if (p.rankIndex >= rankCount || p.rankIndex % workers != w) continue;
                auto& rc = data->m_collectives[p.rankIndex];
                const auto it = cursors[p.rankIndex / workers].find(p.streamIndex, p.eventIndex);
                if (it != rc.refs.end()) {
                    rc.refs[static_cast<std::size_t>(it - rc.refs.begin())].call = static_cast<std::int32_t>(c);
                }
            }
        }
    });
    return data;
}

std::optional<CollectiveMatch> TimelineData::matchCollective(const core::Trace& trace, const EventRef& event) const {
    if (!event.valid() || static_cast<std::size_t>(event.rank) >= m_collectives.size()) return std::nullopt;
    const auto& rank = trace.ranks[static_cast<std::size_t>(event.rank)];
    const auto stream = static_cast<std::size_t>(event.stream);
    if (stream >= rank.streams.size()) return std::nullopt;
    const auto& ev = rank.streams[stream].events;
    if (event.index >= ev.size() || ev.kind(event.index) != core::EventKind::Collective) return std::nullopt;

    const auto& mine = m_collectives[static_cast<std::size_t>(event.rank)];
    const auto it = findRef(mine, stream, event.index);
    if (it == mine.refs.end() || it->call < 0) return std::nullopt;

    const auto& matching = m_analysis->matching;
    const auto& call = matching.calls[static_cast<std::size_t>(it->call)];
    CollectiveMatch match;
    match.ordinal = ordinalOf(rank, mine, stream, it);
    for (std::uint32_t i = 0; i < call.participantCount; ++i) {
        const auto& p = matching.participants[call.firstParticipant + i];
        CollectiveMember m;
        m.event = EventRef{static_cast<int>(p.rankIndex), static_cast<int>(p.streamIndex), p.eventIndex};
        m.startNs = core::analysis::participantStartNs(trace, p);
        m.endNs = core::analysis::participantEndNs(trace, p);
        m.waitNs = matching.waitNs(call.firstParticipant + i);
        match.members.push_back(m);
    }
    std::sort(match.members.begin(), match.members.end(),
              [](const CollectiveMember& a, const CollectiveMember& b) { return a.event.rank < b.event.rank; });
    match.skewNs = call.lastStartNs - call.firstStartNs;
    match.transferNs = call.transferNs();
    match.bytes = call.bytes;
    match.busbwBytesPerSec = core::analysis::busBandwidth(call);
    match.complete = call.complete();
    return match;
}

std::vector<EventRef> TimelineData::collectivesIn(const core::Trace& trace, std::size_t rank, std::int64_t t0,
                                                  std::int64_t t1) const {
    std::vector<std::pair<std::int64_t, EventRef>> found;
    if (rank >= m_collectives.size() || rank >= trace.ranks.size()) return {};
    const auto& rc = m_collectives[rank];
    for (std::size_t s = 0; s < trace.ranks[rank].streams.size(); ++s) {
        const auto& ev = trace.ranks[rank].streams[s].events;
        const auto [first, last] = streamRefs(rc, s);
        auto it =
            std::partition_point(first, last, [&](const RankCollectives::Ref& r) { return ev.startNs(r.index) < t0; });
        for (; it != last && ev.startNs(it->index) < t1; ++it) {
            found.emplace_back(ev.startNs(it->index), EventRef{static_cast<int>(rank), static_cast<int>(s), it->index});
        }
    }
    std::stable_sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<EventRef> out;
    out.reserve(found.size());
    for (const auto& f : found) out.push_back(f.second);
    return out;
}

std::int64_t TimelineData::exposedNs(std::size_t rank, std::int64_t t0, std::int64_t t1) const {
    if (rank >= ranks().size()) return 0;
    const auto& ex = ranks()[rank].exposed;
    const auto r = ex.visibleRange(t0, t1);
    if (r.first >= r.last) return 0;
    if (!ranks()[rank].exposedBlockSum.empty()) {
        // Disjoint and in order: only the first interval can start before t0, only the last end after t1.
        const std::int64_t whole = exposedBefore(ranks()[rank], r.last) - exposedBefore(ranks()[rank], r.first);
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
