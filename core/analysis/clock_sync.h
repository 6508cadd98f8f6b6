// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// One clock for ranks from several hosts (DESIGN.md §2): each rank's clock offset estimated from the
// collectives themselves, applied, or overridden by the user.
//
// Input: a finalized Trace whose ranks may each run on an unrelated clock (host-local Kineto `ts`,
// per-host `baseTimeNanoseconds`). Mapping: collective kernels are matched across ranks by their
// per-communicator call order alone (time cannot be trusted yet). The kernels of one call end within
// a few µs of each other on every rank (nobody finishes before the last rank has sent its data), so
// each matched end is modelled as  end(call, rank) = T(call) - offset(rank)  and the offsets are the
// least-squares solution over every matched call (reference rank: offset 0). The fit alternates the
// two closed-form half-steps (T = mean over a call's ranks, offset = mean over a rank's calls) until
// it moves less than 0.5 ns; with every rank in every call one round is exact. One pass then drops
// calls whose residual is far above the median (a mismatched call) and refits.
// The offset reported is the correction *added* to a rank's timestamps (Rank::clockOffsetNs
// convention). A rank without a collective linked to the reference rank gets no estimate: it is
// reported as unknown, never guessed.
// The matching by call order reads the collective kernels as gathered for the analysis' matching
// (gatherCollectiveKernels), so a caller running both gathers once; it reads no payload and builds no
// CollectiveMatching: call i of a channel is the i-th kernel of each of its ranks.
// Complexity: O(k log k) for gathering k collective kernels (O(k) in start order), O(k) for the
// matching (O(c log c) for c calls when channels interleave), O(iterations x k) for the fit.
// Memory: the gathered kernels (16 bytes each; the caller's when it passes them), 16 bytes per call
// of two ranks or more while the observations are built, then 6 bytes per matched kernel (a 16-bit
// rank and its end as a 32-bit difference from its call's first end; 10 when some call's ends lie
// 2.1 s or more apart) and 20 per call for the fit. The outlier check's median residual is selected
// in passes over the observations (percentileOfEach), not from a copy.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/trace/trace.h"
#include "core/util/result.h"

namespace tpscope::core::analysis {

struct CollectiveKernels;  // collective_matching.h

struct RankClockEstimate {
    std::uint32_t rankIndex = 0;
    bool known = false;         // false: no matched collective links it to the reference rank
    std::int64_t offsetNs = 0;  // correction to add to the rank's timestamps
    double residualNs = 0;      // RMS of the fit's residuals over the rank's calls
    std::size_t calls = 0;      // matched calls the estimate rests on
    std::string reason;         // why unknown
};

struct ClockEstimate {
    std::int64_t referenceRankIndex = -1;  // -1: no collective to estimate from
    std::vector<RankClockEstimate> ranks;  // one per Trace::ranks entry
    std::size_t callsUsed = 0;
    std::size_t callsDropped = 0;  // residual outliers left out of the final fit
    // Largest |offset| over the known ranks.
    std::int64_t maxAbsOffsetNs() const;
};

ClockEstimate estimateClockOffsets(const Trace& trace);
// The same from gatherCollectiveKernels(trace).
ClockEstimate estimateClockOffsets(const Trace& trace, const CollectiveKernels& kernels);

enum class ClockSyncMode : std::uint8_t {
    Auto,  // apply the estimate when some |offset| exceeds kSharedClockToleranceNs
    On,    // always apply the estimate
    Off    // keep the trace's clocks (overrides still apply)
};

// The kernels of one call end within a few µs on a shared clock (the param 8-rank trace: within
// ~3 µs); an estimated offset beyond this cannot be skew between kernels, so the clocks differ.
inline constexpr std::int64_t kSharedClockToleranceNs = 20'000;

struct ClockOverride {
    RankId rank{};
    std::int64_t offsetNs = 0;  // correction to add to that rank's timestamps
};

struct ClockSyncOptions {
    ClockSyncMode mode = ClockSyncMode::Auto;
    std::vector<ClockOverride> overrides;
};

struct ClockSyncResult {
    ClockEstimate estimate;
    bool estimateApplied = false;
    std::vector<std::int64_t> appliedNs;  // per rank index: the shift made now
    std::vector<bool> overridden;         // per rank index: the shift came from an override
    std::vector<std::string> notes;       // for the user

    bool shiftsAnyRank() const;  // some appliedNs != 0
};

// Estimates, and decides the shift of every rank as the options say, without touching the trace.
// An override naming a rank the trace does not have is an InvalidArgument error.
Result<ClockSyncResult> planClockSync(const Trace& trace, const ClockSyncOptions& options);
// The same from gatherCollectiveKernels(trace).
Result<ClockSyncResult> planClockSync(const Trace& trace, const ClockSyncOptions& options,
                                      const CollectiveKernels& kernels);
// The same from estimateClockOffsets(trace) computed before (a workspace's stored estimate): an
// InvalidArgument error too when it does not hold one entry per rank of the trace.
Result<ClockSyncResult> planClockSyncFromEstimate(const Trace& trace, const ClockSyncOptions& options,
                                                  ClockEstimate estimate);
// Shifts the ranks of `trace` by plan.appliedNs (plan from planClockSync on this trace).
void applyClockSync(Trace& trace, const ClockSyncResult& plan);
// planClockSync, then applyClockSync when it succeeds (nothing is shifted on an error). A caller
// holding a shared, immutable trace plans first and copies the trace only when shiftsAnyRank().
Result<ClockSyncResult> synchronizeClocks(Trace& trace, const ClockSyncOptions& options);

// "3=-1500000" -> rank 3, -1.5 ms.
Result<ClockOverride> parseClockOverride(std::string_view text);

}  // namespace tpscope::core::analysis
