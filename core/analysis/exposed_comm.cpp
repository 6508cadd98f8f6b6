// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/analysis/exposed_comm.h"

#include <algorithm>

namespace tpscope::core::analysis {

std::vector<TimeInterval> unionOf(std::vector<TimeInterval> intervals) {
    const auto byStart = [](const TimeInterval& x, const TimeInterval& y) { return x.startNs < y.startNs; };
    if (!std::is_sorted(intervals.begin(), intervals.end(), byStart)) {
        std::sort(intervals.begin(), intervals.end(), byStart);
    }
    unionInPlace(intervals);
    return intervals;
}

std::vector<TimeInterval> subtract(const std::vector<TimeInterval>& a, const std::vector<TimeInterval>& b) {
    std::vector<TimeInterval> out;
    std::size_t j = 0;
    for (const auto& iv : a) {
        std::int64_t cursor = iv.startNs;
        while (j < b.size() && b[j].endNs <= cursor) ++j;
        std::size_t k = j;
        while (k < b.size() && b[k].startNs < iv.endNs) {
            if (b[k].startNs > cursor) out.push_back({cursor, b[k].startNs});
            cursor = std::max(cursor, b[k].endNs);
            ++k;
        }
        if (cursor < iv.endNs) out.push_back({cursor, iv.endNs});
    }
    return out;
}

namespace {

bool isCompute(core::EventKind kind) {
    return kind != core::EventKind::Collective && kind != core::EventKind::Memcpy && kind != core::EventKind::Memset;
}

// Union of the rank's collective kernels: each stream's (sorted by start) grows by appending, then
// the streams' unions are merged. A rank rarely has more than a few streams.
std::vector<TimeInterval> commUnionOf(const core::Rank& rank) {
    std::vector<TimeInterval> all;
    for (const auto& stream : rank.streams) {
        const auto& ev = stream.events;
        // Sized once at the stream's collective count (its union's largest size): grown by doubling,
        // the list was copied and its fresh pages faulted again at every step (a fifth of the
        // timeline rows' CPU at 100 M events). Pages past the union's size are never touched.
        const auto kinds = ev.kinds();
        std::vector<TimeInterval> one;
        one.reserve(static_cast<std::size_t>(
            std::count(kinds.begin(), kinds.end(), static_cast<std::uint8_t>(core::EventKind::Collective))));
        for (std::size_t i = 0; i < ev.size(); ++i) {
            if (ev.kind(i) == core::EventKind::Collective) appendToUnion(one, {ev.startNs(i), ev.endNs(i)});
        }
        all = all.empty() ? std::move(one) : mergeUnions(all, one);
    }
    return all;
}

// The union of the rank's compute kernels over all its streams, one disjoint interval at a time in
// order, without a list of them: compute is most of a trace, and at 100 M events that list was
// 1.3 GB of fresh pages for the timeline to fill and drop.
class ComputeUnion {
  public:
    explicit ComputeUnion(const core::Rank& rank) : m_rank(rank), m_pos(rank.streams.size(), 0) {
        m_pending = nextKernel(m_next);
    }

    bool next(TimeInterval& out) {
        if (!m_pending) return false;
        out = m_next;
        while ((m_pending = nextKernel(m_next)) && m_next.startNs <= out.endNs) {
            out.endNs = std::max(out.endNs, m_next.endNs);
        }
        return true;
    }

  private:
    // The next non-empty compute kernel by start over every stream (the earliest of the streams' next).
    bool nextKernel(TimeInterval& out) {
        std::size_t best = m_pos.size();
        for (std::size_t s = 0; s < m_pos.size(); ++s) {
            const auto& ev = m_rank.streams[s].events;
            std::size_t& i = m_pos[s];
            while (i < ev.size() && (!isCompute(ev.kind(i)) || ev.durNs(i) <= 0)) ++i;
            if (i < ev.size() &&
                (best == m_pos.size() || ev.startNs(i) < m_rank.streams[best].events.startNs(m_pos[best]))) {
                best = s;
            }
        }
        if (best == m_pos.size()) return false;
        const auto& ev = m_rank.streams[best].events;
        out = {ev.startNs(m_pos[best]), ev.endNs(m_pos[best])};
        ++m_pos[best];
        return true;
    }

    const core::Rank& m_rank;
    std::vector<std::size_t> m_pos;  // per stream: the next event to look at
    TimeInterval m_next;
    bool m_pending = false;
};

// subtract(comm, compute union) with the compute union streamed.
std::vector<TimeInterval> exposedPart(const std::vector<TimeInterval>& comm, const core::Rank& rank) {
    std::vector<TimeInterval> out;
    out.reserve(comm.size());  // a collective mostly leaves one exposed piece or none
    ComputeUnion compute(rank);
    TimeInterval c;
    bool have = compute.next(c);
    for (const auto& iv : comm) {
        std::int64_t cursor = iv.startNs;
        while (have && c.endNs <= cursor) have = compute.next(c);
        while (have && c.startNs < iv.endNs) {
            if (c.startNs > cursor) out.push_back({cursor, c.startNs});
            cursor = std::max(cursor, c.endNs);
            if (c.endNs > iv.endNs) break;  // reaches into the next collective: keep it
            have = compute.next(c);
        }
        if (cursor < iv.endNs) out.push_back({cursor, iv.endNs});
    }
    return out;
}

}  // namespace

std::vector<TimeInterval> exposedCommIntervals(const core::Rank& rank) {
    return exposedPart(commUnionOf(rank), rank);
}

CommSummary summarizeComm(const core::Rank& rank) {
    const std::vector<TimeInterval> comm = commUnionOf(rank);
    return {static_cast<double>(totalLength(comm)), static_cast<double>(totalLength(exposedPart(comm, rank)))};
}

CommSummary summarizeComm(const core::Trace& trace) {
    CommSummary total;
    for (const auto& r : trace.ranks) {
        const CommSummary s = summarizeComm(r);
        total.commNs += s.commNs;
        total.exposedNs += s.exposedNs;
    }
    return total;
}

}  // namespace tpscope::core::analysis
