// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/util/statistics.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

namespace tpscope::core {
namespace {

// The definition on the sorted sample: linear interpolation between the two closest ranks.
double fromSorted(const std::vector<double>& sorted, double p) {
    const std::size_t n = sorted.size();
    const double pos = p * static_cast<double>(n - 1);
    const auto lo = static_cast<std::size_t>(std::floor(pos));
    const auto hi = std::min(lo + 1, n - 1);
    return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - static_cast<double>(lo));
}

TEST(Percentile, InterpolatesBetweenOrderStatistics) {
    // Sorted: 100 200 300 400 1000; p90 sits at rank 0.9 * 4 = 3.6, between 400 and 1000.
    EXPECT_DOUBLE_EQ(percentile({400, 100, 1000, 300, 200}, 0.5), 300);
    EXPECT_DOUBLE_EQ(percentile({400, 100, 1000, 300, 200}, 0.9), 400 + 0.6 * (1000 - 400));
    EXPECT_DOUBLE_EQ(percentile({7}, 0.9), 7);
    EXPECT_DOUBLE_EQ(percentile({}, 0.5), 0);
    EXPECT_DOUBLE_EQ(percentile({1, 2}, 2.0), 2);  // p is clamped to [0, 1]
}

TEST(Median, OfAnEvenCountIsTheMeanOfTheTwoMiddleValues) {
    EXPECT_DOUBLE_EQ(median({10, 40, 20, 30}), (20.0 + 30.0) / 2);
    EXPECT_DOUBLE_EQ(median({5, 1, 3}), 3);
}

// The selection must give exactly what the sorted sample's interpolation gives (clock sync relies
// on it to reproduce its outlier limit bit for bit).
TEST(Percentile, InPlaceSelectionEqualsInterpolationOnTheSortedSample) {
    std::mt19937 rng(18);
    std::uniform_real_distribution<double> value(-1e6, 1e6);
    for (const std::size_t n : {1u, 2u, 3u, 10u, 101u, 1000u}) {
        std::vector<double> v(n);
        for (auto& x : v) x = n == 101 ? std::floor(value(rng) / 1e5) : value(rng);  // ties at n = 101
        std::vector<double> sorted = v;
        std::sort(sorted.begin(), sorted.end());
        for (const double p : {0.0, 0.1, 0.5, 0.9, 0.99, 1.0}) {
            const double expected = fromSorted(sorted, p);
            std::vector<double> copy = v;
            EXPECT_EQ(percentileInPlace(copy, p), expected) << "n " << n << " p " << p;
            EXPECT_EQ(percentile(v, p), expected) << "n " << n << " p " << p;
        }
    }
}

// percentileOfEach never holds the sample but must agree bit for bit with the sorted sample's
// interpolation: spread values, negative ones, heavy ties, one value repeated (every radix pass down
// to the last 16 bits) and samples over the 65,536 values it collects at the end.
TEST(Percentile, OfEachEqualsInterpolationOnTheSortedSample) {
    std::mt19937 rng(31);
    std::uniform_real_distribution<double> value(-1e6, 1e6);
    const auto samples = [&](std::size_t n, int shape) {
        std::vector<double> v(n);
        for (auto& x : v) {
            const double y = value(rng);
            x = shape == 0   ? y
                : shape == 1 ? std::floor(y / 1e5)
                : shape == 2 ? 1234.5
                             : std::abs(std::floor(y)) + 0.25;
        }
        return v;
    };
    for (const std::size_t n : {1u, 2u, 3u, 10u, 1001u, 200'000u}) {
        for (int shape = 0; shape < 4; ++shape) {
            const std::vector<double> v = samples(n, shape);
            std::vector<double> sorted = v;
            std::sort(sorted.begin(), sorted.end());
            for (const double p : {0.0, 0.1, 0.5, 0.9, 0.99, 1.0}) {
                const double expected = fromSorted(sorted, p);
                int passes = 0;
                const double got = percentileOfEach(n, p, [&](auto&& visit) {
                    ++passes;
                    for (const double x : v) visit(x);
                });
                EXPECT_EQ(got, expected) << "n " << n << " shape " << shape << " p " << p;
                EXPECT_LE(passes, 6) << "n " << n << " shape " << shape << " p " << p;
            }
        }
    }
    EXPECT_EQ(percentileOfEach(0, 0.5, [](auto&&) {}), 0.0);
}

// percentileAtMost from a count alone: true exactly when the upper of the two values the percentile
// interpolates between is at most the bound (the sorted sample's value at percentilePosition's hi), and
// then the percentile is at most the bound too.
TEST(Percentile, AtMostABoundFromHowManyValuesAreAtMostIt) {
    std::mt19937 rng(11);
    for (int round = 0; round < 300; ++round) {
        const std::size_t n = 1 + rng() % 40;
        std::vector<double> values(n);
        for (auto& v : values) v = static_cast<double>(rng() % 20);
        std::vector<double> sorted = values;
        std::sort(sorted.begin(), sorted.end());
        for (const double p : {0.0, 0.3, 0.5, 0.9, 1.0}) {
            const double bound = static_cast<double>(rng() % 21);
            const auto atMost = static_cast<std::size_t>(
                std::count_if(values.begin(), values.end(), [&](double v) { return v <= bound; }));
            const std::size_t hi =
                std::min(static_cast<std::size_t>(std::floor(p * static_cast<double>(n - 1))) + 1, n - 1);
            EXPECT_EQ(percentileAtMost(n, p, atMost), sorted[hi] <= bound) << "n " << n << " p " << p;
            if (percentileAtMost(n, p, atMost)) {
                EXPECT_LE(percentile(values, p), bound);
            }
        }
    }
    EXPECT_FALSE(percentileAtMost(0, 0.5, 0));
}

}  // namespace
}  // namespace tpscope::core
