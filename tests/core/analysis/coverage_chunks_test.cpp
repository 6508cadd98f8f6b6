// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// The breakdown's coverage lists built one chunk of time at a time (coverage_chunks.h): each chunk's
// lists must be the whole union clipped to the chunk, the chunks must hold their windows, and the
// breakdown must not depend on where the chunks are cut.

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>

#include "breakdown_fixtures.h"
#include "core/analysis/coverage_chunks.h"
#include "core/analysis/layer_breakdown.h"
#include "trace_builder_fixtures.h"

namespace tpscope::core::analysis {
namespace {

using test::expectSameBreakdown;
using test::TraceBuilder;

constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();

// The definition: the union of every interval, then cut to [from, to) (empty pieces dropped).
std::vector<Interval> clippedUnion(std::vector<Interval> all, std::int64_t from, std::int64_t to) {
    std::sort(all.begin(), all.end(), [](const Interval& a, const Interval& b) { return a.startNs < b.startNs; });
    std::vector<Interval> out;
    for (const Interval& iv : unionOfSorted(all)) {
        const Interval cut{std::max(iv.startNs, from), std::min(iv.endNs, to)};
        if (cut.endNs > cut.startNs) out.push_back(cut);
    }
    return out;
}

// Random kernels on two streams of rank 0, some long enough to cross many chunks, some empty.
struct RandomRank {
    std::shared_ptr<const Trace> trace;
    std::vector<Interval> compute;
    std::vector<Interval> comm;
};

RandomRank randomRank(std::uint32_t seed, int kernels) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> startDist(0, 20'000);
    std::uniform_int_distribution<int> lenDist(0, 60);
    std::uniform_int_distribution<int> pick(0, 99);
    std::bernoulli_distribution coin;
    TraceBuilder b;
    RandomRank out;
    for (int i = 0; i < kernels; ++i) {
        const std::int64_t s = startDist(rng);
        const int p = pick(rng);
        const std::int64_t e = s + (p < 3 ? 4'000 + 10 * lenDist(rng) : lenDist(rng));  // 3 %: long
        const bool comm = p % 4 == 0;
        const auto stream = coin(rng) ? test::kNcclStream : test::kComputeStream;
        if (comm) {
            b.allReduce(0, s, e, 0, stream);
            out.comm.push_back({s, e});
        } else {
            b.gemm(0, s, e, stream);
            out.compute.push_back({s, e});
        }
    }
    out.trace = b.build();
    return out;
}

// Every collective kernel of rank 0 as a participant with a wait of its index mod 7 (ns), stream by
// stream.
std::vector<CallParticipant> participantsOf(const Trace& trace) {
    std::vector<CallParticipant> out;
    const auto& rank = trace.ranks[0];
    for (std::size_t s = 0; s < rank.streams.size(); ++s) {
        const auto& ev = rank.streams[s].events;
        for (std::size_t i = 0; i < ev.size(); ++i) {
            if (ev.kind(i) != EventKind::Collective) continue;
            out.push_back({0, static_cast<std::uint16_t>(s), static_cast<std::uint32_t>(i),
                           static_cast<std::int32_t>(out.size() % 7)});
        }
    }
    return out;
}

std::vector<Interval> transfersOf(const Trace& trace, std::span<const CallParticipant> participants) {
    std::vector<Interval> out;
    for (const auto& p : participants) {
        const auto& ev = trace.ranks[0].streams[p.streamIndex].events;
        out.push_back({ev.startNs(p.eventIndex) + p.narrowWaitNs, ev.endNs(p.eventIndex)});  // all narrow here
    }
    return out;
}

void expectChunksAreTheClippedUnion(const RandomRank& r, std::span<const CallParticipant> participants,
                                    std::span<const std::uint32_t> mine, std::span<const std::int64_t> cuts) {
    ChunkedCoverage coverage(r.trace->ranks[0], participants, {}, mine);
    std::vector<CallParticipant> minePs;
    for (const std::uint32_t i : mine) minePs.push_back(participants[i]);
    const auto transfers = transfersOf(*r.trace, minePs);
    std::int64_t from = kMin;
    for (std::size_t k = 0; k <= cuts.size(); ++k) {
        const std::int64_t to = k < cuts.size() ? cuts[k] : kMax;
        coverage.cover(from, to);
        const auto lists = coverage.lists();
        const auto expectList = [&](std::span<const Interval> got, const std::vector<Interval>& all, const char* what) {
            const auto want = clippedUnion(all, from, to);
            EXPECT_TRUE(std::equal(got.begin(), got.end(), want.begin(), want.end()))
                << what << " of chunk " << k << " [" << from << ", " << to << "): " << got.size() << " intervals, "
                << want.size() << " expected";
        };
        expectList(lists[0], r.compute, "compute");
        expectList(lists[1], r.comm, "comm");
        expectList(lists[2], transfers, "transfer");
        from = to;
    }
}

TEST(CoverageChunks, EachChunkHoldsTheWholeUnionClippedToIt) {
    for (std::uint32_t seed = 1; seed <= 6; ++seed) {
        const RandomRank r = randomRank(seed, 400);
        ASSERT_EQ(r.trace->ranks[0].streams.size(), 2u);
        const auto participants = participantsOf(*r.trace);
        // In stream order the transfers of two streams are out of start order: sorted once.
        std::vector<std::uint32_t> mine(participants.size());
        for (std::uint32_t i = 0; i < mine.size(); ++i) mine[i] = i;
        const auto transfers = transfersOf(*r.trace, participants);
        ASSERT_FALSE(std::is_sorted(transfers.begin(), transfers.end(),
                                    [](const Interval& a, const Interval& b) { return a.startNs < b.startNs; }));
        // In start order they are read in place.
        std::vector<std::uint32_t> inOrder = mine;
        std::stable_sort(inOrder.begin(), inOrder.end(),
                         [&](std::uint32_t a, std::uint32_t b) { return transfers[a].startNs < transfers[b].startNs; });
        std::mt19937 rng(seed);
        std::uniform_int_distribution<int> cutDist(-100, 20'200);
        std::vector<std::int64_t> cuts(1 + seed * 7);
        for (auto& c : cuts) c = cutDist(rng);
        cuts.push_back(cuts.front());  // an empty chunk
        std::sort(cuts.begin(), cuts.end());
        SCOPED_TRACE("seed " + std::to_string(seed));
        expectChunksAreTheClippedUnion(r, participants, mine, cuts);
        expectChunksAreTheClippedUnion(r, participants, inOrder, cuts);
        expectChunksAreTheClippedUnion(r, participants, inOrder, {});  // one chunk: the whole lists
        // Only some of the kernels matched: the others are not transfers.
        std::vector<std::uint32_t> some;
        for (const std::uint32_t i : inOrder) {
            if (i % 3 != 0) some.push_back(i);
        }
        expectChunksAreTheClippedUnion(r, participants, some, cuts);
    }
}

TEST(CoverageChunks, ChunksMayNotGoBackInTime) {
    const RandomRank r = randomRank(3, 20);
    ChunkedCoverage coverage(r.trace->ranks[0], {}, {}, {});
    coverage.cover(kMin, 5'000);
    coverage.cover(6'000, 7'000);  // a gap is allowed: kernels before 6000 add only their reach
    EXPECT_THROW(coverage.cover(6'500, 9'000), std::logic_error);
}

TEST(CoverageChunks, KernelsBeforeASkippedStretchStillReachIntoTheChunk) {
    TraceBuilder b;
    b.gemm(0, 0, 10'000).gemm(0, 100, 200).gemm(0, 12'000, 12'500);
    const auto trace = b.build();
    ChunkedCoverage coverage(trace->ranks[0], {}, {}, {});
    coverage.cover(kMin, 50);
    EXPECT_EQ(std::vector<Interval>(coverage.lists()[0].begin(), coverage.lists()[0].end()),
              (std::vector<Interval>{{0, 50}}));
    coverage.cover(9'000, 13'000);  // [50, 9000) never asked for
    EXPECT_EQ(std::vector<Interval>(coverage.lists()[0].begin(), coverage.lists()[0].end()),
              (std::vector<Interval>{{9'000, 10'000}, {12'000, 12'500}}));
}

// The definition of a chunk plan: every window that starts in a chunk ends in it, and every chunk
// but the last holds at least `least` windows.
void expectPlanHoldsItsWindows(std::span<const StepWindow> steps, std::span<const LayerWindow> layers,
                               std::size_t least) {
    const auto plan = planChunks(steps, LayerWindows(layers), least);
    ASSERT_FALSE(plan.empty());
    EXPECT_EQ(plan.back(), (CoverageChunk{kMax, layers.size(), steps.size()}));
    std::int64_t from = kMin;
    std::size_t layer = 0;
    std::size_t step = 0;
    for (std::size_t k = 0; k < plan.size(); ++k) {
        const auto& c = plan[k];
        EXPECT_LT(from, c.endNs);
        ASSERT_LE(layer, c.layerEnd);
        ASSERT_LE(step, c.stepEnd);
        if (k + 1 < plan.size()) {
            EXPECT_GE(c.layerEnd - layer + c.stepEnd - step, least) << "chunk " << k;
        }
        for (; layer < c.layerEnd; ++layer) {
            EXPECT_GE(layers[layer].startNs, from);
            EXPECT_LE(std::max(layers[layer].startNs, layers[layer].endNs), c.endNs);
        }
        for (; step < c.stepEnd; ++step) {
            EXPECT_GE(steps[step].startNs, from);
            EXPECT_LE(std::max(steps[step].startNs, steps[step].endNs), c.endNs);
        }
        from = c.endNs;
    }
}

TEST(CoverageChunks, PlansCutOnlyWhereNoWindowCrosses) {
    std::mt19937 rng(7);
    std::uniform_int_distribution<int> len(-5, 300);   // a few windows end before they start
    std::uniform_int_distribution<int> gap(-50, 200);  // some windows overlap the previous one
    for (int round = 0; round < 20; ++round) {
        std::vector<StepWindow> steps;
        std::vector<LayerWindow> layers;
        std::int64_t t = 0;
        for (int s = 0; s < 12; ++s) {
            const std::int64_t stepStart = t;
            for (int l = 0; l < 1 + round % 5; ++l) {
                t += std::max(0, gap(rng));
                const std::int64_t start = t;
                t += len(rng);
                layers.push_back({s, l, start, t});
                t = std::max(t, start);
            }
            steps.push_back({s, stepStart, t + (round % 3 == 0 ? gap(rng) : 0)});
            t += gap(rng);
        }
        std::stable_sort(layers.begin(), layers.end(),
                         [](const LayerWindow& a, const LayerWindow& b) { return a.startNs < b.startNs; });
        std::stable_sort(steps.begin(), steps.end(),
                         [](const StepWindow& a, const StepWindow& b) { return a.startNs < b.startNs; });
        for (const std::size_t least : {std::size_t{0}, std::size_t{1}, std::size_t{3}, std::size_t{1000}}) {
            SCOPED_TRACE("round " + std::to_string(round) + ", least " + std::to_string(least));
            expectPlanHoldsItsWindows(steps, layers, least);
        }
    }
}

TEST(CoverageChunks, DecodeStepsAreCutBetweenSteps) {
    // Steps [1000 s, 1000 s + 900), layers of 100 inside: a cut can fall at each step's start.
    std::vector<StepWindow> steps;
    std::vector<LayerWindow> layers;
    for (int s = 0; s < 10; ++s) {
        steps.push_back({s, 1000 * s, 1000 * s + 900});
        for (int l = 0; l < 9; ++l) layers.push_back({s, l, 1000 * s + 100 * l, 1000 * s + 100 * l + 100});
    }
    const auto plan = planChunks(steps, layers, 10);  // a step and its nine layers are 10 windows
    ASSERT_EQ(plan.size(), 10u);
    for (std::size_t k = 0; k + 1 < plan.size(); ++k) {
        EXPECT_EQ(plan[k], (CoverageChunk{static_cast<std::int64_t>(1000 * (k + 1)), 9 * (k + 1), k + 1}));
    }
    // Out of start order: one chunk.
    std::swap(layers[3], layers[4]);
    EXPECT_EQ(planChunks(steps, layers, 10).size(), 1u);
}

// Ranks of different sizes (rank r has r + 2 steps), kernels on two streams that cross layer and
// step boundaries, a few long ones, collectives on two channels (so transfers out of start order),
// NVTX attention/MLP blocks.
std::shared_ptr<const Trace> randomDecodeTrace(std::uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> jitter(0, 40);
    std::uniform_int_distribution<int> pick(0, 99);
    TraceBuilder b;
    for (int r = 0; r < 3; ++r) {
        std::int64_t t = 1'000;
        for (int s = 0; s < r + 2; ++s) {
            const std::int64_t stepStart = t;
            t += 50 + jitter(rng);  // before the first layer
            for (int l = 0; l < 6; ++l) {
                const std::int64_t layerStart = t;
                const std::int64_t split = t + 300 + jitter(rng);
                const std::int64_t layerEnd = split + 300 + jitter(rng);
                b.layer(r, l, layerStart, layerEnd);
                b.range(r, "attention", 2, layerStart, split);
                b.range(r, "mlp", 2, split, layerEnd);
                for (std::int64_t k = layerStart - 30; k < layerEnd; k += 60 + jitter(rng)) {
                    const int p = pick(rng);
                    const std::int64_t end = k + (p < 2 ? 2'000 : 20 + jitter(rng) * 2);  // long ones cross steps
                    b.gemm(r, k, end, p % 2 == 0 ? test::kComputeStream : test::kNcclStream);
                }
                b.collective(r, split - 80 + jitter(rng), split + jitter(rng), 4096, CollectiveOp::AllReduce,
                             test::kNcclStream, "tp");
                b.collective(r, layerEnd - 100 - jitter(rng), layerEnd + jitter(rng), 4096, CollectiveOp::AllGather,
                             test::kComputeStream, "tp2");
                t = layerEnd + jitter(rng);
            }
            t += 100;
            b.step(r, s, stepStart, t);
            t += 20 + jitter(rng);
        }
    }
    return b.build();
}

TEST(CoverageChunks, BreakdownIsTheSameWhereverTheChunksAreCut) {
    for (std::uint32_t seed = 1; seed <= 4; ++seed) {
        SCOPED_TRACE("seed " + std::to_string(seed));
        const auto trace = randomDecodeTrace(seed);
        const auto seg = segmentLayers(*trace);
        const auto m = matchCollectives(*trace, seg, MatchingOptions{.toleranceNs = -1});
        ASSERT_FALSE(m.participants.empty());
        ASSERT_GT(seg.ranks[2].blocks.size(), 0u);
        const auto whole = computeBreakdown(*trace, seg, m, 1, std::numeric_limits<std::size_t>::max());
        ASSERT_EQ(whole.rows.size(), std::size_t{6 * (2 + 3 + 4)});
        for (const std::size_t windows : {std::size_t{1}, std::size_t{2}, std::size_t{7}, std::size_t{40}}) {
            SCOPED_TRACE("windows " + std::to_string(windows));
            expectSameBreakdown(computeBreakdown(*trace, seg, m, 1, windows), whole);
            expectSameBreakdown(computeBreakdown(*trace, seg, m, 2, windows), whole);
        }
        // Some chunk plan of rank 2 has more than one chunk, or the comparison proves nothing.
        EXPECT_GT(planChunks(seg.ranks[2].steps, seg.ranks[2].layers, 7).size(), 3u);
    }
}

TEST(CoverageChunks, ABlockOutsideItsLayerIsMeasuredOverTheWholeLists) {
    // layer_blocks.h keeps blocks inside their layer; a hand-made segmentation may not: the rank is
    // then measured in one chunk, with the same result.
    const auto trace = randomDecodeTrace(9);
    auto seg = segmentLayers(*trace);
    const auto m = matchCollectives(*trace, seg, MatchingOptions{.toleranceNs = -1});
    auto& rank = seg.ranks[1];
    std::vector<BlockWindow> blocks(rank.blocks.begin(), rank.blocks.end());
    ASSERT_GT(blocks.size(), 4u);
    blocks[3].endNs = rank.steps.back().endNs + 5'000;  // past every chunk's end but the last
    rank.blocks = blocks;
    const auto whole = computeBreakdown(*trace, seg, m, 1, std::numeric_limits<std::size_t>::max());
    expectSameBreakdown(computeBreakdown(*trace, seg, m, 1, 1), whole);
    // The block's own time is measured over its whole window: more wall than any layer's.
    const auto sums = std::find_if(whole.blockSums.begin(), whole.blockSums.end(), [&](const BlockRankSum& s) {
        return s.rankIndex == 1 && s.layer == blocks[3].layer && s.block == blocks[3].kind;
    });
    ASSERT_NE(sums, whole.blockSums.end());
    EXPECT_GE(sums->time.wallNs, blocks[3].endNs - blocks[3].startNs);
}

}  // namespace
}  // namespace tpscope::core::analysis
