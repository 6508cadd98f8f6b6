// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/timeline/timeline_data.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <thread>

#include "core/analysis/exposed_comm.h"
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

// stored: the rank's exposed-communication intervals as a workspace stored them, taken instead of
// derived (null: derived here); scratch: the calling worker's list of intervals, reused from rank to rank.
RankTimelineData rowsOf(const core::Rank& rank, std::int64_t t0, std::int64_t t1, core::EventColumns* stored,
                        std::vector<core::analysis::TimeInterval>& scratch) {
    RankTimelineData out;
    out.nvtx = core::nvtxDepthIndex(rank, 2);
    out.exposed = stored ? std::move(*stored) : core::analysis::exposedCommColumns(rank, scratch);
    for (std::size_t i = 0; i < out.exposed.size(); ++i) out.exposedTotalNs += out.exposed.durNs(i);
    out.exposedBlockSum = exposedBlockSums(out.exposed);
    out.kindCount = core::rankRangeStats(rank, t0, t1).kindCount;
    return out;
}

// Ranks are independent here, so they are built a few at a time (at 100 M events one rank takes about
// a second). Not more than four: each worker holds its exposed-communication list while it works.
// stored: one entry a rank (else ignored), moved from.
std::shared_ptr<const std::vector<RankTimelineData>> rowsOfRanks(const core::Trace& trace,
                                                                 core::StoredExposedComm* stored = nullptr) {
    auto rows = std::make_shared<std::vector<RankTimelineData>>(trace.ranks.size());
    const std::int64_t t0 = trace.startNs();
    const std::int64_t t1 = std::max(trace.endNs(), t0 + 1);
    const auto threads = std::min(4u, std::max(1u, std::thread::hardware_concurrency()));
    if (stored != nullptr && stored->size() != trace.ranks.size()) stored = nullptr;
    core::parallelForWithScratch<std::vector<core::analysis::TimeInterval>>(
        rows->size(), threads, [&](std::size_t r, std::vector<core::analysis::TimeInterval>& exposed) {
            (*rows)[r] = rowsOf(trace.ranks[r], t0, t1, stored ? &(*stored)[r] : nullptr, exposed);
        });
    return rows;
}

}  // namespace

std::shared_ptr<const TimelineData> TimelineData::buildRows(const core::Trace& trace,
                                                            std::optional<core::StoredExposedComm> exposedComm) {
    auto data = std::make_shared<TimelineData>();
    data->m_ranks = rowsOfRanks(trace, exposedComm ? &*exposedComm : nullptr);
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
    data->m_lookup = core::analysis::CollectiveLookup(trace, data->m_analysis->matching);
    return data;
}

std::optional<CollectiveMatch> TimelineData::matchCollective(const core::Trace& trace, const EventRef& event) const {
    if (!m_analysis || !event.valid()) return std::nullopt;  // callOf checks the rest against the trace
    const core::analysis::CollectiveKernelAt kernel{static_cast<std::size_t>(event.rank),
                                                    static_cast<std::size_t>(event.stream), event.index};
    const auto& matching = m_analysis->matching;
    const auto joined = m_lookup.callOf(trace, matching, kernel);
    if (!joined) return std::nullopt;

    const auto& call = matching.calls[joined->call];
    CollectiveMatch match;
    match.ordinal = m_lookup.ordinalOf(trace, matching, kernel);
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
    if (!m_analysis) return {};
    std::vector<EventRef> out;
    for (const auto& k : m_lookup.kernelsIn(trace, m_analysis->matching, rank, t0, t1)) {
        out.push_back({static_cast<int>(k.rank), static_cast<int>(k.stream), k.index});
    }
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
