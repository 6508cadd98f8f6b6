// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/analysis/coverage_chunks.h"

#include <algorithm>
#include <array>
#include <limits>
#include <stdexcept>

namespace tpscope::core::analysis {

namespace {

constexpr std::int64_t kMinNs = std::numeric_limits<std::int64_t>::min();
constexpr std::int64_t kMaxNs = std::numeric_limits<std::int64_t>::max();

// Ends a chunk's union built from unclipped intervals that start before `to`: only its last
// interval can reach past `to` (the others end before the next one starts). Keeps that reach, the
// latest end read so far, for the next chunk and clips the interval to the chunk.
void clipLast(std::vector<Interval>& united, std::int64_t to, std::int64_t& reachNs) {
    if (united.empty()) return;
    reachNs = united.back().endNs;
    united.back().endNs = std::min(reachNs, to);
    if (united.back().endNs <= united.back().startNs) united.pop_back();  // an empty chunk
}

// Appends a source's part of [from, to) to `out` (empty): `at(k)` is the source's k-th interval, in
// start order; `next` and `reachNs` (the latest end read) carry from chunk to chunk.
template <typename At>
void appendClipped(At at, std::size_t count, std::size_t& next, std::int64_t& reachNs, std::int64_t from,
                   std::int64_t to, std::vector<Interval>& out) {
    Interval iv{};
    while (next < count && (iv = at(next)).startNs < from) {  // none when the chunks meet
        reachNs = std::max(reachNs, iv.endNs);
        ++next;
    }
    if (reachNs > from) out.push_back({from, reachNs});
    while (next < count && (iv = at(next)).startNs < to) {
        appendToUnion(out, iv);
        ++next;
    }
    clipLast(out, to, reachNs);
}

// `list` = list u part (`list` is taken as empty when `first`), through `spare`; the three buffers
// trade places and keep their capacity, so no allocation once they are large enough.
void uniteInto(std::vector<Interval>& list, std::vector<Interval>& part, std::vector<Interval>& spare, bool first) {
    if (first) {
        list.swap(part);
        return;
    }
    mergeUnions(list, part, spare);
    list.swap(spare);
}

}  // namespace

std::vector<CoverageChunk> planChunks(std::span<const StepWindow> steps, const LayerWindows& layers,
                                      std::size_t windowsPerChunk) {
    std::vector<CoverageChunk> out;
    if (std::is_sorted(steps.begin(), steps.end(),
                       [](const StepWindow& a, const StepWindow& b) { return a.startNs < b.startNs; })) {
        const std::size_t least = std::max<std::size_t>(1, windowsPerChunk);
        std::size_t l = 0;
        std::size_t s = 0;
        std::size_t since = 0;          // windows since the last cut
        std::int64_t reachNs = kMinNs;  // the latest end of those windows
        std::int64_t layerStartNs = kMinNs;
        while (l < layers.size() || s < steps.size()) {
            const LayerWindow next = l < layers.size() ? layers[l] : LayerWindow{};
            if (l < layers.size()) {
                if (next.startNs < layerStartNs) {  // layers out of start order: one chunk
                    out.clear();
                    break;
                }
                layerStartNs = next.startNs;
            }
            const bool layer = s == steps.size() || (l < layers.size() && next.startNs <= steps[s].startNs);
            const std::int64_t start = layer ? next.startNs : steps[s].startNs;
            const std::int64_t end = layer ? next.endNs : steps[s].endNs;
            // Every window so far ends by `start` and every later one starts at or after it.
            if (since >= least && reachNs <= start && (out.empty() || out.back().endNs < start)) {
                out.push_back({start, l, s});
                since = 0;
            }
            reachNs = std::max(reachNs, std::max(start, end));
            ++since;
            layer ? ++l : ++s;
        }
    }
    out.push_back({kMaxNs, layers.size(), steps.size()});
    return out;
}

// The part of a collective kernel after its matched wait moves bytes (layer_breakdown.h).
Interval ChunkedCoverage::transferOf(std::uint32_t participant) const {
    const CallParticipant& p = m_participants[participant];
    const auto& ev = m_rank.streams[p.streamIndex].events;
    const std::int64_t start = ev.startNs(p.eventIndex);
    return {start + participantWaitNs(m_participants, m_longWaits, participant), start + ev.durNs(p.eventIndex)};
}

ChunkedCoverage::ChunkedCoverage(const Rank& rank, std::span<const CallParticipant> participants,
                                 std::span<const LongWait> longWaits, std::span<const std::uint32_t> mine)
    : m_rank(rank), m_participants(participants), m_longWaits(longWaits), m_mine(mine) {
    m_streams.reserve(rank.streams.size());
    for (const auto& stream : rank.streams) {
        m_streams.push_back({EventScan(stream.events, EventScan::kStarts | EventScan::kDurations | EventScan::kKinds)});
    }
    std::int64_t previous = std::numeric_limits<std::int64_t>::min();
    for (std::size_t k = 0; k < mine.size() && m_transferInPlace; ++k) {
        const std::int64_t start = transferOf(mine[k]).startNs;
        m_transferInPlace = previous <= start;
        previous = start;
    }
    if (!m_transferInPlace) {
        m_transferSorted.reserve(mine.size());
        for (const std::uint32_t k : mine) m_transferSorted.push_back(transferOf(k));
        std::sort(m_transferSorted.begin(), m_transferSorted.end(),
                  [](const Interval& a, const Interval& b) { return a.startNs < b.startNs; });
        unionInPlace(m_transferSorted);
    }
}

void ChunkedCoverage::cover(std::int64_t fromNs, std::int64_t toNs) {
    if (fromNs < m_coveredTo) throw std::logic_error("coverage chunks: a chunk before the previous one");
    toNs = std::max(toNs, fromNs);
    m_coveredTo = toNs;
    constexpr auto kCollective = static_cast<std::uint8_t>(EventKind::Collective);
    bool firstCompute = true;
    bool firstComm = true;
    for (std::size_t s = 0; s < m_streams.size(); ++s) {
        StreamCursor& c = m_streams[s];
        EventScan& ev = c.scan;
        m_streamCompute.clear();
        m_streamComm.clear();
        // Kernels that started before the chunk add only their reach into it, [from, latest end).
        std::size_t i = c.next;
        const std::size_t count = ev.size();
        for (; i < count; ++i) {  // none when the chunks meet
            const EventScan::Event e = ev.at(i);
            if (e.startNs >= fromNs) break;
            std::int64_t& reach = e.kind == kCollective ? c.commEndNs : c.computeEndNs;
            reach = std::max(reach, e.startNs + e.durNs);
        }
        if (c.computeEndNs > fromNs) m_streamCompute.push_back({fromNs, c.computeEndNs});
        if (c.commEndNs > fromNs) m_streamComm.push_back({fromNs, c.commEndNs});
        // Each stream is sorted by start, so its union is one pass (the open interval of each list
        // kept at hand: appendToUnion's test without a call a kernel); streams then merge pairwise.
        std::array<std::vector<Interval>*, 2> lists{&m_streamCompute, &m_streamComm};
        std::array<Interval, 2> open{};
        for (std::size_t k = 0; k < 2; ++k) {
            if (!lists[k]->empty()) {
                open[k] = lists[k]->back();
                lists[k]->pop_back();
            }
        }
        for (; i < count; ++i) {
            const EventScan::Event e = ev.at(i);
            const std::int64_t start = e.startNs;
            if (start >= toNs) break;
            const std::int64_t end = start + e.durNs;
            if (end <= start) continue;
            const bool collective = e.kind == kCollective;
            Interval& o = open[collective ? 1 : 0];
            if (start <= o.endNs && o.endNs > o.startNs) {
                o.endNs = std::max(o.endNs, end);
            } else {
                if (o.endNs > o.startNs) (collective ? m_streamComm : m_streamCompute).push_back(o);
                o = {start, end};
            }
        }
        for (std::size_t k = 0; k < 2; ++k) {
            if (open[k].endNs > open[k].startNs) lists[k]->push_back(open[k]);
        }
        clipLast(m_streamCompute, toNs, c.computeEndNs);
        clipLast(m_streamComm, toNs, c.commEndNs);
        c.next = i;
        if (!m_streamCompute.empty()) {
            uniteInto(m_compute, m_streamCompute, m_merged, firstCompute);
            firstCompute = false;
        }
        if (!m_streamComm.empty()) {
            uniteInto(m_comm, m_streamComm, m_merged, firstComm);
            firstComm = false;
        }
    }
    if (firstCompute) m_compute.clear();
    if (firstComm) m_comm.clear();
    m_transfer.clear();
    if (m_transferInPlace) {
        appendClipped([this](std::size_t k) { return transferOf(m_mine[k]); }, m_mine.size(), m_transferNext,
                      m_transferEndNs, fromNs, toNs, m_transfer);
    } else {
        appendClipped([this](std::size_t k) { return m_transferSorted[k]; }, m_transferSorted.size(), m_transferNext,
                      m_transferEndNs, fromNs, toNs, m_transfer);
    }
}

}  // namespace tpscope::core::analysis
