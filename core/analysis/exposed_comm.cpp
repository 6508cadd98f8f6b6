// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/analysis/exposed_comm.h"

#include <algorithm>
#include <cstdint>
#include <span>

#include "core/trace/event_batch_builder.h"
#include "core/util/parallel_for.h"

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

using KindMask = std::uint32_t;  // bit k: EventKind k belongs

constexpr KindMask bit(core::EventKind kind) {
    return KindMask{1} << static_cast<unsigned>(kind);
}
static_assert(core::kEventKindCount <= 32);
constexpr KindMask kCollectives = bit(core::EventKind::Collective);
// Compute: every kernel but collectives; memcpy and memset count as neither.
constexpr KindMask kCompute = ((KindMask{1} << core::kEventKindCount) - 1) &
                              ~(kCollectives | bit(core::EventKind::Memcpy) | bit(core::EventKind::Memset));

// The union of a rank's kernels of some kinds over all its streams, one disjoint interval at a time
// in start order, without a list of them: at 100 M events the compute list was 1.3 GB of fresh pages
// and the collectives' 40 MB a rank, both filled and dropped for every rank. Kernels are taken by
// start across the streams (each sorted by start); empty ones are dropped and intervals that overlap
// or touch are merged, which is what appendToUnion/mergeUnions gave, interval for interval.
class KernelUnion {
  public:
    KernelUnion(const core::Rank& rank, KindMask kinds) : m_kinds(kinds), m_heads(rank.streams.size()) {
        for (std::size_t s = 0; s < m_heads.size(); ++s) {
            Head& h = m_heads[s];
            h.events = &rank.streams[s].events;
            h.kinds = h.events->kinds();
            advance(h, 0);
        }
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
    // A stream's next wanted kernel, its times read once (not at every comparison), beside the
    // stream's columns and kinds (looked up once, not at every kernel).
    struct Head {
        const EventColumns* events = nullptr;
        EventKinds kinds;
        std::size_t index = 0;  // == kinds.size(): none left
        TimeInterval interval;
    };

    // The stream's first wanted kernel at or after `from`. The kinds are scanned as bytes; a
    // kernel's times are read only once its kind is wanted, each column once.
    void advance(Head& h, std::size_t from) const {
        std::size_t i = from;
        std::int64_t dur = 0;
        for (;; ++i) {
            i = h.kinds.next(i, m_kinds);
            if (i >= h.kinds.size() || (dur = h.events->durNs(i)) > 0) break;
        }
        h.index = i;
        if (i < h.kinds.size()) {
            const std::int64_t start = h.events->startNs(i);
            h.interval = {start, start + dur};
        }
    }

    // The next wanted kernel by start over every stream (the earliest head; on a tie, the first stream).
    bool nextKernel(TimeInterval& out) {
        Head* best = nullptr;
        for (Head& h : m_heads) {
            if (h.index < h.kinds.size() && (best == nullptr || h.interval.startNs < best->interval.startNs)) best = &h;
        }
        if (best == nullptr) return false;
        out = best->interval;
        advance(*best, best->index + 1);
        return true;
    }

    KindMask m_kinds;
    std::vector<Head> m_heads;  // per stream
    TimeInterval m_next;
    bool m_pending = false;
};

// Walks the collectives' union (onComm gets each interval) and the parts of it no compute kernel
// covers (onExposed), both in order; two streamed unions, no list held.
template <typename OnComm, typename OnExposed>
void forEachExposed(const core::Rank& rank, OnComm&& onComm, OnExposed&& onExposed) {
    KernelUnion comm(rank, kCollectives);
    KernelUnion compute(rank, kCompute);
    TimeInterval c;
    bool have = compute.next(c);
    TimeInterval iv;
    while (comm.next(iv)) {
        onComm(iv);
        std::int64_t cursor = iv.startNs;
        while (have && c.endNs <= cursor) have = compute.next(c);
        while (have && c.startNs < iv.endNs) {
            if (c.startNs > cursor) onExposed(TimeInterval{cursor, c.startNs});
            cursor = std::max(cursor, c.endNs);
            if (c.endNs > iv.endNs) break;  // reaches into the next collective: keep it
            have = compute.next(c);
        }
        if (cursor < iv.endNs) onExposed(TimeInterval{cursor, iv.endNs});
    }
}

}  // namespace

void exposedCommIntervals(const core::Rank& rank, std::vector<TimeInterval>& out) {
    out.clear();
    forEachExposed(
        rank, [](const TimeInterval&) {}, [&](const TimeInterval& iv) { out.push_back(iv); });
}

core::EventColumns exposedCommColumns(const core::Rank& rank, std::vector<TimeInterval>& scratch) {
    exposedCommIntervals(rank, scratch);
    core::EventColumns out;
    out.reserve(scratch.size());
    core::EventBatchBuilder builder(out);
    for (const auto& [start, end] : scratch) {
        builder.add(start, end - start, core::NameId{}, core::EventKind::Collective);
    }
    builder.flush();
    out.finalize();
    return out;
}

std::vector<core::EventColumns> exposedCommColumns(const core::Trace& trace, unsigned threads) {
    std::vector<core::EventColumns> out(trace.ranks.size());
    parallelForWithScratch<std::vector<TimeInterval>>(out.size(), threads,
                                                      [&](std::size_t r, std::vector<TimeInterval>& scratch) {
                                                          out[r] = exposedCommColumns(trace.ranks[r], scratch);
                                                      });
    return out;
}

std::vector<TimeInterval> exposedCommIntervals(const core::Rank& rank) {
    std::vector<TimeInterval> out;
    exposedCommIntervals(rank, out);
    return out;
}

CommSummary summarizeComm(const core::Rank& rank) {
    std::int64_t comm = 0;
    std::int64_t exposed = 0;
    forEachExposed(
        rank, [&](const TimeInterval& iv) { comm += iv.length(); },
        [&](const TimeInterval& iv) { exposed += iv.length(); });
    return {static_cast<double>(comm), static_cast<double>(exposed)};
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
