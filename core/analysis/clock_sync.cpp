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

struct Observation {
    std::uint32_t call = 0;
    std::uint32_t rank = 0;
    double endNs = 0;  // relative to the rank's first end, so doubles keep ns precision
};

// Ranks linked to `reference` through calls of at least two ranks (breadth-first over calls).
std::vector<bool> linkedRanks(const std::vector<std::vector<std::uint32_t>>& callRanks, std::size_t rankCount,
                              std::uint32_t reference) {
    std::vector<bool> linked(rankCount, false);
    linked[reference] = true;
    for (bool grew = true; grew;) {
        grew = false;
        for (const auto& ranks : callRanks) {
            const bool touches = std::any_of(ranks.begin(), ranks.end(), [&](std::uint32_t r) { return linked[r]; });
            if (!touches) continue;
            for (const auto r : ranks) {
                if (!linked[r]) grew = linked[r] = true;
            }
        }
    }
    return linked;
}

// Alternating least squares: T(call) and offset(rank), offset(reference) = 0. Returns the
// per-observation residuals.
std::vector<double> fit(const std::vector<Observation>& obs, std::size_t calls, std::size_t ranks,
                        std::uint32_t reference, std::vector<double>& offset) {
    std::vector<double> t(calls, 0), sum(std::max(calls, ranks), 0);
    std::vector<std::size_t> count(std::max(calls, ranks), 0);
    offset.assign(ranks, 0);
    for (int iteration = 0; iteration < 500; ++iteration) {
        std::fill(sum.begin(), sum.end(), 0);
        std::fill(count.begin(), count.end(), 0);
        for (const auto& o : obs) {
            sum[o.call] += o.endNs + offset[o.rank];
            ++count[o.call];
        }
        for (std::size_t c = 0; c < calls; ++c) t[c] = count[c] > 0 ? sum[c] / static_cast<double>(count[c]) : 0;
        std::fill(sum.begin(), sum.end(), 0);
        std::fill(count.begin(), count.end(), 0);
        for (const auto& o : obs) {
            sum[o.rank] += t[o.call] - o.endNs;
            ++count[o.rank];
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
    std::vector<double> residual;
    residual.reserve(obs.size());
    for (const auto& o : obs) residual.push_back(o.endNs + offset[o.rank] - t[o.call]);
    return residual;
}

// One mismatched call (a rank that ran an extra collective) would pull every offset: drops the
// calls with a residual above max(50 us, 10 x the median absolute residual) and refits once, unless
// that would drop none or every call. Returns the calls dropped.
std::size_t dropOutliersAndRefit(std::vector<Observation>& obs, std::size_t calls, std::size_t rankCount,
                                 std::uint32_t ref, std::vector<double>& offset, std::vector<double>& residual) {
    if (residual.empty()) return 0;
    std::vector<double> absResidual;
    absResidual.reserve(residual.size());
    for (const double v : residual) absResidual.push_back(std::abs(v));
    const double limit = std::max(50'000.0, 10.0 * median(absResidual));
    std::vector<bool> dropCall(calls, false);
    for (std::size_t i = 0; i < obs.size(); ++i) {
        if (absResidual[i] > limit) dropCall[obs[i].call] = true;
    }
    const auto dropped = static_cast<std::size_t>(std::count(dropCall.begin(), dropCall.end(), true));
    if (dropped == 0 || dropped == calls) return 0;
    std::erase_if(obs, [&](const Observation& o) { return dropCall[o.call]; });
    residual = fit(obs, calls, rankCount, ref, offset);
    return dropped;
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
    ClockEstimate out;
    const std::size_t rankCount = trace.ranks.size();
    out.ranks.resize(rankCount);
    for (std::uint32_t r = 0; r < rankCount; ++r) out.ranks[r].rankIndex = r;
    const CollectiveMatching m = matchCollectives(trace, Segmentation{}, MatchingOptions{.toleranceNs = -1});

    std::vector<std::int64_t> origin(rankCount, 0);
    std::vector<bool> hasOrigin(rankCount, false);
    std::vector<std::vector<std::uint32_t>> callRanks;
    std::vector<std::vector<std::int64_t>> callEnds;
    for (const auto& call : m.calls) {
        if (call.participantCount < 2) continue;
        auto& ranks = callRanks.emplace_back();
        auto& ends = callEnds.emplace_back();
        for (std::uint32_t i = 0; i < call.participantCount; ++i) {
            const auto& p = m.participants[call.firstParticipant + i];
            ranks.push_back(p.rankIndex);
            const std::int64_t end = participantEndNs(trace, p);
            ends.push_back(end);
            if (!hasOrigin[p.rankIndex]) {
                origin[p.rankIndex] = end;
                hasOrigin[p.rankIndex] = true;
            }
        }
    }
    auto reference = std::find(hasOrigin.begin(), hasOrigin.end(), true);
    for (auto& r : out.ranks) {
        if (!hasOrigin[r.rankIndex]) r.reason = "no collective shared with another rank";
    }
    if (reference == hasOrigin.end()) return out;
    const auto ref = static_cast<std::uint32_t>(reference - hasOrigin.begin());
    out.referenceRankIndex = ref;
    const std::vector<bool> linked = linkedRanks(callRanks, rankCount, ref);

    std::vector<Observation> obs;
    for (std::uint32_t c = 0; c < callRanks.size(); ++c) {
        if (!linked[callRanks[c].front()]) continue;
        for (std::size_t i = 0; i < callRanks[c].size(); ++i) {
            const std::uint32_t r = callRanks[c][i];
            // Offsets are measured from each rank's first end, then the origins are added back:
            // doubles hold the µs-scale differences exactly even on epoch-ns clocks.
            obs.push_back({c, r, static_cast<double>(callEnds[c][i] - origin[r])});
        }
    }
    std::vector<double> offset;
    std::vector<double> residual = fit(obs, callRanks.size(), rankCount, ref, offset);
    out.callsDropped = dropOutliersAndRefit(obs, callRanks.size(), rankCount, ref, offset, residual);
    std::vector<double> squares(rankCount, 0);
    std::vector<bool> usedCall(callRanks.size(), false);
    for (std::size_t i = 0; i < obs.size(); ++i) {
        squares[obs[i].rank] += residual[i] * residual[i];
        ++out.ranks[obs[i].rank].calls;
        usedCall[obs[i].call] = true;
    }
    out.callsUsed = static_cast<std::size_t>(std::count(usedCall.begin(), usedCall.end(), true));
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
    out.estimate = estimateClockOffsets(trace);
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
