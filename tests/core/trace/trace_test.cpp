// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/trace/trace.h"

#include <gtest/gtest.h>

namespace tpscope::core {
namespace {

Trace twoRankTrace() {
    Trace t;
    for (std::uint32_t r = 0; r < 2; ++r) {
        Rank& rank = t.rank(RankId{1 - r});  // created out of order on purpose
        auto& s = rank.stream(StreamId{7}, "compute");
        EventRecord e;
        e.startNs = 100 + r;
        e.durNs = 10;
        e.name = t.intern("gemm");
        e.kind = EventKind::Gemm;
        e.payload = t.intern(Payload::of(GemmPayload{1, 2, 3, Dtype::Fp16}));
        s.events.append(e);
        rank.ranges.push_back({50, 200, t.intern("step 0"), 0});
    }
    t.finalize();
    return t;
}

TEST(Trace, RanksAreKeptSortedById) {
    const Trace t = twoRankTrace();
    ASSERT_EQ(t.ranks.size(), 2u);
    EXPECT_EQ(t.ranks[0].id, RankId{0});
    EXPECT_EQ(t.ranks[1].id, RankId{1});
    EXPECT_NE(t.findRank(RankId{1}), nullptr);
    EXPECT_EQ(t.findRank(RankId{5}), nullptr);
}

TEST(Trace, SpanCoversEventsAndRanges) {
    const Trace t = twoRankTrace();
    EXPECT_EQ(t.startNs(), 50);
    EXPECT_EQ(t.endNs(), 200);
    EXPECT_EQ(t.eventCount(), 2u);
}

TEST(Trace, NamesAndPayloadsAreInterned) {
    Trace t;
    const NameId a = t.intern("ncclDevKernel_AllReduce_Sum_f16_RING_LL");
    const NameId b = t.intern("ncclDevKernel_AllReduce_Sum_f16_RING_LL");
    EXPECT_EQ(a, b);
    EXPECT_EQ(t.name(a), "ncclDevKernel_AllReduce_Sum_f16_RING_LL");
    CollectivePayload c;
    c.op = CollectiveOp::AllReduce;
    c.bytes = 16384;
    EXPECT_EQ(t.intern(Payload::of(c)), t.intern(Payload::of(c)));
    c.bytes = 32768;
    const PayloadId other = t.intern(Payload::of(c));
    EXPECT_EQ(t.payload(other).collective.bytes, 32768u);
    EXPECT_EQ(t.intern(Payload{}), kNoPayload);
}

TEST(Trace, SameEventsComparesByContentNotByIds) {
    const Trace a = twoRankTrace();
    Trace b;
    b.intern("unrelated name shifts every id");
    b.intern(Payload::of(GemmPayload{9, 9, 9, Dtype::Fp32}));
    for (std::uint32_t r = 0; r < 2; ++r) {
        Rank& rank = b.rank(RankId{r});
        auto& s = rank.stream(StreamId{7}, "compute");
        EventRecord e;
        e.startNs = 100 + (1 - r);
        e.durNs = 10;
        e.name = b.intern("gemm");
        e.kind = EventKind::Gemm;
        e.payload = b.intern(Payload::of(GemmPayload{1, 2, 3, Dtype::Fp16}));
        s.events.append(e);
        rank.ranges.push_back({50, 200, b.intern("step 0"), 0});
    }
    b.finalize();
    EXPECT_TRUE(a.sameEvents(b));
    b.ranks[0].clockOffsetNs = 5;
    EXPECT_FALSE(a.sameEvents(b));
}

TEST(Rank, VisibleRangesSkipThoseEndedBeforeT0) {
    Trace t;
    Rank& r = t.rank(RankId{0});
    r.ranges = {{0, 10, t.intern("a"), 0}, {10, 20, t.intern("b"), 0}, {20, 30, t.intern("c"), 0}};
    const auto vis = r.visibleRanges(12, 21);
    EXPECT_EQ(vis.first, 1u);
    EXPECT_EQ(vis.last, 3u);
    EXPECT_TRUE(r.visibleRanges(30, 40).empty());
}

TEST(Rank, StreamIsFoundOrCreatedOnce) {
    Rank r;
    r.stream(StreamId{13}, "nccl");
    r.stream(StreamId{13});
    ASSERT_EQ(r.streams.size(), 1u);
    EXPECT_EQ(r.streams[0].label, "nccl");
    EXPECT_EQ(r.stream(StreamId{20}).label, "stream 20");
}

}  // namespace
}  // namespace tpscope::core
