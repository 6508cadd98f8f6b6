// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// The matching in pieces on several threads must be the serial matching, field for field, whether
// the pieces' guessed start states are right or not; and the clock estimate's matching by call
// order must group and order kernels as matchCollectives with a negative tolerance does. Checked
// on random call orders: ranks that miss calls, kernels only one rank runs, several communicators
// and streams, per-rank clock skew, calls inside and outside layer windows.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "core/analysis/collective_matching.h"
#include "matching_expect.h"
#include "trace_builder_fixtures.h"

namespace tpscope::core::analysis {
namespace {

using test::TraceBuilder;

// A random trace of collectives: 2-8 ranks, 30-329 calls spread over 1-3 communicators, each rank
// missing a call one time in twelve, an extra kernel on one rank one call in fifteen, kernels on
// two streams, arrivals 0-3 us apart and kernels 0.5-4.5 us long (so the 2 us time check splits
// some calls), every rank's clock shifted by up to +-maxSkewNs, and layers of four calls with
// gaps between them.
std::shared_ptr<const Trace> randomCollectives(std::uint64_t seed, std::int64_t maxSkewNs) {
    std::mt19937_64 rng(seed);
    auto pick = [&rng](std::uint64_t n) { return static_cast<std::int64_t>(rng() % n); };
    TraceBuilder b;
    const int ranks = 2 + static_cast<int>(pick(7));
    const int calls = 30 + static_cast<int>(pick(300));
    const std::string communicators[] = {"tp", "dp", ""};
    const auto channels = static_cast<std::uint64_t>(1 + pick(3));
    std::vector<std::int64_t> skew(static_cast<std::size_t>(ranks), 0);
    for (auto& s : skew) s = maxSkewNs > 0 ? pick(static_cast<std::uint64_t>(2 * maxSkewNs)) - maxSkewNs : 0;
    auto kernel = [&](int r, std::int64_t start, const std::string& communicator) {
        const std::int64_t end = start + 500 + pick(4000);
        const StreamId stream = pick(3) == 0 ? test::kNcclStream : test::kComputeStream;
        b.collective(r, start + skew[static_cast<std::size_t>(r)], end + skew[static_cast<std::size_t>(r)],
                     static_cast<std::uint64_t>(1024 * (1 + pick(4))), CollectiveOp::AllReduce, stream, communicator,
                     pick(2) == 0 ? 0u : static_cast<std::uint32_t>(ranks));
    };
    struct Window {
        std::int64_t startNs;
        std::int64_t endNs;
    };
    std::vector<Window> layers;
    std::int64_t t = 100'000;
    std::int64_t layerStart = t;
    for (int c = 0; c < calls; ++c) {
        const std::string& communicator = communicators[pick(channels)];
        t += 5'000 + pick(20'000);
        for (int r = 0; r < ranks; ++r) {
            if (pick(12) != 0) kernel(r, t + pick(3000), communicator);
        }
        if (pick(15) == 0) kernel(static_cast<int>(pick(static_cast<std::uint64_t>(ranks))), t + 4000, communicator);
        if (c % 4 == 3) {
            layers.push_back({layerStart, t + 3000});
            layerStart = t + 3000 + pick(30'000);  // the next calls may fall before it: outside every layer
        }
    }
    for (int r = 0; r < ranks; ++r) {
        const std::int64_t s = skew[static_cast<std::size_t>(r)];
        b.step(r, 0, s, t + 100'000 + s);
        for (std::size_t l = 0; l < layers.size(); ++l) {
            if (layers[l].startNs < layers[l].endNs) {
                b.layer(r, static_cast<int>(l), layers[l].startNs + s, layers[l].endNs + s);
            }
        }
    }
    return b.build();
}

// The step and layer of the window holding t, by a scan of every window: the definition the
// matching's galloping search must agree with.
std::pair<std::int64_t, int> windowOf(const RankSegmentation& seg, std::int64_t t) {
    std::pair<std::int64_t, int> found{-1, -1};
    for (const auto& l : seg.layers) {
        if (l.startNs <= t && t < l.endNs) found = {l.step, l.layer};
    }
    return found;
}

struct SplitCounts {
    std::size_t pieces = 0;
    std::size_t kept = 0;
    std::size_t channels = 0;
};

void expectPiecesGiveTheSerialMatching(const Trace& trace, const MatchingOptions& options, SplitCounts& counts) {
    const CollectiveKernels kernels = gatherCollectiveKernels(trace, 1);
    const Segmentation seg = segmentLayers(trace);
    MatchingSplit whole;
    whole.minCallsPerPiece = SIZE_MAX;
    const CollectiveMatching serial = matchCollectives(trace, kernels, seg, options, 1, whole);
    ASSERT_EQ(whole.pieces, kernels.channels.size());
    ASSERT_FALSE(serial.calls.empty());
    for (const auto& call : serial.calls) {
        const auto& first = serial.participants[call.firstParticipant];
        const auto want = windowOf(seg.ranks[first.rankIndex], participantStartNs(trace, first));
        EXPECT_EQ(call.step, want.first);
        EXPECT_EQ(call.layer, want.second);
    }
    struct Split {
        unsigned threads;
        std::size_t minCalls;
    };
    for (const Split s : {Split{2, 1}, Split{3, 4}, Split{8, 1}, Split{2, 40}}) {
        SCOPED_TRACE("threads " + std::to_string(s.threads) + ", pieces of " + std::to_string(s.minCalls));
        MatchingSplit split;
        split.minCallsPerPiece = s.minCalls;
        test::expectSameMatching(serial, matchCollectives(trace, kernels, seg, options, s.threads, split));
        EXPECT_GE(split.piecesKept, kernels.channels.size());
        counts.pieces += split.pieces;
        counts.kept += split.piecesKept;
        counts.channels += kernels.channels.size();
    }
}

TEST(CollectiveMatchingSplit, PiecesGiveTheSerialMatchingOnRandomCallOrders) {
    SplitCounts counts;
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
        SCOPED_TRACE("seed " + std::to_string(seed));
        const auto trace = randomCollectives(seed, seed % 2 == 0 ? 2'000 : 0);
        expectPiecesGiveTheSerialMatching(*trace, {}, counts);
        expectPiecesGiveTheSerialMatching(*trace, MatchingOptions{.toleranceNs = -1}, counts);
    }
    // Both ways of joining ran: guesses that were right (pieces kept beyond each channel's first)
    // and guesses that were wrong (pieces dropped, the piece before matching on).
    EXPECT_GT(counts.kept, counts.channels);
    EXPECT_GT(counts.pieces, counts.kept);
}

TEST(CollectiveMatchingSplit, EveryGuessOfARegularDecodeIsKept) {
    // Every rank joins every call, arrivals 300 ns apart: each piece starts where the one before ends.
    const auto trace = test::makeDecodeTrace({.ranks = 8, .steps = 10, .layers = 20, .lateRank = 3, .lateByNs = 300});
    const CollectiveKernels kernels = gatherCollectiveKernels(*trace, 1);
    const Segmentation seg = segmentLayers(*trace);
    const CollectiveMatching serial = matchCollectives(*trace, kernels, seg, {}, 1);
    ASSERT_EQ(serial.calls.size(), 10u * 20u * 2u);
    MatchingSplit split;
    split.minCallsPerPiece = 10;
    test::expectSameMatching(serial, matchCollectives(*trace, kernels, seg, {}, 4, split));
    EXPECT_EQ(split.pieces, 4u);
    EXPECT_EQ(split.piecesKept, 4u);
}

// The clock estimate's calls by order against matchCollectives' own with a negative tolerance:
// the same calls of two ranks or more, in the same order, of the same kernels.
TEST(CollectiveMatchingSplit, CallsByOrderAreTheOrderOnlyMatchingsCallsOfTwoRanksOrMore) {
    for (std::uint64_t seed = 1; seed <= 30; ++seed) {
        SCOPED_TRACE("seed " + std::to_string(seed));
        // Clocks up to 50 us apart: time order across ranks is not call order.
        const auto trace = randomCollectives(seed, 50'000);
        const CollectiveKernels kernels = gatherCollectiveKernels(*trace);
        const CollectiveMatching m = matchCollectives(*trace, Segmentation{}, MatchingOptions{.toleranceNs = -1}, 1);
        std::size_t kernelCount = 0;
        const std::vector<CallByOrder> calls = callsByOrder(kernels, &kernelCount);
        std::size_t want = 0;
        std::size_t wantKernels = 0;
        for (const auto& call : m.calls) {
            if (call.participantCount < 2) continue;
            ASSERT_LT(want, calls.size());
            const CallByOrder& got = calls[want++];
            wantKernels += call.participantCount;
            EXPECT_EQ(got.lastStartNs, call.lastStartNs);
            const auto& perRank = kernels.channels[got.channel].perRank;
            std::uint32_t i = 0;
            for (std::uint32_t r = 0; r < perRank.size(); ++r) {
                if (got.index >= perRank[r].size()) continue;
                ASSERT_LT(i, call.participantCount);
                const auto& p = m.participants[call.firstParticipant + i++];
                EXPECT_EQ(p.rankIndex, r);
                EXPECT_EQ(p.streamIndex, perRank[r][got.index].streamIndex);
                EXPECT_EQ(p.eventIndex, perRank[r][got.index].eventIndex);
            }
            EXPECT_EQ(i, call.participantCount);
        }
        EXPECT_EQ(want, calls.size());
        EXPECT_EQ(kernelCount, wantKernels);
    }
}

}  // namespace
}  // namespace tpscope::core::analysis
