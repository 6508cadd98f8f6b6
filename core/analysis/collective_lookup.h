// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Which call of a CollectiveMatching a collective kernel joined, where the kernel stands among its
// rank's collective kernels, and a rank's collective kernels in a time window: the questions the
// timeline's hit-testing and Selection panel ask, answered from the matching itself instead of an
// index of every kernel (8 bytes a kernel, 160 MB at 100 M events).
//
// Input: a finalized Trace and its matching (collective_matching.h): every collective kernel of a
// rank and stream index that a participant can hold joined exactly one call; the calls are sorted
// by their last start, and each participant starts within [firstStartNs, lastStartNs] of its call.
// Mapping: a kernel starting at t joined a call with firstStartNs <= t <= lastStartNs, so the search
// starts at the first call whose last start is t or later (binary search) and reads calls on while
// one could start at or before t: each block of B calls keeps the least firstStartNs of it and every
// later call, and the search stops at the first block whose least is past t. A kernel's position
// among its rank's kernels counts the rank's participants of every call before the search's first
// (each block keeps the count of each rank's participants before it) plus those of the calls read
// that order before it. Kernels the matching left out (a rank or stream index above
// kMaxParticipantIndex) are read from the trace's columns: they join no call, but they are counted and
// listed like the others.
// Cost: per block of B calls (B = 64 for up to 8 ranks, 64 more for every 8 ranks more), 8 bytes
// plus 4 a rank (1.6 MB at 100 M events, 8 ranks, 2.5 M calls). A lookup: O(log calls) plus the
// participants of the calls read: the calls in flight at t (their first start at or before t, their
// last after it) and up to 2B more; usually a few thousand participants, microseconds. Kernels left
// out of the matching cost a scan of their stream.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "core/analysis/collective_matching.h"
#include "core/trace/trace.h"

namespace tpscope::core::analysis {

// A collective kernel by position: indices into Trace::ranks, Rank::streams and the stream's events.
struct CollectiveKernelAt {
    std::size_t rank = 0;
    std::size_t stream = 0;
    std::size_t index = 0;
    bool operator==(const CollectiveKernelAt&) const = default;
};

class CollectiveLookup {
  public:
    CollectiveLookup() = default;
    // `trace` and `matching` must be the ones passed to every lookup below.
    CollectiveLookup(const Trace& trace, const CollectiveMatching& matching);

    struct Joined {
        std::size_t call = 0;         // into matching.calls
        std::size_t participant = 0;  // into matching.participants
    };
    // The call `kernel` joined; nullopt when it is no collective kernel or the matching left it out.
    std::optional<Joined> callOf(const Trace& trace, const CollectiveMatching& matching,
                                 const CollectiveKernelAt& kernel) const;
    // How many of the rank's collective kernels order before `kernel` by start, then stream, then
    // index. `kernel` must be a collective kernel of the trace.
    std::size_t ordinalOf(const Trace& trace, const CollectiveMatching& matching,
                          const CollectiveKernelAt& kernel) const;
    // The collective kernels of `rank` that start in [t0, t1), by start, then stream, then index.
    std::vector<CollectiveKernelAt> kernelsIn(const Trace& trace, const CollectiveMatching& matching, std::size_t rank,
                                              std::int64_t t0, std::int64_t t1) const;
    std::size_t blockCalls() const { return m_block; }
    std::size_t residentBytes() const;

  private:
    // The first call whose last start is `t` or later.
    std::size_t firstCallEndingAtOrAfter(const CollectiveMatching& matching, std::int64_t t) const;
    // Whether no call from `c` on (c a multiple of m_block) starts at or before t.
    bool noneFrom(std::size_t c, std::int64_t t) const { return m_leastFirstStart[c / m_block] > t; }
    // The rank's participants in calls [0, c).
    std::size_t participantsBefore(const CollectiveMatching& matching, std::size_t rank, std::size_t c) const;

    std::size_t m_block = 64;
    std::size_t m_ranks = 0;
    std::vector<std::int64_t> m_leastFirstStart;  // per block: the least firstStartNs of its calls and every later one
    std::vector<std::uint32_t> m_before;          // per block and rank (block * ranks + rank): participants before it
};

}  // namespace tpscope::core::analysis
