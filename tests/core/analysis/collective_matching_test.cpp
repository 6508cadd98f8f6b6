// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "core/analysis/collective_matching.h"
#include "trace_builder_fixtures.h"

namespace tpscope::core::analysis {
namespace {

using test::TraceBuilder;

CollectiveMatching match(const Trace& trace, MatchingOptions o = {}) {
    return matchCollectives(trace, segmentLayers(trace), o);
}

std::int64_t waitOf(const CollectiveMatching& m, const CollectiveCall& c, std::uint32_t rankIndex) {
    for (std::uint32_t i = 0; i < c.participantCount; ++i) {
        const auto& p = m.participants[c.firstParticipant + i];
        if (p.rankIndex == rankIndex) return m.waitNs(c.firstParticipant + i);
    }
    return -1;
}

TEST(CollectiveMatching, LateRankMakesTheOthersWaitAndRunsAShortKernelItself) {
    const test::DecodeFixture f{
        .ranks = 4, .steps = 2, .layers = 3, .computeNs = 1000, .arNs = 200, .lateRank = 2, .lateByNs = 300};
    const auto trace = test::makeDecodeTrace(f);
    const auto m = match(*trace);
    ASSERT_EQ(m.calls.size(), static_cast<std::size_t>(f.steps * f.layers * 2));
    EXPECT_EQ(m.incompleteCalls, 0u);
    for (const auto& c : m.calls) {
        EXPECT_EQ(c.participantCount, 4u);
        EXPECT_TRUE(c.complete());
        EXPECT_EQ(c.lastRankIndex, 2u);
        EXPECT_EQ(c.transferNs(), f.arNs);
        EXPECT_EQ(c.lastStartNs - c.firstStartNs, f.lateByNs);
        for (std::uint32_t r = 0; r < 4; ++r) EXPECT_EQ(waitOf(m, c, r), r == 2 ? 0 : f.lateByNs);
        EXPECT_GE(c.layer, 0);
    }
    EXPECT_EQ(m.ranks[2].lastArrivals, m.calls.size());
    EXPECT_EQ(m.ranks[0].lastArrivals, 0u);
    // The late rank's kernels are short (transfer only), the others' long (wait + transfer).
    EXPECT_EQ(m.ranks[2].kernelNs, static_cast<std::int64_t>(m.calls.size()) * f.arNs);
    EXPECT_EQ(m.ranks[0].kernelNs, static_cast<std::int64_t>(m.calls.size()) * (f.arNs + f.lateByNs));
    EXPECT_EQ(m.ranks[0].waitNs, static_cast<std::int64_t>(m.calls.size()) * f.lateByNs);
}

TEST(CollectiveMatching, TransferRunsFromTheLastArrivalToTheMedianEnd) {
    TraceBuilder b;
    b.allReduce(0, 0, 100).allReduce(1, 50, 104).allReduce(2, 90, 130);
    const auto m = match(*b.build());
    ASSERT_EQ(m.calls.size(), 1u);
    const auto& c = m.calls[0];
    EXPECT_EQ(c.lastStartNs, 90);
    EXPECT_EQ(c.medianEndNs, 104);
    EXPECT_EQ(c.transferNs(), 104 - 90);
    EXPECT_EQ(waitOf(m, c, 0), 90);
    EXPECT_EQ(waitOf(m, c, 1), 40);
    EXPECT_EQ(waitOf(m, c, 2), 0);
}

TEST(CollectiveMatching, MedianOfAnEvenCountIsTheMeanOfTheMiddleEnds) {
    TraceBuilder b;
    b.allReduce(0, 0, 100).allReduce(1, 10, 110).allReduce(2, 20, 120).allReduce(3, 30, 200);
    const auto m = match(*b.build());
    ASSERT_EQ(m.calls.size(), 1u);
    EXPECT_EQ(m.calls[0].medianEndNs, 115);
    EXPECT_EQ(m.calls[0].transferNs(), 115 - 30);
}

TEST(CollectiveMatching, BandwidthFollowsTheNcclTestsConvention) {
    TraceBuilder b;
    for (int r = 0; r < 4; ++r) b.allReduce(r, 0, 200, 16384);
    const auto m = match(*b.build());
    ASSERT_EQ(m.calls.size(), 1u);
    const double algbw = 16384.0 / 200e-9;
    EXPECT_DOUBLE_EQ(algBandwidth(m.calls[0]), algbw);
    EXPECT_DOUBLE_EQ(busBandwidth(m.calls[0]), algbw * 2.0 * 3.0 / 4.0);
    EXPECT_DOUBLE_EQ(busBandwidthFactor(CollectiveOp::AllGather, 8), 7.0 / 8.0);
    EXPECT_DOUBLE_EQ(busBandwidthFactor(CollectiveOp::Broadcast, 8), 1.0);
    EXPECT_TRUE(std::isnan(busBandwidthFactor(CollectiveOp::Unknown, 8)));
}

TEST(CollectiveMatching, UnknownBytesGiveNoBandwidth) {
    TraceBuilder b;
    b.allReduce(0, 0, 200).allReduce(1, 0, 200);
    const auto m = match(*b.build());
    EXPECT_TRUE(std::isnan(algBandwidth(m.calls[0])));
}

TEST(CollectiveMatching, ExtraCallOnOneRankIsReportedAndDoesNotShiftLaterMatches) {
    // Calls tens of microseconds apart, as in a decode step; the default tolerance is 2 us.
    TraceBuilder b;
    for (int r = 0; r < 3; ++r) {
        b.allReduce(r, 10'000 + r * 1000, 20'000);
        b.allReduce(r, 100'000 + r * 1000, 110'000);
    }
    b.allReduce(1, 50'000, 52'000);  // rank 1 only, between the two real calls
    const auto m = match(*b.build());
    ASSERT_EQ(m.calls.size(), 3u);
    EXPECT_EQ(m.incompleteCalls, 1u);
    EXPECT_EQ(m.ranks[1].extraKernels, 1u);
    EXPECT_EQ(m.ranks[0].extraKernels, 0u);
    EXPECT_TRUE(m.calls[0].complete());
    EXPECT_FALSE(m.calls[1].complete());
    ASSERT_EQ(m.calls[1].participantCount, 1u);
    EXPECT_EQ(m.calls[1].lastStartNs, 50'000);
    EXPECT_EQ(m.participants[m.calls[1].firstParticipant].rankIndex, 1u);
    EXPECT_TRUE(m.calls[2].complete());
    EXPECT_EQ(m.calls[2].lastStartNs, 102'000);
    EXPECT_EQ(waitOf(m, m.calls[2], 0), 2000);
    EXPECT_EQ(waitOf(m, m.calls[2], 1), 1000);
    ASSERT_FALSE(m.notes.empty());
    EXPECT_NE(m.notes[0].find("rank 1: 1"), std::string::npos);
}

TEST(CollectiveMatching, CallMissingOnOneRankIsMatchedAmongTheOthers) {
    TraceBuilder b;
    for (int r = 0; r < 3; ++r) b.allReduce(r, 100'000 + r * 1000, 110'000);
    b.allReduce(0, 10'000, 20'000).allReduce(2, 12'000, 20'000);  // rank 1 skipped this call
    const auto m = match(*b.build());
    ASSERT_EQ(m.calls.size(), 2u);
    EXPECT_EQ(m.calls[0].participantCount, 2u);
    EXPECT_FALSE(m.calls[0].complete());
    EXPECT_EQ(waitOf(m, m.calls[0], 0), 2000);
    EXPECT_EQ(waitOf(m, m.calls[0], 1), -1);
    EXPECT_EQ(m.ranks[0].extraKernels, 1u);
    EXPECT_EQ(m.ranks[2].extraKernels, 1u);
    EXPECT_TRUE(m.calls[1].complete());
}

TEST(CollectiveMatching, ExtraCallAtTheEndIsIncomplete) {
    TraceBuilder b;
    b.allReduce(0, 0, 10'000).allReduce(1, 0, 10'000).allReduce(1, 50'000, 60'000);
    const auto m = match(*b.build());
    ASSERT_EQ(m.calls.size(), 2u);
    EXPECT_EQ(m.incompleteCalls, 1u);
}

TEST(CollectiveMatching, NegativeToleranceTrustsCallOrderAlone) {
    // Rank 1's clock runs 10 us behind: its kernel "ends" before rank 0's starts.
    TraceBuilder b;
    b.allReduce(0, 20'000, 20'500).allReduce(1, 10'000, 10'400);
    const auto timeChecked = match(*b.build());
    EXPECT_EQ(timeChecked.calls.size(), 2u);
    const auto orderOnly = match(*b.build(), MatchingOptions{.toleranceNs = -1});
    ASSERT_EQ(orderOnly.calls.size(), 1u);
    EXPECT_TRUE(orderOnly.calls[0].complete());
    // Wait never exceeds the rank's own kernel time.
    EXPECT_EQ(waitOf(orderOnly, orderOnly.calls[0], 1), 400);
}

TEST(CollectiveMatching, CommunicatorsAreMatchedSeparately) {
    TraceBuilder b;
    // Two TP groups of two ranks, each with its own communicator, same call times.
    b.collective(0, 0, 100, 0, CollectiveOp::AllReduce, test::kComputeStream, "tp0");
    b.collective(1, 30, 100, 0, CollectiveOp::AllReduce, test::kComputeStream, "tp0");
    b.collective(2, 0, 100, 0, CollectiveOp::AllReduce, test::kComputeStream, "tp1");
    b.collective(3, 60, 100, 0, CollectiveOp::AllReduce, test::kComputeStream, "tp1");
    const auto m = match(*b.build());
    ASSERT_EQ(m.calls.size(), 2u);
    EXPECT_EQ(m.incompleteCalls, 0u);
    EXPECT_EQ(m.calls[0].participantCount, 2u);
    EXPECT_EQ(m.calls[0].lastStartNs, 30);
    EXPECT_EQ(m.calls[1].lastStartNs, 60);
}

TEST(CollectiveMatching, CommunicatorLargerThanTheTraceIsReported) {
    TraceBuilder b;
    b.collective(0, 0, 100, 0, CollectiveOp::AllReduce, test::kComputeStream, "tp", 8);
    b.collective(1, 0, 100, 0, CollectiveOp::AllReduce, test::kComputeStream, "tp", 8);
    const auto m = match(*b.build());
    ASSERT_EQ(m.notes.size(), 1u);
    EXPECT_NE(m.notes[0].find("has 8 ranks but the trace holds 2"), std::string::npos);
}

TEST(CollectiveMatching, SingleRankHasNoWaitAndSaysSo) {
    TraceBuilder b;
    b.gemm(0, 0, 100).allReduce(0, 100, 150);
    const auto m = match(*b.build());
    ASSERT_EQ(m.calls.size(), 1u);
    EXPECT_TRUE(m.calls[0].complete());
    EXPECT_EQ(m.calls[0].transferNs(), 50);
    EXPECT_EQ(m.waitNs(0), 0);
    ASSERT_EQ(m.notes.size(), 1u);
    EXPECT_NE(m.notes[0].find("single rank"), std::string::npos);
}

TEST(CollectiveMatching, TraceWithoutCollectivesHasNoCalls) {
    TraceBuilder b;
    b.gemm(0, 0, 100).gemm(1, 0, 100);
    const auto m = match(*b.build());
    EXPECT_TRUE(m.calls.empty());
    EXPECT_TRUE(m.notes.empty());
}

// A rank with `streams` streams (ids 0..streams-1) and one all-reduce [startNs, endNs) on each of
// `onStreams`.
void addCollectives(Trace& trace, std::uint32_t rankId, std::uint32_t streams, std::vector<std::uint32_t> onStreams,
                    std::int64_t startNs, std::int64_t endNs) {
    auto& rank = trace.rank(RankId{rankId});
    rank.streams.resize(streams);
    for (std::uint32_t s = 0; s < streams; ++s) rank.streams[s].id = StreamId{s};
    const NameId name = trace.intern("ncclDevKernel_AllReduce_Sum_f16_RING_LL");
    for (const std::uint32_t s : onStreams) {
        rank.streams[s].events.append({startNs, endNs - startNs, name, EventKind::Collective, 0, kNoPayload});
    }
}

bool hasNoteWith(const CollectiveMatching& m, const std::string& words) {
    return std::any_of(m.notes.begin(), m.notes.end(),
                       [&](const std::string& n) { return n.find(words) != std::string::npos; });
}

// Two ranks' one call, one more kernel left out (a rank or stream index past 16 bits) and named in a
// note: checks that and returns the call, or nullptr when there is not exactly one call of two.
const CollectiveCall* oneCallOfTwoWithOneKernelLeftOut(const CollectiveMatching& m) {
    EXPECT_EQ(m.unmatchedKernels, 1u);
    EXPECT_TRUE(hasNoteWith(
        m, "1 collective kernel(s) on a rank or stream index above " + std::to_string(kMaxParticipantIndex)));
    EXPECT_EQ(m.calls.size(), 1u);
    return m.calls.size() == 1 && m.calls[0].participantCount == 2 ? &m.calls[0] : nullptr;
}

// Participants hold 16-bit stream indices: the largest one is matched, the next is left out and named.
TEST(CollectiveMatching, KernelsOnAStreamIndexPastSixteenBitsAreLeftOutAndNamed) {
    const std::uint32_t last = kMaxParticipantIndex;
    auto trace = std::make_shared<Trace>();
    addCollectives(*trace, 0, last + 1, {last}, 0, 100);
    addCollectives(*trace, 1, last + 2, {last, last + 1}, 10, 120);
    trace->finalize();
    const auto m = match(*trace);
    const CollectiveCall* call = oneCallOfTwoWithOneKernelLeftOut(m);
    ASSERT_NE(call, nullptr);
    const auto& c = *call;
    EXPECT_TRUE(c.complete());
    for (std::uint32_t i = 0; i < 2; ++i) {
        const auto& p = m.participants[c.firstParticipant + i];
        EXPECT_EQ(p.streamIndex, last);
        EXPECT_EQ(p.eventIndex, 0u);
        EXPECT_EQ(participantStartNs(*trace, p), p.rankIndex == 0 ? 0 : 10);
        EXPECT_EQ(m.waitNs(c.firstParticipant + i), c.lastStartNs - participantStartNs(*trace, p));
    }
    EXPECT_EQ(waitOf(m, c, 0), 10);
    EXPECT_EQ(waitOf(m, c, 1), 0);
    EXPECT_EQ(m.ranks[1].kernels, 1u);  // the kernel left out is not one of its matched kernels
}

// The same for rank indices: rank index 65,535 joins the call, rank index 65,536 does not.
TEST(CollectiveMatching, KernelsOfARankIndexPastSixteenBitsAreLeftOutAndNamed) {
    const std::uint32_t last = kMaxParticipantIndex;
    auto trace = std::make_shared<Trace>();
    trace->ranks.resize(last + 2);
    for (std::uint32_t r = 0; r < trace->ranks.size(); ++r) trace->ranks[r].id = RankId{r};
    addCollectives(*trace, 0, 1, {0}, 0, 100);
    addCollectives(*trace, last, 2, {1}, 40, 130);
    addCollectives(*trace, last + 1, 1, {0}, 50, 140);
    trace->finalize();
    const auto m = match(*trace);
    const CollectiveCall* call = oneCallOfTwoWithOneKernelLeftOut(m);
    ASSERT_NE(call, nullptr);
    const auto& c = *call;
    EXPECT_EQ(c.lastRankIndex, last);
    EXPECT_EQ(c.lastStartNs, 40);
    EXPECT_EQ(waitOf(m, c, 0), 40);
    EXPECT_EQ(waitOf(m, c, last), 0);
    const auto& p = m.participants[c.firstParticipant + 1];
    EXPECT_EQ(p.rankIndex, last);
    EXPECT_EQ(p.streamIndex, 1u);
    EXPECT_EQ(participantEndNs(*trace, p), 130);
    EXPECT_EQ(m.ranks[last + 1].kernels, 0u);
}

// Waits of 2^31 - 1 ns (2.1 s) or more do not fit a participant's 32 bits: kept in the side table,
// read back exactly; the longest that fits stays in the participant.
TEST(CollectiveMatching, WaitsOfTwoPointOneSecondsOrMoreAreKeptExactlyInTheSideTable) {
    constexpr std::int64_t kSecond = 1'000'000'000;
    const std::int64_t lateBy[] = {std::int64_t{kLongWait} - 1, kLongWait, 3 * kSecond + 7, 40};
    TraceBuilder b;
    std::int64_t t = 0;
    for (const std::int64_t late : lateBy) {
        b.allReduce(0, t, t + late + 5 * kSecond);  // rank 0 arrives first and waits `late`
        b.allReduce(1, t + late, t + late + 5 * kSecond + 10);
        t += late + 10 * kSecond;
    }
    const auto trace = b.build();
    const auto m = match(*trace);
    ASSERT_EQ(m.calls.size(), 4u);
    std::vector<LongWait> longWaits;
    for (std::size_t c = 0; c < 4; ++c) {
        EXPECT_EQ(waitOf(m, m.calls[c], 0), lateBy[c]) << "call " << c;
        EXPECT_EQ(waitOf(m, m.calls[c], 1), 0) << "call " << c;
        for (std::uint32_t i = 0; i < 2; ++i) {
            const std::uint32_t at = m.calls[c].firstParticipant + i;
            const std::int64_t wait = m.waitNs(at);
            EXPECT_EQ(m.participants[at].narrowWaitNs, wait < kLongWait ? wait : kLongWait) << "call " << c;
            if (wait >= kLongWait) longWaits.push_back({at, wait});
        }
    }
    std::sort(longWaits.begin(), longWaits.end(),
              [](const LongWait& x, const LongWait& y) { return x.participant < y.participant; });
    ASSERT_EQ(longWaits.size(), 2u);
    EXPECT_EQ(m.longWaits, longWaits);
    EXPECT_EQ(m.ranks[0].waitNs, lateBy[0] + lateBy[1] + lateBy[2] + lateBy[3]);
}

// The transfer time is derived (median end - last arrival), clamped at 0: two of three ranks ended
// (within the time check's tolerance) before the third started.
TEST(CollectiveMatching, TransferIsTheMedianEndAfterTheLastArrivalAndNeverNegative) {
    TraceBuilder b;
    b.allReduce(0, 0, 100, 4096).allReduce(1, 0, 100, 4096).allReduce(2, 1000, 5000, 4096);
    b.allReduce(0, 10'000, 10'300, 4096).allReduce(1, 10'050, 10'400, 4096).allReduce(2, 10'100, 10'500, 4096);
    const auto m = match(*b.build());
    ASSERT_EQ(m.calls.size(), 2u);
    EXPECT_EQ(m.calls[0].participantCount, 3u);
    EXPECT_EQ(m.calls[0].medianEndNs, 100);
    EXPECT_EQ(m.calls[0].lastStartNs, 1000);
    EXPECT_EQ(m.calls[0].transferNs(), 0);
    EXPECT_TRUE(std::isnan(algBandwidth(m.calls[0])));
    EXPECT_EQ(m.calls[1].transferNs(), 10'400 - 10'100);
}

TEST(CollectiveMatching, ParticipantsAreTwelveBytes) {
    // 20 M participants at 100 M events: 240 MB at 12 bytes, 320 MB at the former 16, 480 MB at 24.
    EXPECT_EQ(sizeof(CallParticipant), 12u);
    EXPECT_EQ(kMaxParticipantIndex, std::numeric_limits<decltype(CallParticipant::rankIndex)>::max());
    EXPECT_EQ(kMaxParticipantIndex, std::numeric_limits<decltype(CallParticipant::streamIndex)>::max());
}

}  // namespace
}  // namespace tpscope::core::analysis
