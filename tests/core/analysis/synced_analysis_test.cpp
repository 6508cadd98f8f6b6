// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// The clock estimate beside the segmentation (analyzeOnOneClock) must give what syncing first and
// analysing after gives: the same shifts, the same analysis (its JSON with every call), the input
// trace untouched, and a copy only when a rank moves.

#include <gtest/gtest.h>

#include <sstream>
#include <tuple>

#include "core/analysis/analysis_json.h"
#include "core/analysis/synced_analysis.h"
#include "synthetic_trace.h"

namespace tpscope::core::analysis {
namespace {

std::string jsonOf(const Trace& trace, const RunAnalysis& a) {
    std::ostringstream out;
    JsonWriter w(out);
    writeAnalysisJson(w, trace, a, {.includeCalls = true});
    return out.str();
}

// The order the CLI used before: plan, copy and shift when a rank moves, then analyse.
struct SyncedFirst {
    ClockSyncResult sync;
    std::shared_ptr<const Trace> trace;
    RunAnalysis analysis;
};
SyncedFirst syncThenAnalyze(const std::shared_ptr<const Trace>& trace, const ClockSyncOptions& clock) {
    SyncedFirst out;
    auto plan = planClockSync(*trace, clock);
    EXPECT_TRUE(plan.ok());
    out.sync = *plan;
    out.trace = trace;
    if (plan->shiftsAnyRank()) {
        auto copy = std::make_shared<Trace>(*trace);
        applyClockSync(*copy, *plan);
        out.trace = copy;
    }
    out.analysis = analyzeTrace(*out.trace);
    return out;
}

void expectSameAsSyncingFirst(const std::shared_ptr<const Trace>& trace, const ClockSyncOptions& clock,
                              bool expectShift) {
    const Trace before = *trace;
    const SyncedFirst want = syncThenAnalyze(trace, clock);
    auto got = analyzeOnOneClock(trace, clock, {});
    ASSERT_TRUE(got.ok()) << got.error().describe();
    EXPECT_EQ(want.sync.shiftsAnyRank(), expectShift);
    EXPECT_EQ(got->sync.appliedNs, want.sync.appliedNs);
    EXPECT_EQ(got->sync.notes, want.sync.notes);
    EXPECT_EQ(got->sync.estimateApplied, want.sync.estimateApplied);
    EXPECT_EQ(got->trace == trace, !expectShift);  // a copy exactly when a rank moved
    EXPECT_TRUE(got->trace->sameEvents(*want.trace));
    EXPECT_TRUE(trace->sameEvents(before));  // the shared input is never shifted
    EXPECT_EQ(jsonOf(*got->trace, got->analysis), jsonOf(*want.trace, want.analysis));
}

// Ranks 4.. of the synthetic trace sit on a second host whose clock is off.
std::shared_ptr<const Trace> synthetic() {
    return test::makeSyntheticTrace({.ranks = 8, .steps = 3, .layers = 6});
}

TEST(SyncedAnalysis, SharedClockKeepsTheTraceAndTheEarlySegmentation) {
    auto trace = std::make_shared<Trace>(*synthetic());
    ASSERT_TRUE(synchronizeClocks(*trace, {}).ok());  // now on one clock: auto moves nothing
    expectSameAsSyncingFirst(trace, {}, /*expectShift=*/false);
}

TEST(SyncedAnalysis, MovedRanksAreShiftedOnACopyAndSegmentedAgain) {
    expectSameAsSyncingFirst(synthetic(), {}, /*expectShift=*/true);
    auto trace = std::make_shared<Trace>(*synthetic());
    // Hosts on unrelated clocks: far beyond the shared-clock tolerance, both signs.
    shiftRank(trace->ranks[2], 40'000'000);
    shiftRank(trace->ranks[5], -7'000'000'000);
    expectSameAsSyncingFirst(trace, {}, /*expectShift=*/true);

    ClockSyncOptions off;
    off.mode = ClockSyncMode::Off;
    expectSameAsSyncingFirst(trace, off, /*expectShift=*/false);

    ClockSyncOptions overridden = off;
    overridden.overrides.push_back({RankId{3}, -1'500'000});
    expectSameAsSyncingFirst(trace, overridden, /*expectShift=*/true);
}

TEST(SyncedAnalysis, OverrideOfAMissingRankIsAnError) {
    ClockSyncOptions o;
    o.overrides.push_back({RankId{99}, 5});
    auto r = analyzeOnOneClock(synthetic(), o, {});
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::InvalidArgument);
    EXPECT_NE(r.error().message.find("no rank 99"), std::string::npos);
}

void expectSameEstimate(const ClockEstimate& a, const ClockEstimate& b) {
    EXPECT_EQ(a.referenceRankIndex, b.referenceRankIndex);
    EXPECT_EQ(a.callsUsed, b.callsUsed);
    EXPECT_EQ(a.callsDropped, b.callsDropped);
    ASSERT_EQ(a.ranks.size(), b.ranks.size());
    for (std::size_t r = 0; r < a.ranks.size(); ++r) {
        const auto& x = a.ranks[r];
        const auto& y = b.ranks[r];
        // The residual bit for bit: the fit must see the same observations in the same order.
        EXPECT_EQ(std::tie(x.rankIndex, x.known, x.offsetNs, x.residualNs, x.calls, x.reason),
                  std::tie(y.rankIndex, y.known, y.offsetNs, y.residualNs, y.calls, y.reason))
            << "rank " << r;
    }
}

// The GUI's analysis with the clock estimate beside it, sharing the gathered kernels: what each
// gives alone, on any thread count.
TEST(SyncedAnalysis, AnalysisWithTheClockEstimateIsEachOfThemAlone) {
    auto skewed = std::make_shared<Trace>(*synthetic());
    shiftRank(skewed->ranks[1], 3'000'000);  // a third clock, and the trace as it is
    for (const auto& trace : {synthetic(), std::shared_ptr<const Trace>(skewed)}) {
        const RunAnalysis analysis = analyzeTrace(*trace);
        const ClockEstimate estimate = estimateClockOffsets(*trace);
        ASSERT_GT(estimate.callsUsed, 0u);
        ASSERT_NE(estimate.maxAbsOffsetNs(), 0);
        for (const unsigned threads : {1u, 2u, 0u}) {
            SCOPED_TRACE("threads " + std::to_string(threads));
            AnalysisOptions options;
            options.threads = threads;
            const auto both = analyzeWithClockEstimate(*trace, options);
            expectSameEstimate(both.estimate, estimate);
            EXPECT_EQ(jsonOf(*trace, both.analysis), jsonOf(*trace, analysis));
        }
    }
}

}  // namespace
}  // namespace tpscope::core::analysis
