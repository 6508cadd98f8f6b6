#include "core/trace/range_stats.h"

#include <gtest/gtest.h>

namespace tpscope::core {
namespace {

Trace twoRankTrace() {
    Trace t;
    for (std::uint32_t r = 0; r < 2; ++r) {
        auto& rank = t.rank(RankId{r});
        rank.stream(StreamId{7}, "compute");
        rank.stream(StreamId{9}, "nccl");  // may reallocate: take references only after both exist
        auto& compute = rank.streams[0].events;
        auto& comm = rank.streams[1].events;
        const NameId gemm = t.intern("gemm"), ar = t.intern("allreduce");
        // rank r: GEMM [0, 100), all-reduce [100 + 10 r, 300), GEMM [300, 400) overlapping a second
        // all-reduce [350, 500) on the other stream.
        compute.append({0, 100, gemm, EventKind::Gemm, 0, kNoPayload});
        comm.append({100 + 10 * r, 200 - 10 * r, ar, EventKind::Collective, 0, kNoPayload});
        compute.append({300, 100, gemm, EventKind::Gemm, 0, kNoPayload});
        comm.append({350, 150, ar, EventKind::Collective, 0, kNoPayload});
    }
    t.finalize();
    return t;
}

TEST(RangeStats, ClipsEventsToTheRangeAndSumsPerKindPerRank) {
    const auto t = twoRankTrace();
    const auto stats = rangeStats(t, 50, 380);
    ASSERT_EQ(stats.ranks.size(), 2u);
    for (std::uint32_t r = 0; r < 2; ++r) {
        const auto& s = stats.ranks[r];
        EXPECT_EQ(s.rank, RankId{r});
        const auto gemm = static_cast<std::size_t>(EventKind::Gemm);
        const auto coll = static_cast<std::size_t>(EventKind::Collective);
        EXPECT_EQ(s.kindNs[gemm], (100 - 50) + (380 - 300));
        EXPECT_EQ(s.kindCount[gemm], 2u);
        EXPECT_EQ(s.kindNs[coll], (300 - (100 + 10 * static_cast<std::int64_t>(r))) + (380 - 350));
        EXPECT_EQ(s.kindCount[coll], 2u);
        EXPECT_EQ(s.totalCount(), 4u);
        EXPECT_EQ(s.totalNs(), s.kindNs[gemm] + s.kindNs[coll]);
    }
}

TEST(RangeStats, EventsTouchingTheRangeEdgesAreOutside) {
    const auto t = twoRankTrace();
    const auto stats = rangeStats(t, 100, 300);
    EXPECT_EQ(stats.ranks[0].kindCount[static_cast<std::size_t>(EventKind::Gemm)], 0u);
    EXPECT_EQ(stats.ranks[0].kindNs[static_cast<std::size_t>(EventKind::Collective)], 200);
}

}  // namespace
}  // namespace tpscope::core
