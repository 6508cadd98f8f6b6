// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Cross-rank matching of collective calls, and the sync-wait / transfer split (DESIGN.md §5).
//
// Input: a finalized Trace (collective kernels have EventKind::Collective, optionally a
// CollectivePayload) and its Segmentation (to label each call with its step and layer).
// Mapping: kernels are grouped into channels by communicator name (one channel when unnamed) and
// matched across ranks in per-channel call order. Every rank's kernel of one real collective is
// still running when the last rank arrives (no rank can finish before all have started), so each
// match is checked in time: a head kernel that ended more than `toleranceNs` before the latest
// head started cannot belong to the same call; it becomes a call of its own (or with the other
// ranks that also ran ahead), reported as incomplete. That keeps one rank's extra call from
// shifting every later match.
// Per call: wait(rank) = max_r start_r - start(rank), clamped to the rank's kernel duration;
// transfer = median_r end_r - max_r start_r, clamped at 0 (the time from the last arrival until
// the ranks finish). algbw = bytes / transfer; busbw = algbw x the nccl-tests factor of the op
// (2(n-1)/n for all-reduce).
// The collective kernels are gathered once (gatherCollectiveKernels: per channel and rank, in start
// order); the clock estimate (clock_sync.h) groups the same lists by call order alone, so a caller
// running both gathers once. The matching of a long channel runs in pieces on several threads: each
// piece starts from a guessed state of the matching (every rank's next kernel: the ones nearest in
// time to a kernel of the busiest rank) and is kept only when the piece before it ends in exactly
// that state, so the result is the serial one whatever the guess (a wrong guess costs the time of
// the pieces after it, which the piece before then matches itself).
// Complexity: O(k log k) per rank for k collective kernels (O(k) when a rank's kernels are already
// in start order, the usual case), O(calls x ranks) for the matching (pieces on `threads` threads).
// Memory: the result (12 bytes per kernel, 72 per call, 16 per wait of 2.1 s or more) and, while
// matching, 16 bytes per kernel (and 72 per call matched by a piece after the first, until the
// pieces are joined).
// Limits: a participant holds 16-bit rank and stream indices and a 32-bit wait (20 M participants
// at 100 M events); a wait of 2^31 - 1 ns or more is kept exactly in a side table
// (CollectiveMatching::longWaits): read waits through CollectiveMatching::waitNs.
// Collective kernels of a rank index or on a stream index above kMaxParticipantIndex are left out
// of the matching, counted in `unmatchedKernels` and named in a note.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/analysis/layer_segmentation.h"
#include "core/trace/trace.h"

namespace tpscope::core::analysis {

struct MatchingOptions {
    // Clock-skew allowance of the time check; negative: trust the call order alone.
    std::int64_t toleranceNs = 2000;

    bool operator==(const MatchingOptions&) const = default;
};

// The largest rank or stream index a participant can hold.
inline constexpr std::uint32_t kMaxParticipantIndex = 0xFFFF;

// A wait that a participant's 32 bits cannot hold: 2^31 - 1 ns (2.1 s) or more.
inline constexpr std::int32_t kLongWait = 0x7FFFFFFF;

// 12 bytes: 16-bit rank and stream indices (see kMaxParticipantIndex), the wait in 32 bits.
struct CallParticipant {
    std::uint16_t rankIndex = 0;    // into Trace::ranks
    std::uint16_t streamIndex = 0;  // into Rank::streams
    std::uint32_t eventIndex = 0;   // into that stream's events
    // The wait (ns, >= 0); kLongWait: in CollectiveMatching::longWaits. Read it through waitNs().
    std::int32_t narrowWaitNs = 0;
};
static_assert(sizeof(CallParticipant) == 12);

// A participant's wait of kLongWait ns or more.
struct LongWait {
    std::uint32_t participant = 0;  // into CollectiveMatching::participants
    std::int64_t waitNs = 0;
    bool operator==(const LongWait&) const = default;
};

// The entry of participant i in `longWaits` (sorted by participant); kLongWait when it has none.
std::int64_t longWaitNs(std::span<const LongWait> longWaits, std::size_t i);
// The wait of participants[i]: its own 32 bits, or its entry of `longWaits`. Inline: read once a
// matched kernel by the breakdown.
inline std::int64_t participantWaitNs(std::span<const CallParticipant> participants,
                                      std::span<const LongWait> longWaits, std::size_t i) {
    const std::int32_t narrow = participants[i].narrowWaitNs;
    return narrow != kLongWait ? narrow : longWaitNs(longWaits, i);
}

// 72 bytes: the 32-bit fields first, then the 64-bit ones, so that no padding sits between them
// (2.5 M calls at 100 M events); the transfer time is derived from the median end and the last start.
struct CollectiveCall {
    std::uint32_t firstParticipant = 0;  // into CollectiveMatching::participants
    std::uint32_t participantCount = 0;
    std::uint32_t expectedParticipants = 0;  // ranks of the trace that use this channel
    std::uint32_t groupSize = 0;             // communicator size: max of the payloads' and the ranks present
    NameId communicator{};
    std::uint32_t lastRankIndex = 0;  // the rank that arrived last (lowest index on ties)
    int layer = -1;                   // of the first participant; -1 outside every layer
    CollectiveOp op = CollectiveOp::Unknown;
    std::uint64_t bytes = 0;
    std::int64_t firstStartNs = 0;
    std::int64_t lastStartNs = 0;  // max_r start_r: the last arrival
    std::int64_t medianEndNs = 0;
    std::int64_t step = -1;  // of the first participant; -1 outside every layer
    bool complete() const { return participantCount >= expectedParticipants; }
    // Median end - last arrival, clamped at 0: the time from the last arrival until the ranks finish.
    std::int64_t transferNs() const { return medianEndNs > lastStartNs ? medianEndNs - lastStartNs : 0; }
};
static_assert(sizeof(CollectiveCall) == 72);

struct RankCollectiveStats {
    std::uint32_t rankIndex = 0;
    std::size_t kernels = 0;
    std::size_t lastArrivals = 0;  // complete calls (of >= 2 ranks) where this rank arrived last
    std::size_t extraKernels = 0;  // kernels in calls that not every rank of the channel joined
    std::int64_t waitNs = 0;       // summed wait over its kernels
    std::int64_t kernelNs = 0;     // summed collective kernel time
};

// A collective kernel in its rank's list. 16 bytes: the end and the payload (op, bytes, group size)
// are read from the trace's columns when needed, not copied per kernel (~20 M at 100 M events).
struct CollectiveKernelRef {
    std::int64_t startNs = 0;
    std::uint32_t streamIndex = 0;  // into Rank::streams
    std::uint32_t eventIndex = 0;   // into that stream's events
};
static_assert(sizeof(CollectiveKernelRef) == 16);

// One communicator's collective kernels.
struct CollectiveChannel {
    std::uint32_t communicator = 0;                         // name id; 0: unnamed (no payload names one)
    std::uint32_t groupSize = 0;                            // the largest group size a payload states
    std::vector<std::vector<CollectiveKernelRef>> perRank;  // per Trace::ranks index, each in start order
};

// Every rank's collective kernels by channel: what the matching and the clock estimate read.
struct CollectiveKernels {
    std::vector<CollectiveChannel> channels;  // ascending communicator id
    // Left out: their rank or stream index is above kMaxParticipantIndex.
    std::size_t unmatchedKernels = 0;
};

// Each rank's kernels gathered (and sorted, where they are not in order) on up to `threads` threads
// (0: one per hardware thread).
CollectiveKernels gatherCollectiveKernels(const Trace& trace, unsigned threads = 0);

struct CollectiveMatching {
    std::vector<CollectiveCall> calls;  // sorted by last arrival
    std::vector<CallParticipant> participants;
    std::vector<LongWait> longWaits;         // the waits of kLongWait ns or more, by participant
    std::vector<RankCollectiveStats> ranks;  // one per Trace::ranks entry
    std::size_t incompleteCalls = 0;
    // Collective kernels left out: their rank or stream index is above kMaxParticipantIndex.
    std::size_t unmatchedKernels = 0;
    std::vector<std::string> notes;
    // The wait of participants[i] (last arrival - its start, clamped to its kernel).
    std::int64_t waitNs(std::size_t i) const { return participantWaitNs(participants, longWaits, i); }
};

// gatherCollectiveKernels, then the matching, each on up to `threads` threads (0: one per hardware
// thread). The result does not depend on the thread count.
CollectiveMatching matchCollectives(const Trace& trace, const Segmentation& segmentation,
                                    const MatchingOptions& options = {}, unsigned threads = 0);
// The matching of kernels gathered from this trace (gatherCollectiveKernels(trace)).
CollectiveMatching matchCollectives(const Trace& trace, const CollectiveKernels& kernels,
                                    const Segmentation& segmentation, const MatchingOptions& options = {},
                                    unsigned threads = 0);

// A call of the matching by call order alone (the clock estimate's, clock_sync.h): the index-th
// kernel of each rank of a channel that has one. matchCollectives with a negative tolerance groups
// kernels so too; this reads no payload and builds no call. 16 bytes.
struct CallByOrder {
    std::int64_t lastStartNs = 0;  // the latest start among its kernels
    std::uint32_t channel = 0;     // into CollectiveKernels::channels
    std::uint32_t index = 0;       // into each rank's list of that channel
};

// The calls by call order of two ranks or more, in order of their last start (stable: channel, then
// index), as matchCollectives(MatchingOptions{.toleranceNs = -1}) orders its calls. Their kernels
// (in rank order: every rank whose list of the channel is longer than the index) are added to
// `kernelCount` when given. O(k) for k kernels, O(c log c) for c calls when channels interleave.
std::vector<CallByOrder> callsByOrder(const CollectiveKernels& kernels, std::size_t* kernelCount = nullptr);

// How the matching was split into pieces (the result is the same either way): for the tests.
struct MatchingSplit {
    std::size_t minCallsPerPiece = 8192;  // in: a channel is split only into pieces this long (by its busiest rank)
    std::size_t pieces = 0;               // out: pieces matched, over every channel
    std::size_t piecesKept = 0;           // out: of them, the ones whose guessed start state was right, or first
};
CollectiveMatching matchCollectives(const Trace& trace, const CollectiveKernels& kernels,
                                    const Segmentation& segmentation, const MatchingOptions& options, unsigned threads,
                                    MatchingSplit& split);

// nccl-tests bus-bandwidth factor for an op over n ranks; NaN for an unknown op.
double busBandwidthFactor(CollectiveOp op, std::uint32_t ranks);
// bytes / transfer in bytes per second; NaN when bytes or transfer time is unknown (0). busbw
// uses the communicator size (a single-rank trace of an 8-rank job: the factor of 8 ranks).
double algBandwidth(const CollectiveCall& call);
double busBandwidth(const CollectiveCall& call);

// Start and end of a participant's kernel.
std::int64_t participantStartNs(const Trace& trace, const CallParticipant& p);
std::int64_t participantEndNs(const Trace& trace, const CallParticipant& p);

}  // namespace tpscope::core::analysis
