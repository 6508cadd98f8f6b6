// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Clock offsets from the collectives themselves: injected offsets recovered on the real 8-rank
// param trace (read from ../shared/traces/public, skipped when absent), a rank without collectives
// reported unknown, overrides and bad input.

#include <gtest/gtest.h>

#include <cstdlib>

#include "core/analysis/clock_sync.h"
#include "core/io/import/trace_reader.h"
#include "test_support.h"
#include "trace_builder_fixtures.h"

namespace tpscope::core::analysis {
namespace {

constexpr const char* kParam = "param-dlrm_kineto-8rank";

std::shared_ptr<Trace> readParam() {
    auto t = readTrace((test::publicTraces() / kParam).string());
    EXPECT_TRUE(t.ok()) << (t ? "" : t.error().describe());
    return t ? *t : nullptr;
}

TEST(ClockSync, RecoversOffsetsInjectedIntoTheParamTraceWithin5Us) {
    TPSCOPE_REQUIRE_PUBLIC(kParam);
    auto trace = readParam();
    ASSERT_TRUE(trace);
    ASSERT_EQ(trace->ranks.size(), 8u);
    // Unrelated host clocks: from ms to tens of seconds apart, both signs.
    const std::int64_t injected[8] = {0, 1'300'000, -2'700'000, 41'000'000'000, -5'000, 250'000'000, -9'999'999'999, 7};
    for (std::size_t r = 0; r < 8; ++r) shiftRank(trace->ranks[r], injected[r]);
    const ClockEstimate e = estimateClockOffsets(*trace);
    ASSERT_EQ(e.referenceRankIndex, 0);
    EXPECT_GE(e.callsUsed, 3u);
    for (std::size_t r = 0; r < 8; ++r) {
        ASSERT_TRUE(e.ranks[r].known) << "rank " << r << ": " << e.ranks[r].reason;
        // The correction that undoes the injection, relative to rank 0.
        const std::int64_t expected = -(injected[r] - injected[0]);
        EXPECT_LE(std::llabs(e.ranks[r].offsetNs - expected), 5'000) << "rank " << r;
        EXPECT_LT(e.ranks[r].residualNs, 5'000.0) << "rank " << r;
        EXPECT_GE(e.ranks[r].calls, 3u);
    }
}

TEST(ClockSync, SharedClockOfTheParamTraceIsLeftAloneInAutoMode) {
    TPSCOPE_REQUIRE_PUBLIC(kParam);
    auto trace = readParam();
    ASSERT_TRUE(trace);
    const Trace before = *trace;
    auto r = synchronizeClocks(*trace, {});
    ASSERT_TRUE(r.ok());
    EXPECT_LE(r->estimate.maxAbsOffsetNs(), kSharedClockToleranceNs);
    EXPECT_FALSE(r->estimateApplied);
    EXPECT_TRUE(trace->sameEvents(before));
}

TEST(ClockSync, AutoModeUndoesLargeOffsetsAndRecordsThem) {
    TPSCOPE_REQUIRE_PUBLIC(kParam);
    auto trace = readParam();
    ASSERT_TRUE(trace);
    const Trace original = *trace;
    shiftRank(trace->ranks[3], 3'000'000'000);
    auto r = synchronizeClocks(*trace, {});
    ASSERT_TRUE(r.ok());
    EXPECT_TRUE(r->estimateApplied);
    // Rank 3 is back within the shared clock's few µs of where it was.
    EXPECT_LE(std::llabs(r->appliedNs[3] + 3'000'000'000), 5'000);
    const auto& ev3 = trace->ranks[3].streams.front().events;
    const auto& orig3 = original.ranks[3].streams.front().events;
    EXPECT_LE(std::llabs(ev3.startNs(0) - orig3.startNs(0)), 5'000);
    EXPECT_EQ(trace->ranks[3].clockOffsetNs, original.ranks[3].clockOffsetNs + 3'000'000'000 + r->appliedNs[3]);
}

// Two ranks with two all-reduces each, rank 1's clock 1 ms ahead, and a rank with compute only.
Trace threeRanks() {
    test::TraceBuilder b;
    b.gemm(0, 0, 10'000).allReduce(0, 10'000, 15'000, 1024);
    b.gemm(0, 20'000, 30'000).allReduce(0, 30'000, 35'000, 1024);
    b.gemm(1, 1'000'000, 1'012'000).allReduce(1, 1'012'000, 1'015'000, 1024);
    b.gemm(1, 1'020'000, 1'032'000).allReduce(1, 1'032'000, 1'035'000, 1024);
    b.gemm(2, 0, 40'000);
    return *b.build();
}

TEST(ClockSync, RankWithoutCollectivesIsReportedNotGuessed) {
    Trace t = threeRanks();
    const ClockEstimate e = estimateClockOffsets(t);
    ASSERT_EQ(e.ranks.size(), 3u);
    EXPECT_TRUE(e.ranks[1].known);
    // Ends: rank 0 at 15 µs / 35 µs, rank 1 at 1015 µs / 1035 µs: the correction is -1 ms exactly.
    EXPECT_EQ(e.ranks[1].offsetNs, -1'000'000);
    EXPECT_NEAR(e.ranks[1].residualNs, 0.0, 1.0);
    EXPECT_FALSE(e.ranks[2].known);
    EXPECT_EQ(e.ranks[2].offsetNs, 0);
    EXPECT_FALSE(e.ranks[2].reason.empty());

    auto r = synchronizeClocks(t, {});
    ASSERT_TRUE(r.ok());
    EXPECT_TRUE(r->estimateApplied);
    EXPECT_EQ(r->appliedNs[1], -1'000'000);
    EXPECT_EQ(r->appliedNs[2], 0);
    bool noted = false;
    for (const auto& n : r->notes) noted = noted || n.find("rank 2: clock offset unknown") != std::string::npos;
    EXPECT_TRUE(noted);
    EXPECT_EQ(t.ranks[1].streams.front().events.startNs(0), 0);
    EXPECT_EQ(t.ranks[1].clockOffsetNs, -1'000'000);
}

// Ranks 0 and 1 share a clock and communicator "a"; ranks 1 and 2 communicator "b", rank 2's clock
// 1 ms ahead. Each rank's ends are measured from its own first end, so in b's calls rank 1's ends lie
// `gapNs` past its origin and rank 2's at its origin: over 2.1 s the observations are kept as doubles
// instead of 32-bit differences, and the answer must not change.
Trace twoCommunicators(std::int64_t gapNs) {
    test::TraceBuilder b;
    for (int r : {0, 1}) {
        b.collective(r, 0, 10'000, 1024, CollectiveOp::AllReduce, test::kComputeStream, "a");
        b.collective(r, 20'000, 30'000, 1024, CollectiveOp::AllReduce, test::kComputeStream, "a");
    }
    for (int call = 0; call < 2; ++call) {
        const std::int64_t start = gapNs + call * 50'000;
        b.collective(1, start, start + 10'000, 1024, CollectiveOp::AllReduce, test::kComputeStream, "b");
        b.collective(2, start + 1'000'000, start + 1'010'000, 1024, CollectiveOp::AllReduce, test::kComputeStream, "b");
    }
    return *b.build();
}

TEST(ClockSync, CallsWhoseEndsLieSecondsApartGiveTheSameExactOffsets) {
    for (const std::int64_t gap : {std::int64_t{1'000'000}, std::int64_t{2'147'483'647}, std::int64_t{5'000'000'000}}) {
        const ClockEstimate e = estimateClockOffsets(twoCommunicators(gap));
        ASSERT_EQ(e.ranks.size(), 3u);
        for (const auto& r : e.ranks) ASSERT_TRUE(r.known) << "gap " << gap << " rank " << r.rankIndex << r.reason;
        EXPECT_EQ(e.ranks[0].offsetNs, 0) << "gap " << gap;
        EXPECT_EQ(e.ranks[1].offsetNs, 0) << "gap " << gap;
        EXPECT_EQ(e.ranks[2].offsetNs, -1'000'000) << "gap " << gap;
        EXPECT_EQ(e.callsUsed, 4u) << "gap " << gap;
        EXPECT_EQ(e.callsDropped, 0u) << "gap " << gap;
        for (const auto& r : e.ranks)
            EXPECT_NEAR(r.residualNs, 0.0, 1.0) << "gap " << gap;  // the fit stops under 0.5 ns
    }
}

TEST(ClockSync, OverrideWinsOverTheEstimateAndOffKeepsTheRest) {
    Trace t = threeRanks();
    ClockSyncOptions o;
    o.mode = ClockSyncMode::Off;
    o.overrides.push_back({RankId{2}, 500});
    auto r = synchronizeClocks(t, o);
    ASSERT_TRUE(r.ok());
    EXPECT_FALSE(r->estimateApplied);
    EXPECT_EQ(r->appliedNs[1], 0);
    EXPECT_EQ(r->appliedNs[2], 500);
    EXPECT_EQ(t.ranks[2].streams.front().events.startNs(0), 500);
    EXPECT_EQ(t.ranks[1].streams.front().events.startNs(0), 1'000'000);
}

// The CLI plans on a shared trace and copies it only when a rank moves: the plan must leave the
// trace alone, say whether anything moves, and applied later give what synchronizeClocks gives.
TEST(ClockSync, APlanLeavesTheTraceAloneAndAppliedEqualsSynchronize) {
    const Trace original = threeRanks();
    auto plan = planClockSync(original, {});
    ASSERT_TRUE(plan.ok());
    EXPECT_TRUE(plan->shiftsAnyRank());
    EXPECT_TRUE(original.sameEvents(threeRanks()));
    Trace planned = original;
    applyClockSync(planned, *plan);
    Trace synchronized = original;
    auto direct = synchronizeClocks(synchronized, {});
    ASSERT_TRUE(direct.ok());
    EXPECT_EQ(direct->appliedNs, plan->appliedNs);
    EXPECT_EQ(direct->notes, plan->notes);
    EXPECT_TRUE(planned.sameEvents(synchronized));
    EXPECT_FALSE(planned.sameEvents(original));
    for (std::size_t r = 0; r < planned.ranks.size(); ++r) {
        EXPECT_EQ(planned.ranks[r].clockOffsetNs, synchronized.ranks[r].clockOffsetNs) << "rank " << r;
    }

    ClockSyncOptions off;
    off.mode = ClockSyncMode::Off;
    auto still = planClockSync(original, off);
    ASSERT_TRUE(still.ok());
    EXPECT_FALSE(still->shiftsAnyRank());
}

TEST(ClockSync, OverrideOfAMissingRankIsAnError) {
    Trace t = threeRanks();
    ClockSyncOptions o;
    o.overrides.push_back({RankId{9}, 1});
    auto r = synchronizeClocks(t, o);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("no rank 9"), std::string::npos);
}

TEST(ClockSync, ParsesOverridesAndRejectsBadOnes) {
    auto ok = parseClockOverride("3=-1500000");
    ASSERT_TRUE(ok.ok());
    EXPECT_EQ(ok->rank.value, 3u);
    EXPECT_EQ(ok->offsetNs, -1'500'000);
    for (const char* bad : {"3", "=5", "3=", "x=5", "3=5ns", "-1=5", "3=100000000000000000"}) {
        EXPECT_FALSE(parseClockOverride(bad).ok()) << bad;
    }
}

}  // namespace
}  // namespace tpscope::core::analysis
