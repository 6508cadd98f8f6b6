// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/trace/nvtx_ranges.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <span>
#include <stdexcept>
#include <vector>

namespace tpscope::core {
namespace {

// The order NvtxRanges::finalize promises, on the plain records it replaced: by start, then by depth,
// stably.
std::vector<NvtxRange> sortedReference(std::vector<NvtxRange> ranges) {
    std::stable_sort(ranges.begin(), ranges.end(), [](const NvtxRange& a, const NvtxRange& b) {
        return a.startNs != b.startNs ? a.startNs < b.startNs : a.depth < b.depth;
    });
    return ranges;
}

// Rank::visibleRanges as it was on the sorted records: the first range starting at or after t1 bounds
// the end; from the front, the first range not ended by t0 is the first.
IndexRange referenceVisible(const std::vector<NvtxRange>& ranges, std::int64_t t0, std::int64_t t1) {
    if (ranges.empty() || t1 <= t0) return {};
    const auto last =
        static_cast<std::size_t>(std::lower_bound(ranges.begin(), ranges.end(), t1,
                                                  [](const NvtxRange& r, std::int64_t t) { return r.startNs < t; }) -
                                 ranges.begin());
    std::size_t first = 0;
    while (first < last && ranges[first].endNs <= t0) ++first;
    return {first, last};
}

// Decode-shaped ranges with every case the columns keep apart: several depths starting together (a
// step, its first layer and block), ties within a depth, ranges of 4.3 s or more, gaps of 2^33 ns, ends
// before starts, a name id past 16 bits, pushed in random order (closing ranges after their children,
// as the simulator does, or shuffled).
std::vector<NvtxRange> randomRanges(std::size_t n, unsigned seed) {
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<int> pick(0, 99), depth(0, 4);
    std::uniform_int_distribution<std::int64_t> small(0, 5'000);
    std::vector<NvtxRange> out;
    std::int64_t t = -50'000;
    for (std::size_t i = 0; i < n; ++i) {
        const int p = pick(rng);
        if (p < 2) t += std::int64_t{1} << 33;
        if (p >= 2 && p < 70) t += small(rng);  // else a tie with the previous start
        std::int64_t end = t + small(rng);
        if (p >= 70 && p < 75) end = t + (std::int64_t{5} << 30);  // 5.4 s: past a 32-bit duration
        if (p >= 75 && p < 78) end = t - small(rng) - 1;           // ends before it starts
        const std::uint32_t name = p == 99 ? 70'000 : static_cast<std::uint32_t>(pick(rng) % 13);
        out.push_back({t, end, NameId{name}, static_cast<std::uint8_t>(p % 10 == 0 ? 255 : depth(rng))});
    }
    return out;
}

void expectSame(const NvtxRanges& got, const std::vector<NvtxRange>& want) {
    ASSERT_EQ(got.size(), want.size());
    ASSERT_EQ(got.empty(), want.empty());
    for (std::size_t i = 0; i < want.size(); ++i) {
        ASSERT_EQ(got[i], want[i]) << i;
        ASSERT_EQ(got.at(i), want[i]) << i;
        ASSERT_EQ(got.startNs(i), want[i].startNs) << i;
        ASSERT_EQ(got.endNs(i), want[i].endNs) << i;
        ASSERT_EQ(got.durNs(i), want[i].endNs - want[i].startNs) << i;
        ASSERT_EQ(got.name(i), want[i].name) << i;
        ASSERT_EQ(got.depth(i), want[i].depth) << i;
    }
    const std::vector<NvtxRange> iterated(got.begin(), got.end());
    EXPECT_EQ(iterated, want);
    if (!want.empty()) {
        EXPECT_EQ(got.front(), want.front());
        EXPECT_EQ(got.back(), want.back());
    }
    EXPECT_THROW((void)got.at(want.size()), std::out_of_range);
}

TEST(NvtxRanges, HoldWhatWasPushedInStartThenDepthOrder) {
    for (const unsigned seed : {1u, 2u, 3u}) {
        for (const bool shuffled : {false, true}) {
            std::vector<NvtxRange> pushed = randomRanges(3000, seed);
            std::mt19937_64 rng(seed);
            if (shuffled) std::shuffle(pushed.begin(), pushed.end(), rng);
            NvtxRanges ranges;
            ranges.reserve(pushed.size());
            for (const NvtxRange& r : pushed) ranges.push_back(r);
            expectSame(ranges, pushed);  // readable as pushed before finalize
            ranges.finalize();
            EXPECT_TRUE(ranges.finalized());
            const std::vector<NvtxRange> want = sortedReference(pushed);
            expectSame(ranges, want);
            std::int64_t lastEnd = INT64_MIN;
            for (const NvtxRange& r : want) lastEnd = std::max(lastEnd, r.endNs);
            EXPECT_EQ(ranges.lastEndNs(), lastEnd);
        }
    }
}

// The simulator's order: a step's layers and blocks first, the step (same start, depth 0) after them.
TEST(NvtxRanges, AStepPushedAfterItsLayersSortsBeforeThem) {
    NvtxRanges ranges;
    ranges.push_back({100, 200, NameId{2}, 1});
    ranges.push_back({100, 150, NameId{3}, 2});
    ranges.push_back({200, 300, NameId{2}, 1});
    ranges.push_back({100, 300, NameId{1}, 0});
    ranges.finalize();
    expectSame(
        ranges,
        {{100, 300, NameId{1}, 0}, {100, 200, NameId{2}, 1}, {100, 150, NameId{3}, 2}, {200, 300, NameId{2}, 1}});
}

TEST(NvtxRanges, ColumnsAppendedAsADecoderDoesEqualRangesPushedOneByOne) {
    const std::vector<NvtxRange> want = sortedReference(randomRanges(5000, 4));
    std::vector<std::int64_t> starts, ends;
    std::vector<std::uint32_t> names;
    std::vector<std::uint8_t> depths;
    for (const NvtxRange& r : want) {
        starts.push_back(r.startNs);
        ends.push_back(r.endNs);
        names.push_back(r.name.value);
        depths.push_back(r.depth);
    }
    NvtxRanges appended;
    appended.append(std::span(starts).first(1234), std::span(ends).first(1234), std::span(names).first(1234),
                    std::span(depths).first(1234));
    appended.append(std::span(starts).subspan(1234), std::span(ends).subspan(1234), std::span(names).subspan(1234),
                    std::span(depths).subspan(1234));
    appended.finalize();
    expectSame(appended, want);
    NvtxRanges pushed;
    for (const NvtxRange& r : want) pushed.push_back(r);
    pushed.finalize();
    EXPECT_EQ(appended, pushed);
}

TEST(NvtxRanges, EqualOnlyWhenEveryFieldOfEveryRangeIs) {
    const std::vector<NvtxRange> base = sortedReference(randomRanges(500, 5));
    const auto build = [](const std::vector<NvtxRange>& list) {
        NvtxRanges r;
        for (const NvtxRange& x : list) r.push_back(x);
        r.finalize();
        return r;
    };
    const NvtxRanges a = build(base);
    EXPECT_EQ(a, build(base));
    std::vector<NvtxRange> changed = base;
    changed[250].depth = static_cast<std::uint8_t>(changed[250].depth ^ 1U);
    EXPECT_NE(a, build(changed));
    changed = base;
    changed[250].endNs += 1;
    EXPECT_NE(a, build(changed));
    changed = base;
    changed[250].name = NameId{changed[250].name.value + 1};
    EXPECT_NE(a, build(changed));
    changed = base;
    changed.pop_back();
    EXPECT_NE(a, build(changed));
}

TEST(NvtxRanges, VisibleRangesAreThoseTheSortedRecordsGave) {
    for (const unsigned seed : {6u, 7u}) {
        const std::vector<NvtxRange> pushed = randomRanges(4000, seed);
        NvtxRanges ranges;
        for (const NvtxRange& r : pushed) ranges.push_back(r);
        ranges.finalize();
        const std::vector<NvtxRange> want = sortedReference(pushed);
        std::int64_t lo = INT64_MAX, hi = INT64_MIN;
        for (const NvtxRange& r : want) {
            lo = std::min(lo, r.startNs);
            hi = std::max(hi, r.endNs);
        }
        std::mt19937_64 rng(seed);
        std::uniform_int_distribution<std::int64_t> at(lo - 1000, hi + 1000);
        for (int trial = 0; trial < 500; ++trial) {
            std::int64_t t0 = at(rng), t1 = at(rng);
            if (t1 < t0) std::swap(t0, t1);
            if (trial % 3 == 0) t1 = t0 + 1 + (t1 - t0) / 5000;  // narrow windows, most ranges begun before
            const IndexRange got = ranges.visibleRanges(t0, t1), expected = referenceVisible(want, t0, t1);
            ASSERT_EQ(got.first, expected.first) << "[" << t0 << ", " << t1 << ")";
            ASSERT_EQ(got.last, expected.last) << "[" << t0 << ", " << t1 << ")";
        }
        EXPECT_TRUE(ranges.visibleRanges(10, 10).empty());
    }
}

// What the class is for: decode-shaped ranges (steps, layers, blocks with a few names, in order) in
// about half the 24 bytes of a record.
TEST(NvtxRanges, DecodeShapedRangesTakeAboutHalfTheBytesOfRecords) {
    NvtxRanges ranges;
    std::int64_t now = 0;
    for (std::uint32_t step = 0; step < 200; ++step) {
        const std::int64_t stepStart = now;
        for (std::uint32_t layer = 0; layer < 80; ++layer) {
            ranges.push_back({now, now + 400'000, NameId{1000 + layer}, 1});
            ranges.push_back({now, now + 150'000, NameId{1}, 2});
            ranges.push_back({now + 150'000, now + 400'000, NameId{2}, 2});
            now += 400'000;
        }
        ranges.push_back({stepStart, now, NameId{10 + step}, 0});
        now += 500'000;
    }
    ranges.finalize();
    EXPECT_LT(ranges.residentBytes(), ranges.size() * sizeof(NvtxRange) * 6 / 10);
}

}  // namespace
}  // namespace tpscope::core
