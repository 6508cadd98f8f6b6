#include "core/util/statistics.h"

#include <gtest/gtest.h>

namespace tpscope::core {
namespace {

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

}  // namespace
}  // namespace tpscope::core
