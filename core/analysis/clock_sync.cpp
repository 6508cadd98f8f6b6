// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/analysis/clock_sync.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>

#include "core/analysis/collective_matching.h"
#include "core/util/statistics.h"
#include "core/util/units.h"

namespace tpscope::core::analysis {

namespace {

// The matched calls of two ranks or more, flattened: call c's observations are
// [first[c], first[c + 1]) of the columns. One allocation per column, where a vector per call took
// two heap blocks for each of ~2.5 M calls at 100 M events. An observation's end (ns from its rank's
// first end) is its call's base plus a 32-bit difference: a call's kernels end within microseconds
// of each other once each rank is measured from its own first end, so 6 bytes an observation and 8
// a call (20 M observations at 100 M events: 120 MB, where a 64-bit rank and a double took 240 MB).
// When any difference does not fit, every end is kept as a double instead (wide), exactly as read.
struct Observations {
    std::vector<std::uint32_t> first{0};  // calls + 1 entries; 32 bits as CollectiveCall's indices
    std::vector<std::uint16_t> rank;      // gathered kernels' ranks are <= kMaxParticipantIndex
    std::vector<std::int64_t> base;       // per call: its first observation's end
    std::vector<std::int32_t> delta;      // per observation: end - its call's base; empty when wide
    std::vector<double> wide;             // per observation: the end; empty unless wide
    std::size_t calls() const { return first.size() - 1; }
    std::size_t size() const { return rank.size(); }
    // The ends, read through plain pointers that a loop keeps in registers: each is exactly the double
    // of the end as an integer (< 2^53 ns from the rank's first end).
    struct Ends {
        const std::int64_t* base;
        const std::int32_t* delta;
        const double* wide;  // null while narrow
        double operator()(std::size_t i, std::size_t call) const {
            return wide == nullptr ? static_cast<double>(base[call] + delta[i]) : wide[i];
        }
    };
    Ends ends() const { return {base.data(), delta.data(), wide.empty() ? nullptr : wide.data()}; }
    void add(std::uint16_t r, std::int64_t end) {
        const bool firstOfCall = rank.size() == first.back();
        if (firstOfCall) base.push_back(end);
        rank.push_back(r);
        const std::int64_t d = end - base.back();
        if (wide.empty() && d >= INT32_MIN && d <= INT32_MAX) {
            delta.push_back(static_cast<std::int32_t>(d));
            return;
        }
        if (wide.empty()) widen();
        wide.push_back(static_cast<double>(end));
    }
    void endCall() { first.push_back(static_cast<std::uint32_t>(rank.size())); }

  private:
    void widen() {
        wide.reserve(rank.capacity());
        for (std::size_t c = 0; c < calls(); ++c) {
            for (std::uint32_t i = first[c]; i < first[c + 1]; ++i) {
                wide.push_back(static_cast<double>(base[c] + delta[i]));
            }
        }
        for (std::size_t i = first.back(); i < delta.size(); ++i) {  // the call being added
            wide.push_back(static_cast<double>(base.back() + delta[i]));
        }
        std::vector<std::int32_t>().swap(delta);
    }
};

// One byte a flag: read once per observation, where std::vector<bool>'s bit arithmetic took about
// a tenth of the estimate's instructions.
using Flags = std::vector<std::uint8_t>;

// Ranks linked to `reference` through calls of at least two ranks (breadth-first over calls).
Flags linkedRanks(const Observations& obs, std::size_t rankCount, std::uint32_t reference) {
    Flags linked(rankCount, 0);
    linked[reference] = 1;
    std::size_t linkedCount = 1;
    // Passes until one links no rank, or until every rank is linked (a pass more would link none).
    for (bool grew = true; grew && linkedCount < rankCount;) {
        grew = false;
        for (std::size_t c = 0; c < obs.calls(); ++c) {
            const auto begin = obs.rank.begin() + obs.first[c];
            const auto end = obs.rank.begin() + obs.first[c + 1];
            if (!std::any_of(begin, end, [&](std::uint32_t r) { return linked[r] != 0; })) continue;
            for (auto it = begin; it != end; ++it) {
                if (linked[*it] == 0) {
                    linked[*it] = 1;
                    ++linkedCount;
                    grew = true;
                }
            }
        }
    }
    return linked;
}

// Keeps the calls c with keep[c], in order, compacting the columns in place (a write never passes
// the entries still to be read, first[c + 1] included).
void keepCalls(Observations& obs, const Flags& keep) {
    if (std::find(keep.begin(), keep.end(), 0) == keep.end()) return;  // every call kept: nothing moves
    std::size_t out = 0;
    std::size_t calls = 0;
    for (std::size_t c = 0; c < obs.calls(); ++c) {
        const std::uint32_t begin = obs.first[c];
        const std::uint32_t end = obs.first[c + 1];
        if (keep[c] == 0) continue;
        for (std::uint32_t i = begin; i < end; ++i, ++out) {
            obs.rank[out] = obs.rank[i];
            if (obs.wide.empty()) {
                obs.delta[out] = obs.delta[i];
            } else {
                obs.wide[out] = obs.wide[i];
            }
        }
        obs.base[calls] = obs.base[c];
        obs.first[++calls] = static_cast<std::uint32_t>(out);
    }
    obs.first.resize(calls + 1);
    obs.base.resize(calls);
    obs.rank.resize(out);
    if (obs.wide.empty()) {
        obs.delta.resize(out);
    } else {
        obs.wide.resize(out);
    }
}

// Alternating least squares: T(call) into `t` and offset(rank), offset(reference) = 0. The
// residual of observation i of call c is residualsOf(obs, offset, t)(i, c); it is recomputed where
// needed rather than stored (8 bytes per observation).
void fit(const Observations& obs, std::size_t ranks, std::uint32_t reference, std::vector<double>& offset,
         std::vector<double>& t) {
    const std::size_t calls = obs.calls();
    t.assign(calls, 0);
    std::vector<double> sum(ranks, 0);
    std::vector<std::size_t> count(ranks, 0);
    offset.assign(ranks, 0);
    const Observations::Ends end = obs.ends();
    const std::uint32_t* first = obs.first.data();
    const std::uint16_t* rank = obs.rank.data();
    for (int iteration = 0; iteration < 500; ++iteration) {
        for (std::size_t c = 0; c < calls; ++c) {
            double s = 0;
            for (std::uint32_t i = first[c]; i < first[c + 1]; ++i) s += end(i, c) + offset[rank[i]];
            t[c] = s / static_cast<double>(obs.first[c + 1] - obs.first[c]);
        }
        std::fill(sum.begin(), sum.end(), 0);
        std::fill(count.begin(), count.end(), 0);
        for (std::size_t c = 0; c < calls; ++c) {
            for (std::uint32_t i = first[c]; i < first[c + 1]; ++i) {
                sum[rank[i]] += t[c] - end(i, c);
                ++count[rank[i]];
            }
        }
        double moved = 0;
        const double ref = count[reference] > 0 ? sum[reference] / static_cast<double>(count[reference]) : 0;
        for (std::size_t r = 0; r < ranks; ++r) {
            if (count[r] == 0) continue;
            const double next = sum[r] / static_cast<double>(count[r]) - ref;
            moved = std::max(moved, std::abs(next - offset[r]));
            offset[r] = next;
        }
        if (moved < 0.5) break;
    }
}

// The residual of observation i of call c under the fit's offsets and call times.
struct Residuals {
    Observations::Ends end;
    const std::uint16_t* rank;
    const double* offset;
    const double* t;
    double operator()(std::size_t i, std::size_t call) const { return end(i, call) + offset[rank[i]] - t[call]; }
};
Residuals residualsOf(const Observations& obs, const std::vector<double>& offset, const std::vector<double>& t) {
    return {obs.ends(), obs.rank.data(), offset.data(), t.data()};
}

// One mismatched call (a rank that ran an extra collective) would pull every offset: drops the
// calls with a residual above max(50 us, 10 x the median absolute residual) and refits once, unless
// that would drop none or every one of the `matchedCalls` (linked to the reference or not). Returns
// the calls dropped.
std::size_t dropOutliersAndRefit(Observations& obs, std::size_t matchedCalls, std::size_t rankCount, std::uint32_t ref,
                                 std::vector<double>& offset, std::vector<double>& t) {
    if (obs.rank.empty()) return 0;
    // The median absolute residual, visited call by call rather than held (8 bytes an observation).
    const Residuals residual = residualsOf(obs, offset, t);
    const std::uint32_t* first = obs.first.data();
    const std::size_t calls = obs.calls();
    const auto eachAbsResidual = [&](auto&& visit) {
        for (std::size_t c = 0; c < calls; ++c) {
            for (std::uint32_t i = first[c]; i < first[c + 1]; ++i) visit(std::abs(residual(i, c)));
        }
    };
    constexpr double kFloor = 50'000.0;
    // When the median is at most a tenth of the floor (ranks on one clock: residuals of a few µs), the
    // limit is the floor whatever the median: one pass counts the residuals at most a tenth of it and
    // marks the calls above the floor, instead of the median's selection passes and a pass to mark.
    Flags dropCall(calls, 0);
    const auto markAbove = [&](double limit, std::size_t* atMostTenth) {
        for (std::size_t c = 0; c < calls; ++c) {
            for (std::uint32_t i = first[c]; i < first[c + 1]; ++i) {
                const double r = std::abs(residual(i, c));
                if (r > limit) dropCall[c] = 1;
                if (atMostTenth != nullptr) *atMostTenth += r <= kFloor / 10.0 ? 1 : 0;
            }
        }
    };
    std::size_t small = 0;
    markAbove(kFloor, &small);
    if (!percentileAtMost(obs.size(), 0.5, small)) {
        std::fill(dropCall.begin(), dropCall.end(), 0);
        markAbove(std::max(kFloor, 10.0 * percentileOfEach(obs.size(), 0.5, eachAbsResidual)), nullptr);
    }
    const auto dropped = static_cast<std::size_t>(std::count(dropCall.begin(), dropCall.end(), 1));
    if (dropped == 0 || dropped == matchedCalls) return 0;
    for (auto& d : dropCall) d = d == 0 ? 1 : 0;  // now: keep
    keepCalls(obs, dropCall);
    fit(obs, rankCount, ref, offset, t);
    return dropped;
}

// The calls of two ranks or more, matched by call order alone (callsByOrder), and each rank's first
// end in them (`origin`, `hasOrigin`).
Observations matchedObservations(const Trace& trace, const CollectiveKernels& kernels,
                                 std::vector<std::int64_t>& origin, Flags& hasOrigin) {
    std::size_t entries = 0;
    const std::vector<CallByOrder> calls = callsByOrder(kernels, &entries);
    Observations obs;
    obs.first.reserve(calls.size() + 1);
    obs.base.reserve(calls.size());
    obs.rank.reserve(entries);
    obs.delta.reserve(entries);
    for (const auto& call : calls) {
        const auto& perRank = kernels.channels[call.channel].perRank;
        for (std::uint32_t r = 0; r < perRank.size(); ++r) {
            if (call.index >= perRank[r].size()) continue;
            const CollectiveKernelRef& k = perRank[r][call.index];
            const std::int64_t end = trace.ranks[r].streams[k.streamIndex].events.endNs(k.eventIndex);
            if (hasOrigin[r] == 0) {
                origin[r] = end;
                hasOrigin[r] = 1;
            }
            // Offsets are measured from each rank's first end, then the origins are added back:
            // doubles hold the µs-scale differences exactly even on epoch-ns clocks.
            obs.add(static_cast<std::uint16_t>(r), end - origin[r]);
        }
        obs.endCall();
    }
    return obs;
}

}  // namespace

std::int64_t ClockEstimate::maxAbsOffsetNs() const {
    std::int64_t m = 0;
    for (const auto& r : ranks) {
        if (r.known) m = std::max(m, std::abs(r.offsetNs));
    }
    return m;
}

ClockEstimate estimateClockOffsets(const Trace& trace) {
    return estimateClockOffsets(trace, gatherCollectiveKernels(trace));
}

ClockEstimate estimateClockOffsets(const Trace& trace, const CollectiveKernels& kernels) {
    ClockEstimate out;
    const std::size_t rankCount = trace.ranks.size();
    out.ranks.resize(rankCount);
    for (std::uint32_t r = 0; r < rankCount; ++r) out.ranks[r].rankIndex = r;

    std::vector<std::int64_t> origin(rankCount, 0);
    Flags hasOrigin(rankCount, 0);
    Observations obs = matchedObservations(trace, kernels, origin, hasOrigin);
    const std::size_t matchedCalls = obs.calls();
    auto reference = std::find(hasOrigin.begin(), hasOrigin.end(), 1);
    for (auto& r : out.ranks) {
        if (hasOrigin[r.rankIndex] == 0) r.reason = "no collective shared with another rank";
    }
    if (reference == hasOrigin.end()) return out;
    const auto ref = static_cast<std::uint32_t>(reference - hasOrigin.begin());
    out.referenceRankIndex = ref;
    const Flags linked = linkedRanks(obs, rankCount, ref);
    Flags linkedCall(obs.calls());
    for (std::size_t c = 0; c < obs.calls(); ++c) linkedCall[c] = linked[obs.rank[obs.first[c]]];
    keepCalls(obs, linkedCall);

    std::vector<double> offset;
    std::vector<double> t;
    fit(obs, rankCount, ref, offset, t);
    out.callsDropped = dropOutliersAndRefit(obs, matchedCalls, rankCount, ref, offset, t);
    std::vector<double> squares(rankCount, 0);
    const Residuals residualOf = residualsOf(obs, offset, t);
    for (std::size_t c = 0; c < obs.calls(); ++c) {
        for (std::uint32_t i = obs.first[c]; i < obs.first[c + 1]; ++i) {
            const double residual = residualOf(i, c);
            squares[obs.rank[i]] += residual * residual;
            ++out.ranks[obs.rank[i]].calls;
        }
    }
    // Every call left has observations (two or more).
    out.callsUsed = obs.calls();
    for (auto& r : out.ranks) {
        if (r.calls == 0) {
            if (r.reason.empty()) r.reason = "its collectives share no call with the reference rank's group";
            continue;
        }
        r.known = true;
        // offset(rank) in the fit is relative to the rank's own first end; the correction that puts
        // it on the reference clock adds the difference of the two origins.
        r.offsetNs = std::llround(offset[r.rankIndex]) + (origin[ref] - origin[r.rankIndex]);
        r.residualNs = std::sqrt(squares[r.rankIndex] / static_cast<double>(r.calls));
    }
    out.ranks[ref].offsetNs = 0;
    return out;
}

Result<ClockSyncResult> planClockSync(const Trace& trace, const ClockSyncOptions& options) {
    return planClockSync(trace, options, gatherCollectiveKernels(trace));
}

Result<ClockSyncResult> planClockSync(const Trace& trace, const ClockSyncOptions& options,
                                      const CollectiveKernels& kernels) {
    return planClockSyncFromEstimate(trace, options, estimateClockOffsets(trace, kernels));
}

Result<ClockSyncResult> planClockSyncFromEstimate(const Trace& trace, const ClockSyncOptions& options,
                                                  ClockEstimate estimate) {
    ClockSyncResult out;
    const std::size_t n = trace.ranks.size();
    out.appliedNs.assign(n, 0);
    out.overridden.assign(n, false);
    for (const auto& o : options.overrides) {
        const auto it =
            std::find_if(trace.ranks.begin(), trace.ranks.end(), [&](const Rank& r) { return r.id == o.rank; });
        if (it == trace.ranks.end()) {
            return makeError(
                ErrorCode::InvalidArgument,
                "no rank " + std::to_string(o.rank.value) + " in the trace (" + std::to_string(n) + " ranks)",
                "--clock-offset");
        }
        const auto index = static_cast<std::size_t>(it - trace.ranks.begin());
        out.appliedNs[index] = o.offsetNs;
        out.overridden[index] = true;
    }
    if (estimate.ranks.size() != n) {
        return makeError(ErrorCode::InvalidArgument, "a clock estimate of " + std::to_string(estimate.ranks.size()) +
                                                         " ranks for a trace of " + std::to_string(n));
    }
    out.estimate = std::move(estimate);
    const std::int64_t maxOffset = out.estimate.maxAbsOffsetNs();
    out.estimateApplied = options.mode == ClockSyncMode::On ||
                          (options.mode == ClockSyncMode::Auto && maxOffset > kSharedClockToleranceNs);
    for (std::size_t r = 0; r < n; ++r) {
        const auto& e = out.estimate.ranks[r];
        if (!out.overridden[r] && out.estimateApplied && e.known) out.appliedNs[r] = e.offsetNs;
        if (!e.known && out.estimateApplied && !out.overridden[r]) {
            out.notes.push_back("rank " + std::to_string(trace.ranks[r].id.value) + ": clock offset unknown (" +
                                e.reason + "); left on its own clock");
        }
    }
    if (out.estimateApplied) {
        out.notes.push_back(
            "ranks brought onto rank " +
            std::to_string(
                trace.ranks[static_cast<std::size_t>(std::max<std::int64_t>(out.estimate.referenceRankIndex, 0))]
                    .id.value) +
            "'s clock: offsets estimated from " + std::to_string(out.estimate.callsUsed) +
            " matched collective calls (largest " + formatDurationNs(static_cast<double>(maxOffset)) + ")");
    }
    return out;
}

bool ClockSyncResult::shiftsAnyRank() const {
    return std::any_of(appliedNs.begin(), appliedNs.end(), [](std::int64_t v) { return v != 0; });
}

void applyClockSync(Trace& trace, const ClockSyncResult& plan) {
    for (std::size_t r = 0; r < trace.ranks.size() && r < plan.appliedNs.size(); ++r) {
        shiftRank(trace.ranks[r], plan.appliedNs[r]);
    }
}

Result<ClockSyncResult> synchronizeClocks(Trace& trace, const ClockSyncOptions& options) {
    auto plan = planClockSync(trace, options);
    if (plan) applyClockSync(trace, *plan);
    return plan;
}

Result<ClockOverride> parseClockOverride(std::string_view text) {
    const auto eq = text.find('=');
    ClockOverride o;
    std::int64_t rank = -1;
    if (eq == std::string_view::npos) {
        return makeError(ErrorCode::InvalidArgument, "expected RANK=NS, got '" + std::string(text) + "'",
                         "--clock-offset");
    }
    const auto r = std::from_chars(text.data(), text.data() + eq, rank);
    const auto v = std::from_chars(text.data() + eq + 1, text.data() + text.size(), o.offsetNs);
    if (r.ec != std::errc() || r.ptr != text.data() + eq || rank < 0 || rank > UINT32_MAX || v.ec != std::errc() ||
        v.ptr != text.data() + text.size() || eq + 1 == text.size()) {
        return makeError(ErrorCode::InvalidArgument, "expected RANK=NS (integers), got '" + std::string(text) + "'",
                         "--clock-offset");
    }
    // A day is far beyond any real clock difference and keeps shifted times clear of overflow.
    if (std::abs(o.offsetNs) > 86'400'000'000'000LL) {
        return makeError(ErrorCode::InvalidArgument, "offset over a day: '" + std::string(text) + "'",
                         "--clock-offset");
    }
    o.rank = RankId{static_cast<std::uint32_t>(rank)};
    return o;
}

}  // namespace tpscope::core::analysis
