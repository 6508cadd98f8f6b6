// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// LayerWindows (layer_windows.h): every window reads back exactly as given, the ones that do not fit
// 12 bytes through the side table, and the narrow ones cost 12 bytes beside their group of 64.

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <random>

#include "core/analysis/layer_windows.h"

namespace tpscope::core::analysis {
namespace {

constexpr std::int64_t k32 = std::int64_t{1} << 32;
constexpr std::size_t kGroup = 64;

// The header's rule, from the definition: the window's group is the 64 it falls in, whose first
// window gives the start and step the others are kept from.
// A difference that overflows 64 bits is far outside every narrow range.
bool differenceIn(std::int64_t a, std::int64_t b, std::int64_t lo, std::int64_t hi) {
    std::int64_t d = 0;
    return !__builtin_sub_overflow(a, b, &d) && d >= lo && d <= hi;
}

bool fitsNarrow(const LayerWindow& w, const LayerWindow& groupFirst) {
    return differenceIn(w.startNs, groupFirst.startNs, 0, k32 - 1) && differenceIn(w.endNs, w.startNs, 0, k32 - 2) &&
           differenceIn(w.step, groupFirst.step, 0, 65535) && w.layer >= 0 && w.layer <= 65535;
}

std::size_t expectedWide(const std::vector<LayerWindow>& all) {
    std::size_t wide = 0;
    for (std::size_t i = 0; i < all.size(); ++i) wide += fitsNarrow(all[i], all[i - i % kGroup]) ? 0 : 1;
    return wide;
}

// Decode-like windows (consecutive layers, steps of 80) with every kind of value that does not fit.
std::vector<LayerWindow> randomWindows(std::uint32_t seed, std::size_t n) {
    std::mt19937_64 rng(seed);
    std::vector<LayerWindow> out;
    std::int64_t t = -5'000'000'000;  // negative times are allowed
    for (std::size_t i = 0; i < n; ++i) {
        LayerWindow w{static_cast<std::int64_t>(i / 80), static_cast<int>(i % 80), t,
                      t + 1'000 + static_cast<std::int64_t>(rng() % 100'000)};
        switch (rng() % 400) {
            case 0:
                w.endNs = w.startNs + k32 - 2;
                break;  // the longest narrow length
            case 1:
                w.endNs = w.startNs + k32 - 1;
                break;  // the marker's value: wide
            case 2:
                w.endNs = w.startNs - 1;
                break;  // ends before it starts
            case 3:
                w.layer = -1;
                break;
            case 4:
                w.layer = 65535;
                break;
            case 5:
                w.layer = 65536;
                break;
            case 6:
                w.step += 70'000;
                break;  // far after the group's step
            case 7:
                w.step = -3;
                break;  // before the group's step
            case 8:
                t += k32;
                break;  // a long gap: the rest of the group is far from its first
            case 9:
                w.startNs -= 200'000'000;
                break;  // before the group's first start, sometimes
            case 10:
                w.startNs = std::numeric_limits<std::int64_t>::max() - 10;
                w.endNs = std::numeric_limits<std::int64_t>::max();
                break;
            case 11:
                w.startNs = std::numeric_limits<std::int64_t>::min();
                w.endNs = std::numeric_limits<std::int64_t>::max();
                break;
            default:
                break;
        }
        out.push_back(w);
        t = std::max(t, w.endNs < w.startNs || w.endNs > t + k32 ? t : w.endNs) + 50;
    }
    return out;
}

TEST(LayerWindows, EveryWindowReadsBackAsGiven) {
    for (std::uint32_t seed = 1; seed <= 5; ++seed) {
        const auto all = randomWindows(seed, 5'000 + seed * 17);
        const LayerWindows windows(all);
        ASSERT_EQ(windows.size(), all.size());
        for (std::size_t i = 0; i < all.size(); ++i) ASSERT_EQ(windows[i], all[i]) << "window " << i;
        EXPECT_TRUE(std::equal(windows.begin(), windows.end(), all.begin(), all.end()));
        EXPECT_EQ(windows.front(), all.front());
        EXPECT_EQ(windows.back(), all.back());
        EXPECT_EQ(windows.toVector(), all);
        // The side table holds exactly the windows the rule says do not fit.
        const std::size_t wide = expectedWide(all);
        EXPECT_GT(wide, 0u);
        EXPECT_LT(wide, all.size() / 2);
        EXPECT_EQ(windows.wideCount(), wide);
    }
}

TEST(LayerWindows, TwelveBytesAWindowBesideItsGroup) {
    std::vector<LayerWindow> all;
    for (int i = 0; i < 64 * 1000; ++i)
        all.push_back({i / 80, i % 80, 1'000'000 + 700LL * i, 1'000'000 + 700LL * i + 650});
    const LayerWindows windows(all);
    EXPECT_EQ(windows.wideCount(), 0u);
    EXPECT_EQ(windows.residentBytes(), all.size() * 12 + all.size() / 64 * 16);
    EXPECT_LT(windows.residentBytes() * 2, all.size() * sizeof(LayerWindow));
}

TEST(LayerWindows, IteratorsAreRandomAccess) {
    auto all = randomWindows(3, 2'000);
    auto byStart = [](const LayerWindow& a, const LayerWindow& b) { return a.startNs < b.startNs; };
    std::stable_sort(all.begin(), all.end(), byStart);
    const LayerWindows windows(all);
    static_assert(std::random_access_iterator<LayerWindows::Iterator>);
    EXPECT_EQ(windows.end() - windows.begin(), static_cast<std::ptrdiff_t>(all.size()));
    std::mt19937_64 rng(9);
    for (int probe = 0; probe < 500; ++probe) {
        const std::int64_t t = all[rng() % all.size()].startNs + static_cast<std::int64_t>(rng() % 3) - 1;
        auto less = [](std::int64_t v, const LayerWindow& l) { return v < l.startNs; };
        const auto got = std::upper_bound(windows.begin(), windows.end(), t, less);
        const auto want = std::upper_bound(all.begin(), all.end(), t, less);
        ASSERT_EQ(got - windows.begin(), want - all.begin());
        if (got != windows.begin()) {
            const auto previous = got - 1;
            EXPECT_EQ(previous->endNs, (want - 1)->endNs);
            EXPECT_EQ(windows.begin()[previous - windows.begin()], *(want - 1));
        }
    }
}

}  // namespace
}  // namespace tpscope::core::analysis
