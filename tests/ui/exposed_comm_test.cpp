// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/analysis/exposed_comm.h"

#include <gtest/gtest.h>

#include "ui/timeline/timeline_data.h"
#include "ui_test_support.h"

namespace tpscope::ui {
namespace {

TEST(ExposedComm, UnionMergesOverlapsAndTouchingIntervals) {
    EXPECT_EQ(core::analysis::unionOf({{5, 8}, {0, 3}, {3, 4}, {7, 10}, {12, 12}}),
              (std::vector<core::analysis::TimeInterval>{{0, 4}, {5, 10}}));
}

TEST(ExposedComm, SubtractRemovesEveryCoveredPart) {
    EXPECT_EQ(core::analysis::subtract({{0, 10}, {20, 30}}, {{2, 4}, {8, 22}, {25, 26}}),
              (std::vector<core::analysis::TimeInterval>{{0, 2}, {4, 8}, {22, 25}, {26, 30}}));
    EXPECT_EQ(core::analysis::subtract({{0, 10}}, {}), (std::vector<core::analysis::TimeInterval>{{0, 10}}));
    EXPECT_TRUE(core::analysis::subtract({{0, 10}}, {{0, 10}}).empty());
}

TEST(ExposedComm, CollectiveTimeOverlappedByComputeIsNotExposed) {
    // Compute [0,10) [10,20) [40,50); collective [15, 45): exposed = [20, 40).
    const auto trace = test::makeTrace(1,
                                       {{0, 10, core::EventKind::Gemm, "a"},
                                        {10, 10, core::EventKind::Gemm, "b"},
                                        {40, 10, core::EventKind::Elementwise, "c"}},
                                       {{15, 30, core::EventKind::Collective, "nccl"}});
    EXPECT_EQ(core::analysis::exposedCommIntervals(trace->ranks[0]),
              (std::vector<core::analysis::TimeInterval>{{20, 40}}));
}

// TimelineData::exposedNs sums the exposed time of a window from per-block sums: it must equal the
// plain sum of each interval clipped to the window, for windows that cut intervals, cover them
// whole, fall in gaps, and span many blocks.
TEST(ExposedComm, ExposedTimeOfAWindowIsTheClippedSumOfItsIntervals) {
    std::vector<test::KernelSpec> comm;
    std::int64_t t = 1'000;
    for (int i = 0; i < 5 * static_cast<int>(kExposedBlock) + 7; ++i) {
        const std::int64_t dur = 100 + (i * 37) % 400;
        comm.push_back({t, dur, core::EventKind::Collective, "nccl"});
        t += dur + 50 + (i * 13) % 200;
    }
    const auto trace = test::makeTrace(1, {}, comm);  // no compute: every collective is exposed
    const auto data = TimelineData::build(*trace);
    ASSERT_EQ(data->ranks()[0].exposed.size(), comm.size());
    ASSERT_FALSE(data->ranks()[0].exposedBlockSum.empty());
    const auto expected = [&](std::int64_t t0, std::int64_t t1) {
        std::int64_t sum = 0;
        for (const auto& k : comm)
            sum += std::max<std::int64_t>(0, std::min(k.startNs + k.durNs, t1) - std::max(k.startNs, t0));
        return sum;
    };
    const std::int64_t end = t + 1'000;
    for (std::int64_t t0 = 0; t0 < end; t0 += 997) {
        for (std::int64_t len : {std::int64_t{1}, std::int64_t{75}, std::int64_t{460}, std::int64_t{9'001}, end}) {
            EXPECT_EQ(data->exposedNs(0, t0, t0 + len), expected(t0, t0 + len)) << t0 << " +" << len;
        }
    }
    EXPECT_EQ(data->exposedNs(0, 0, end), expected(0, end));
    EXPECT_EQ(data->exposedNs(0, comm[3].startNs, comm[3].startNs + comm[3].durNs), comm[3].durNs);
    EXPECT_EQ(data->exposedNs(0, 500, 400), 0);  // an empty window
}

}  // namespace
}  // namespace tpscope::ui
