// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// findRepeatLayers on hand-made kernel sequences (repeat_layers.h): period, phase, the first layer
// that differs, an extra kernel inside a layer, several passes and a pass cut by the profiler; and
// repeatKernels, the kernel sequence they read from a rank.

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <map>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "core/analysis/repeat_layers.h"
#include "trace_builder_fixtures.h"

namespace tpscope::core::analysis {
namespace {

// One letter per kernel: n norm, g GEMM, a attention, s SiLU, e embedding, x extra, h LM head GEMM.
std::vector<RepeatKernel> kernels(const std::string& letters) {
    std::vector<RepeatKernel> out;
    std::int64_t t = 0;
    for (const char c : letters) {
        const EventKind kind = c == 'g' || c == 'h' ? EventKind::Gemm
                               : c == 'a'           ? EventKind::Attention
                                                    : EventKind::Elementwise;
        out.push_back({t, t + 5, static_cast<std::uint32_t>(c), kind});
        t += 10;
    }
    return out;
}

const std::string kLayer = "fgagfgsg";  // f: fused add + norm (every layer but the first)

TEST(RepeatLayers, FindsEveryLayerWithTheFirstOneDifferingAtItsStart) {
    std::string seq = "e" + std::string("ngagfgsg");
    for (int i = 1; i < 6; ++i) seq += kLayer;
    seq += "fhx";
    const auto k = kernels(seq);
    const auto r = findRepeatLayers(k);
    EXPECT_EQ(r.period, kLayer.size());
    ASSERT_EQ(r.layers.size(), 6u);
    for (std::size_t i = 0; i < r.layers.size(); ++i) {
        EXPECT_EQ(r.layers[i].first, 1 + i * kLayer.size());  // after the embedding
        EXPECT_EQ(r.layers[i].last, 1 + (i + 1) * kLayer.size());
        EXPECT_EQ(r.layers[i].index, static_cast<int>(i));
    }
}

TEST(RepeatLayers, AnExtraKernelStaysInTheLayerItInterrupts) {
    std::string seq = "e";
    for (int i = 0; i < 6; ++i) seq += i == 3 ? "fgagxfgsg" : kLayer;
    seq += "fhx";
    const auto r = findRepeatLayers(kernels(seq));
    ASSERT_EQ(r.layers.size(), 6u);
    EXPECT_EQ(r.passes, 1u);
    EXPECT_EQ(r.layers[3].last - r.layers[3].first, kLayer.size() + 1);
    EXPECT_EQ(r.layers[4].first, r.layers[3].last);
    EXPECT_EQ(r.layers[5].index, 5);
}

TEST(RepeatLayers, PassesRestartTheLayerIndexAndACutFirstPassCountsFromTheEnd) {
    std::string seq;
    for (int i = 0; i < 2; ++i) seq += kLayer;  // the last 2 layers of a pass the profiler cut
    seq +=
        "fhx"
        "e";
    for (int pass = 0; pass < 2; ++pass) {
        seq += "ngagfgsg";
        for (int i = 1; i < 5; ++i) seq += kLayer;
        seq +=
            "fhx"
            "e";
    }
    const auto r = findRepeatLayers(kernels(seq));
    EXPECT_EQ(r.passes, 3u);
    ASSERT_EQ(r.layers.size(), 2u + 5u + 5u);
    EXPECT_EQ(r.layers[0].index, 3);  // layers 3 and 4 of 5
    EXPECT_EQ(r.layers[1].index, 4);
    EXPECT_EQ(r.layers[2].index, 0);
    EXPECT_EQ(r.layers[2].pass, 1u);
    EXPECT_EQ(r.layers[11].index, 4);
}

TEST(RepeatLayers, NoRepeatWithoutGemmsOrWithoutTwoPeriods) {
    EXPECT_EQ(findRepeatLayers(kernels("nsnsnsnsnsnsnsnsnsnsnsns")).period, 0u);  // no GEMM in the unit
    EXPECT_EQ(findRepeatLayers(kernels("efgagfgsgfhx")).period, 0u);              // one layer only
    EXPECT_TRUE(findRepeatLayers({}).layers.empty());
}

// The coverage as the definition reads, one position at a time: what the 64-at-a-time scan must equal.
RepeatCoverage coverageOneByOne(const std::vector<std::uint32_t>& t, std::size_t p) {
    RepeatCoverage c;
    std::size_t run = 0;
    const auto close = [&](std::size_t i) {
        if (run >= p) {
            c.covered += run + p;
            c.firstRegion = std::min(c.firstRegion, i - run);
        }
        run = 0;
    };
    for (std::size_t i = 0; i + p < t.size(); ++i) {
        if (t[i] == t[i + p]) {
            ++run;
        } else {
            close(i);
        }
    }
    close(t.size() > p ? t.size() - p : 0);
    return c;
}

TEST(RepeatLayers, CoverageEqualsTheOneByOneDefinition) {
    std::mt19937 rng(31);
    std::size_t periodic = 0;
    for (int trial = 0; trial < 300; ++trial) {
        // A unit repeated with a few tokens replaced: runs that start and end anywhere in a 64-word,
        // span word boundaries, and reach the end of the sequence.
        const std::size_t unit = 1 + rng() % 40;
        const std::size_t n = rng() % 700;
        const std::uint32_t alphabet = 2 + rng() % 6;
        std::vector<std::uint32_t> base(unit);
        for (auto& b : base) b = static_cast<std::uint32_t>(rng() % alphabet);
        std::vector<std::uint32_t> t(n);
        const unsigned noise = rng() % 60;
        for (std::size_t i = 0; i < n; ++i) {
            t[i] = rng() % 100 < noise ? static_cast<std::uint32_t>(rng() % alphabet) : base[i % unit];
        }
        for (std::size_t p = 1; p <= 80; ++p) {
            const RepeatCoverage want = coverageOneByOne(t, p);
            const RepeatCoverage got = repeatCoverage(t, p);
            ASSERT_EQ(got.covered, want.covered) << "trial " << trial << " p " << p << " n " << n;
            ASSERT_EQ(got.firstRegion, want.firstRegion) << "trial " << trial << " p " << p << " n " << n;
            periodic += want.covered > 0 ? 1 : 0;
        }
    }
    EXPECT_GT(periodic, 1000u);  // the trials did exercise runs, not only empty coverage
}

// repeatKernels merges a rank's streams, each in start order, by start: the same sequence as a stable
// sort of all their kernels, so kernels that start together keep their streams' order. Five streams
// (one holding only copies, which are left out), many equal starts, a duration per stream so that
// the order of a tie shows.
TEST(RepeatKernels, StreamsMergeByStartAsAStableSortOfThemAllWould) {
    std::mt19937 rng(7);
    test::TraceBuilder builder;
    const std::array<const char*, 3> names{"gemm_a", "norm_b", "attention_c"};
    for (std::uint32_t s = 1; s <= 5; ++s) {
        for (int i = 0; i < 300; ++i) {
            const std::int64_t start = static_cast<std::int64_t>(rng() % 200) * 10;
            const EventKind kind = s == 4 ? EventKind::Memcpy : i % 2 == 0 ? EventKind::Gemm : EventKind::Elementwise;
            builder.kernel(0, kind, start, start + s, StreamId{s}, names.at(rng() % names.size()));
        }
    }
    const auto trace = builder.build();
    const Rank& rank = trace->ranks.at(0);
    struct Expected {
        std::int64_t startNs;
        std::int64_t endNs;
        std::string_view name;
        EventKind kind;
    };
    std::vector<Expected> expected;
    for (const auto& stream : rank.streams) {
        const auto& ev = stream.events;
        for (std::size_t i = 0; i < ev.size(); ++i) {
            if (ev.kind(i) == EventKind::Memcpy) continue;
            expected.push_back({ev.startNs(i), ev.endNs(i), trace->name(ev.name(i)), ev.kind(i)});
        }
    }
    std::stable_sort(expected.begin(), expected.end(),
                     [](const Expected& a, const Expected& b) { return a.startNs < b.startNs; });
    const auto kernels = repeatKernels(*trace, rank);
    ASSERT_EQ(kernels.size(), expected.size());
    ASSERT_EQ(kernels.size(), 4U * 300U);
    std::map<std::string_view, std::uint32_t> tokenOf;
    for (std::size_t i = 0; i < kernels.size(); ++i) {
        EXPECT_EQ(kernels[i].startNs, expected[i].startNs) << i;
        EXPECT_EQ(kernels[i].endNs, expected[i].endNs) << i;  // the stream, where starts tie
        EXPECT_EQ(kernels[i].kind, expected[i].kind) << i;
        EXPECT_EQ(tokenOf.emplace(expected[i].name, kernels[i].token).first->second, kernels[i].token) << i;
    }
    EXPECT_EQ(tokenOf.size(), names.size());
}

}  // namespace
}  // namespace tpscope::core::analysis
