// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/analysis/collective_lookup.h"

#include <algorithm>
#include <limits>
#include <tuple>
#include <utility>

namespace tpscope::core::analysis {

namespace {

constexpr std::uint32_t kCollectives = 1U << static_cast<unsigned>(EventKind::Collective);

// Whether the matching could hold a kernel of this rank and stream (gatherCollectiveKernels' rule).
bool matchable(std::size_t rank, std::size_t stream) {
    return rank <= kMaxParticipantIndex && stream <= kMaxParticipantIndex;
}

// The order of a rank's collective kernels: start, then stream, then index.
using Key = std::tuple<std::int64_t, std::size_t, std::size_t>;

const EventColumns* kernelEvents(const Trace& trace, const CollectiveKernelAt& k) {
    if (k.rank >= trace.ranks.size() || k.stream >= trace.ranks[k.rank].streams.size()) return nullptr;
    const EventColumns& ev = trace.ranks[k.rank].streams[k.stream].events;
    return k.index < ev.size() && ev.kind(k.index) == EventKind::Collective ? &ev : nullptr;
}

// The first event of a stream (in start order) that starts at `t` or later.
std::size_t firstStartingAtOrAfter(const EventColumns& ev, std::int64_t t) {
    std::size_t lo = 0;
    std::size_t hi = ev.size();
    while (lo < hi) {
        const std::size_t mid = lo + (hi - lo) / 2;
        if (ev.startNs(mid) < t) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

}  // namespace

CollectiveLookup::CollectiveLookup(const Trace& trace, const CollectiveMatching& matching)
    : m_block(64 * std::max<std::size_t>(1, (trace.ranks.size() + 7) / 8)), m_ranks(trace.ranks.size()) {
    const auto& calls = matching.calls;
    const std::size_t blocks = (calls.size() + m_block - 1) / m_block;
    m_leastFirstStart.resize(blocks);
    m_before.resize(blocks * m_ranks);
    std::vector<std::uint32_t> running(m_ranks, 0);
    for (std::size_t c = 0; c < calls.size(); ++c) {
        if (c % m_block == 0) std::copy(running.begin(), running.end(), m_before.begin() + (c / m_block) * m_ranks);
        for (std::uint32_t i = 0; i < calls[c].participantCount; ++i) {
            const auto r = matching.participants[calls[c].firstParticipant + i].rankIndex;
            if (r < m_ranks) ++running[r];
        }
    }
    std::int64_t least = std::numeric_limits<std::int64_t>::max();
    for (std::size_t c = calls.size(); c-- > 0;) {
        least = std::min(least, calls[c].firstStartNs);
        if (c % m_block == 0) m_leastFirstStart[c / m_block] = least;
    }
}

std::size_t CollectiveLookup::firstCallEndingAtOrAfter(const CollectiveMatching& matching, std::int64_t t) const {
    const auto it = std::partition_point(matching.calls.begin(), matching.calls.end(),
                                         [t](const CollectiveCall& c) { return c.lastStartNs < t; });
    return static_cast<std::size_t>(it - matching.calls.begin());
}

std::size_t CollectiveLookup::participantsBefore(const CollectiveMatching& matching, std::size_t rank,
                                                 std::size_t c) const {
    if (c == 0 || rank >= m_ranks) return 0;
    const std::size_t block = (c - 1) / m_block;
    std::size_t n = m_before[block * m_ranks + rank];
    for (std::size_t k = block * m_block; k < c; ++k) {
        const auto& call = matching.calls[k];
        for (std::uint32_t i = 0; i < call.participantCount; ++i) {
            n += matching.participants[call.firstParticipant + i].rankIndex == rank ? 1 : 0;
        }
    }
    return n;
}

std::optional<CollectiveLookup::Joined> CollectiveLookup::callOf(const Trace& trace, const CollectiveMatching& matching,
                                                                 const CollectiveKernelAt& kernel) const {
    const EventColumns* ev = kernelEvents(trace, kernel);
    if (ev == nullptr || !matchable(kernel.rank, kernel.stream)) return std::nullopt;
    const std::int64_t t = ev->startNs(kernel.index);
    const auto& calls = matching.calls;
    for (std::size_t c = firstCallEndingAtOrAfter(matching, t); c < calls.size(); ++c) {
        if (c % m_block == 0 && noneFrom(c, t)) break;
        const auto& call = calls[c];
        if (call.firstStartNs > t) continue;
        for (std::uint32_t i = 0; i < call.participantCount; ++i) {
            const auto& p = matching.participants[call.firstParticipant + i];
            if (p.rankIndex == kernel.rank && p.streamIndex == kernel.stream && p.eventIndex == kernel.index) {
                return Joined{c, call.firstParticipant + i};
            }
        }
    }
    return std::nullopt;
}

std::size_t CollectiveLookup::ordinalOf(const Trace& trace, const CollectiveMatching& matching,
                                        const CollectiveKernelAt& kernel) const {
    const EventColumns* ev = kernelEvents(trace, kernel);
    if (ev == nullptr) return 0;
    const std::int64_t t = ev->startNs(kernel.index);
    const Key key{t, kernel.stream, kernel.index};
    std::size_t n = 0;
    if (kernel.rank <= kMaxParticipantIndex) {
        // Calls before the first that ends at or after t: every participant of them starts before t.
        const std::size_t first = firstCallEndingAtOrAfter(matching, t);
        n += participantsBefore(matching, kernel.rank, first);
        const auto& calls = matching.calls;
        for (std::size_t c = first; c < calls.size(); ++c) {
            if (c % m_block == 0 && noneFrom(c, t)) break;
            const auto& call = calls[c];
            if (call.firstStartNs > t) continue;
            for (std::uint32_t i = 0; i < call.participantCount; ++i) {
                const auto& p = matching.participants[call.firstParticipant + i];
                if (p.rankIndex != kernel.rank) continue;
                n += Key{participantStartNs(trace, p), p.streamIndex, p.eventIndex} < key ? 1 : 0;
            }
        }
    }
    // The rank's kernels the matching left out, read from their streams.
    const auto& streams = trace.ranks[kernel.rank].streams;
    for (std::size_t s = 0; s < streams.size(); ++s) {
        if (matchable(kernel.rank, s)) continue;
        const EventColumns& other = streams[s].events;
        const auto kinds = other.kinds();
        for (std::size_t i = kinds.next(0, kCollectives); i < other.size(); i = kinds.next(i + 1, kCollectives)) {
            const std::int64_t start = other.startNs(i);
            if (start > t) break;
            n += Key{start, s, i} < key ? 1 : 0;
        }
    }
    return n;
}

std::vector<CollectiveKernelAt> CollectiveLookup::kernelsIn(const Trace& trace, const CollectiveMatching& matching,
                                                            std::size_t rank, std::int64_t t0, std::int64_t t1) const {
    if (rank >= trace.ranks.size() || t0 >= t1) return {};
    std::vector<std::pair<std::int64_t, CollectiveKernelAt>> found;
    if (rank <= kMaxParticipantIndex) {
        const auto& calls = matching.calls;
        for (std::size_t c = firstCallEndingAtOrAfter(matching, t0); c < calls.size(); ++c) {
            if (c % m_block == 0 && noneFrom(c, t1 - 1)) break;
            const auto& call = calls[c];
            if (call.firstStartNs >= t1) continue;
            for (std::uint32_t i = 0; i < call.participantCount; ++i) {
                const auto& p = matching.participants[call.firstParticipant + i];
                if (p.rankIndex != rank) continue;
                const std::int64_t start = participantStartNs(trace, p);
                if (start >= t0 && start < t1) found.push_back({start, {rank, p.streamIndex, p.eventIndex}});
            }
        }
    }
    const auto& streams = trace.ranks[rank].streams;
    for (std::size_t s = 0; s < streams.size(); ++s) {
        if (matchable(rank, s)) continue;
        const EventColumns& ev = streams[s].events;
        const auto kinds = ev.kinds();
        for (std::size_t i = kinds.next(firstStartingAtOrAfter(ev, t0), kCollectives);
             i < ev.size() && ev.startNs(i) < t1; i = kinds.next(i + 1, kCollectives)) {
            found.push_back({ev.startNs(i), {rank, s, i}});
        }
    }
    std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) {
        return Key{a.first, a.second.stream, a.second.index} < Key{b.first, b.second.stream, b.second.index};
    });
    std::vector<CollectiveKernelAt> out;
    out.reserve(found.size());
    for (const auto& f : found) out.push_back(f.second);
    return out;
}

std::size_t CollectiveLookup::residentBytes() const {
    return m_leastFirstStart.capacity() * sizeof(std::int64_t) + m_before.capacity() * sizeof(std::uint32_t);
}

}  // namespace tpscope::core::analysis
