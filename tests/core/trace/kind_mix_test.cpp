// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/trace/kind_mix.h"

#include <gtest/gtest.h>

#include "core/trace/level_of_detail.h"

namespace tpscope::core {
namespace {

EventColumns alternating(int pairs, std::int64_t gemmNs, std::int64_t commNs) {
    EventColumns c;
    for (int i = 0; i < pairs; ++i) {
        const std::int64_t t = i * (gemmNs + commNs);
        c.append({t, gemmNs, NameId{}, EventKind::Gemm, 0, kNoPayload});
        c.append({t + gemmNs, commNs, NameId{}, EventKind::Collective, 0, kNoPayload});
    }
    c.finalize();
    return c;
}

TEST(KindMix, SharesAreTimeWeightedAndExactForSmallItems) {
    const auto c = alternating(10, 700, 300);
    const LodSpan all{0, c.endNs(c.size() - 1), 0, c.size(), 0, EventKind::Gemm};
    const auto mix = kindMix(c, all);
    EXPECT_DOUBLE_EQ(mix[static_cast<std::size_t>(EventKind::Gemm)], 7000.0 / 10000.0);
    EXPECT_DOUBLE_EQ(mix[static_cast<std::size_t>(EventKind::Collective)], 3000.0 / 10000.0);
    EXPECT_DOUBLE_EQ(mix[static_cast<std::size_t>(EventKind::Other)], 0.0);
}

TEST(KindMix, LargeItemsAreEstimatedFromEvenlySpreadSamples) {
    const auto c = alternating(50'000, 700, 300);
    const LodSpan all{0, c.endNs(c.size() - 1), 0, c.size(), 0, EventKind::Gemm};
    const auto mix = kindMix(c, all, 64);
    EXPECT_NEAR(mix[static_cast<std::size_t>(EventKind::Collective)], 0.3, 0.05);
    double sum = 0;
    for (const double v : mix) sum += v;
    EXPECT_NEAR(sum, 1.0, 1e-12);
}

TEST(KindMix, ZeroDurationEventsAreCountedAndAnEmptyItemIsNothing) {
    EventColumns c;
    c.append({0, 0, NameId{}, EventKind::Memset, 0, kNoPayload});
    c.append({1, 0, NameId{}, EventKind::Gemm, 0, kNoPayload});
    c.finalize();
    const auto mix = kindMix(c, LodSpan{0, 1, 0, 2, 0, EventKind::Gemm});
    EXPECT_DOUBLE_EQ(mix[static_cast<std::size_t>(EventKind::Memset)], 0.5);
    EXPECT_DOUBLE_EQ(mix[static_cast<std::size_t>(EventKind::Gemm)], 0.5);
    const auto none = kindMix(c, LodSpan{0, 1, 5, 3, 0, EventKind::Gemm});  // past the end
    for (const double v : none) EXPECT_EQ(v, 0.0);
}

}  // namespace
}  // namespace tpscope::core
