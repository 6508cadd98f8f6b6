// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Clock offsets from the collectives themselves: injected offsets recovered on the real 8-rank
// param trace (read from ../shared/traces/public, skipped when absent), a rank without collectives
// reported unknown, overrides and bad input.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "core/analysis/clock_sync.h"
#include "core/io/import/trace_reader.h"
#include "core/util/statistics.h"
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

// Two ranks on one clock, 400 calls where rank 1 ends d_c after rank 0, d_c = +-`nearNs` (the first
// half) and +-`farNs` (the second), and one call 110 us apart. The fit's offset is -mean(d), each call's
// two residuals are +-(d_c - mean(d)) / 2, and that call is dropped when its residual exceeds
// max(50 us, 10 x the median absolute residual): computed here from that rule.
struct OutlierCase {
    Trace trace;
    std::size_t expectedDropped = 0;
};
OutlierCase twoRanksWithAnOutlier(std::int64_t nearNs, std::int64_t farNs) {
    constexpr int kCalls = 400;
    constexpr std::int64_t kOutlierNs = 110'000;
    test::TraceBuilder b;
    std::vector<std::int64_t> d;
    for (int c = 0; c <= kCalls; ++c) {
        const std::int64_t sign = c % 2 == 0 ? 1 : -1;
        d.push_back(c == kCalls ? kOutlierNs : sign * (c < kCalls / 2 ? nearNs : farNs));
        const std::int64_t end = 1'000'000 * std::int64_t{c + 1};
        b.collective(0, end - 20'000, end);
        b.collective(1, end - 20'000, end + d.back());
    }
    double mean = 0;
    for (const auto v : d) mean += static_cast<double>(v) / static_cast<double>(d.size());
    std::vector<double> residuals;
    for (const auto v : d) residuals.insert(residuals.end(), 2, std::abs(static_cast<double>(v) - mean) / 2);
    const double limit = std::max(50'000.0, 10.0 * percentile(residuals, 0.5));
    return {*b.build(), residuals.back() > limit ? 1u : 0u};
}

// The outlier limit's floor (50 us) holds while the median residual is at most 5 us; above, 10 x the
// median: a residual of ~55 us is dropped under the floor and kept under a median of ~6 us, whether
// every residual is near 6 us or half are near 4 us and half near 8 us (the median between them).
TEST(ClockSync, OutlierLimitIsTheFloorOrTenMediansWhicheverIsLarger) {
    const std::pair<std::int64_t, std::int64_t> cases[] = {
        {8'000, 8'000}, {12'000, 12'000}, {8'000, 16'000}, {9'900, 10'100}, {2'000, 9'800}};
    bool sawDrop = false;
    bool sawKeep = false;
    for (const auto& [nearNs, farNs] : cases) {
        SCOPED_TRACE(std::to_string(nearNs) + "/" + std::to_string(farNs));
        const OutlierCase c = twoRanksWithAnOutlier(nearNs, farNs);
        const ClockEstimate e = estimateClockOffsets(c.trace);
        ASSERT_TRUE(e.ranks[1].known);
        EXPECT_EQ(e.callsDropped, c.expectedDropped);
        EXPECT_EQ(e.callsUsed, 401u - c.expectedDropped);
        sawDrop = sawDrop || c.expectedDropped == 1;
        sawKeep = sawKeep || c.expectedDropped == 0;
    }
    EXPECT_TRUE(sawDrop);
    EXPECT_TRUE(sawKeep);
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
