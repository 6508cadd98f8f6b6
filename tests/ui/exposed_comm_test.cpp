#include "core/analysis/exposed_comm.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace tpscope::ui
