// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// The measured bandwidth roof's arithmetic, on timings given by hand (the copy itself needs a GPU).

#include <gtest/gtest.h>

#include "gpu/copy_roof.h"

namespace tpscope::gpu {
namespace {

TEST(CopyRoof, RoofIsTheFastestCopyOfReadPlusWriteBytes) {
    const std::uint64_t buffer = std::uint64_t{1} << 30;
    // Out of order on purpose: the roof is the fastest, the median the middle one.
    const auto roof = copyRoofFromTimes(3, buffer, {0.80F, 0.60F, 0.70F});
    ASSERT_TRUE(roof.ok()) << roof.error().message;
    const double moved = 2.0 * static_cast<double>(buffer);
    EXPECT_EQ(roof->device, 3);
    EXPECT_EQ(roof->repeats, 3);
    EXPECT_DOUBLE_EQ(roof->bestBytesPerSec, moved / (static_cast<double>(0.60F) * 1e-3));
    EXPECT_DOUBLE_EQ(roof->medianBytesPerSec, moved / (static_cast<double>(0.70F) * 1e-3));
}

TEST(CopyRoof, MedianOfAnEvenCountIsTheMeanOfTheMiddleTwo) {
    const auto roof = copyRoofFromTimes(0, 1000, {1.0F, 4.0F, 2.0F, 3.0F});
    ASSERT_TRUE(roof.ok());
    EXPECT_DOUBLE_EQ(roof->medianBytesPerSec, 2000.0 / (2.5 * 1e-3));
}

TEST(CopyRoof, NoTimingsOrAZeroTimingIsRefusedWithTheReason) {
    const auto none = copyRoofFromTimes(0, 1000, {});
    ASSERT_FALSE(none.ok());
    EXPECT_NE(none.error().message.find("no timed copies"), std::string::npos);
    const auto zero = copyRoofFromTimes(0, 1000, {0.5F, 0.0F});
    ASSERT_FALSE(zero.ok());
    EXPECT_NE(zero.error().message.find("took no time"), std::string::npos);
}

}  // namespace
}  // namespace tpscope::gpu
