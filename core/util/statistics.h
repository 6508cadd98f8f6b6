// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Order statistics of a sample, one definition for every report (run summary latencies, captured
// step times, measured all-reduce times): linear interpolation between the closest ranks, the
// definition of numpy's default percentile, so a median of an even count is the mean of the two
// middle values. Cost: O(n) (selects the two closest ranks; percentile works on a copy).
// percentileOfEach gives the same value for a sample it never holds: it visits the values again
// (radix passes over 16 bits of their order at a time, about three passes a rank) and keeps 2 KB of
// counts and, at the end, the few values left in one bucket.

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace tpscope::core {

// p in [0, 1] (clamped) of unsorted values; 0 for none.
double percentile(std::vector<double> values, double p);
// The same value without the copy, for samples too large to copy (tens of millions); reorders `values`.
double percentileInPlace(std::vector<double>& values, double p);
inline double median(std::vector<double> values) {
    return percentile(std::move(values), 0.5);
}

// Where percentile p of `count` values (count > 0) falls in their sorted order: between the values of
// ranks lo and hi (0-based, hi = lo + 1 but for the last), at `fraction` of the way from the first.
struct PercentilePosition {
    std::size_t lo = 0;
    std::size_t hi = 0;
    double fraction = 0;
};
inline PercentilePosition percentilePosition(std::size_t count, double p) {
    const double pos = std::clamp(p, 0.0, 1.0) * static_cast<double>(count - 1);
    const auto lo = static_cast<std::size_t>(std::floor(pos));
    return {lo, std::min(lo + 1, count - 1), pos - static_cast<double>(lo)};
}
// Whether percentile p of `count` values is at most a bound, given how many of them are (`atMost`):
// it is when both values it lies between are, since a point between two such values is too.
inline bool percentileAtMost(std::size_t count, double p, std::size_t atMost) {
    return count > 0 && atMost > percentilePosition(count, p).hi;
}

namespace detail {

// A double's bits reordered so that unsigned order is the values' order (no NaN; -0 before +0).
inline std::uint64_t orderKey(double v) {
    const auto bits = std::bit_cast<std::uint64_t>(v);
    return (bits >> 63) != 0 ? ~bits : bits | (std::uint64_t{1} << 63);
}
inline double fromOrderKey(std::uint64_t key) {
    return std::bit_cast<double>((key >> 63) != 0 ? key & ~(std::uint64_t{1} << 63) : ~key);
}

// The k-th smallest (0-based) of the count values forEach(visit) visits, k < count. Each pass counts
// the values whose known top bits match by their next 16 bits and keeps the bucket holding rank k;
// once that bucket holds few values they are collected and the rank selected among them.
template <class ForEach>
double selectOfEach(std::size_t k, ForEach&& forEach) {
    constexpr std::size_t kCollectAtMost = std::size_t{1} << 16;
    std::vector<std::size_t> counts(std::size_t{1} << 16);
    std::uint64_t prefix = 0;  // the top `known` bits of the wanted key
    int known = 0;
    const auto matches = [&](std::uint64_t key) { return known == 0 || (key >> (64 - known)) == prefix; };
    for (int shift = 48;; shift -= 16) {
        std::fill(counts.begin(), counts.end(), 0);
        forEach([&](double v) {
            const std::uint64_t key = orderKey(v);
            if (matches(key)) ++counts[(key >> shift) & 0xFFFFU];
        });
        std::size_t bucket = 0;
        while (counts[bucket] <= k) k -= counts[bucket++];
        prefix = (prefix << 16) | bucket;
        known += 16;
        if (shift == 0) return fromOrderKey(prefix);
        if (counts[bucket] <= kCollectAtMost) {
            std::vector<double> left;
            left.reserve(counts[bucket]);
            forEach([&](double v) {
                if (matches(orderKey(v))) left.push_back(v);
            });
            std::nth_element(left.begin(), left.begin() + static_cast<std::ptrdiff_t>(k), left.end());
            return left[k];
        }
    }
}

}  // namespace detail

// percentile() of the `count` values that forEach(visit) passes to visit(double), none NaN, without
// holding them: forEach is called again for each pass and must visit the same values each time.
template <class ForEach>
double percentileOfEach(std::size_t count, double p, ForEach&& forEach) {
    if (count == 0) return 0;
    const auto [lo, hi, fraction] = percentilePosition(count, p);
    const double atLo = detail::selectOfEach(lo, forEach);
    if (hi == lo) return atLo;
    // The (lo + 1)-th: atLo again when it occurs past rank lo, else the least value above it.
    std::size_t notAbove = 0;
    double above = 0;
    bool anyAbove = false;
    forEach([&](double v) {
        if (v <= atLo) {
            ++notAbove;
        } else if (!anyAbove || v < above) {
            above = v;
            anyAbove = true;
        }
    });
    const double atHi = notAbove > hi ? atLo : above;
    return atLo + (atHi - atLo) * fraction;
}

}  // namespace tpscope::core
