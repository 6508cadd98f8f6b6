// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/trace/range_stats.h"

#include <gtest/gtest.h>

#include <array>
#include <random>

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

// The header's definition, event by event: each event clipped to [t0, t1); one that overlaps counts,
// a zero-length one counts where it starts inside, except (as visibleRange) at the head of the
// stream, where events that end by t0 are outside.
RankRangeStats byDefinition(const Rank& rank, std::int64_t t0, std::int64_t t1) {
    RankRangeStats out;
    for (const auto& stream : rank.streams) {
        const auto& ev = stream.events;
        std::size_t i = 0;
        for (std::int64_t maxEnd = INT64_MIN; i < ev.size(); ++i) {
            maxEnd = std::max(maxEnd, ev.endNs(i));
            if (maxEnd > t0) break;
        }
        for (; i < ev.size(); ++i) {
            const std::int64_t clipped = std::min(ev.endNs(i), t1) - std::max(ev.startNs(i), t0);
            const bool inside = clipped > 0 || (ev.durNs(i) == 0 && ev.startNs(i) >= t0 && ev.startNs(i) < t1);
            if (!inside) continue;
            const auto k = static_cast<std::size_t>(ev.kind(i));
            out.kindNs[k] += std::max<std::int64_t>(0, clipped);
            ++out.kindCount[k];
        }
    }
    return out;
}

// Random streams with overlapping and zero-length events, some at the trace's first instant:
// the whole trace (each stream wholly inside, a faster path) and random sub-ranges alike.
TEST(RangeStats, MatchesTheDefinitionOnRandomStreamsWholeAndClipped) {
    std::mt19937_64 rng(5);
    std::uniform_int_distribution<int> pick(0, 99);
    for (int trial = 0; trial < 40; ++trial) {
        Trace t;
        auto& rank = t.rank(RankId{0});
        for (std::uint64_t s = 0; s < 3; ++s) rank.stream(StreamId{s}, "s");
        const NameId name = t.intern("k");
        for (auto& stream : rank.streams) {
            std::int64_t start = trial % 2 == 0 ? 0 : pick(rng);
            for (int i = 0; i < 200; ++i) {
                const std::int64_t dur = pick(rng) < 20 ? 0 : pick(rng) * 3;
                stream.events.append(
                    {start, dur, name, static_cast<EventKind>(pick(rng) % kEventKindCount), 0, kNoPayload});
                if (pick(rng) >= 15) start += pick(rng);  // else the next starts at the same instant
            }
        }
        t.finalize();
        const std::int64_t t0 = t.startNs(), t1 = t.endNs();
        const std::array<std::pair<std::int64_t, std::int64_t>, 4> windows = {
            {{t0, t1}, {t0 - 5, t1 + 5}, {t0 + pick(rng), t1 - pick(rng)}, {t0 + pick(rng), t0 + 100 + pick(rng)}}};
        for (const auto& [a, b] : windows) {
            const auto got = rankRangeStats(rank, a, b);
            const auto want = byDefinition(rank, a, b);
            EXPECT_EQ(got.kindCount, want.kindCount) << "trial " << trial << " [" << a << ", " << b << ")";
            EXPECT_EQ(got.kindNs, want.kindNs) << "trial " << trial << " [" << a << ", " << b << ")";
        }
    }
}

}  // namespace
}  // namespace tpscope::core
