// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/timeline/time_ruler.h"

#include <gtest/gtest.h>

namespace tpscope::ui {
namespace {

TEST(TimeRuler, StepIsTheSmallestOneTwoFiveValueAtLeastTheMinimumSpacing) {
    EXPECT_EQ(tickStepNs(1.0, 100), 100);
    EXPECT_EQ(tickStepNs(1.5, 100), 200);
    EXPECT_EQ(tickStepNs(3.0, 100), 500);
    EXPECT_EQ(tickStepNs(6.0, 100), 1000);
    EXPECT_EQ(tickStepNs(0.001, 100), 1);
    EXPECT_EQ(tickStepNs(1e6, 110), 200'000'000);
}

TEST(TimeRuler, TicksCoverTheRangeWithMajorsOnStepMultiples) {
    const auto ticks = rulerTicks(150, 1150, 500);
    ASSERT_FALSE(ticks.empty());
    EXPECT_EQ(ticks.front().timeNs, 200);
    int majors = 0;
    for (const auto& t : ticks) {
        EXPECT_GE(t.timeNs, 150);
        EXPECT_LT(t.timeNs, 1150);
        EXPECT_EQ(t.major, t.timeNs % 500 == 0);
        majors += t.major;
    }
    EXPECT_EQ(majors, 2);          // 500 and 1000
    EXPECT_EQ(ticks.size(), 10u);  // every 100 ns from 200 to 1100
}

TEST(TimeRuler, LabelsUseOneUnitPerRulerWithEnoughDecimals) {
    EXPECT_EQ(formatTickLabel(12'345'600, 100, 13'000'000), QStringLiteral("12.3456 ms"));
    EXPECT_EQ(formatTickLabel(1'000'000, 1'000'000, 13'000'000), QStringLiteral("1 ms"));
    EXPECT_EQ(formatTickLabel(500, 100, 900), QStringLiteral("500 ns"));
    EXPECT_EQ(formatTickLabel(2'500'000'000, 500'000'000, 3'000'000'000), QStringLiteral("2.5 s"));
    EXPECT_EQ(formatTickLabel(150'000, 50'000, 400'000), QStringLiteral("150 µs"));
}

TEST(TimeRuler, DurationsPickTheirUnit) {
    EXPECT_EQ(formatDuration(812), QStringLiteral("812 ns"));
    EXPECT_EQ(formatDuration(12'410), QStringLiteral("12.41 µs"));
    EXPECT_EQ(formatDuration(15'203'000), QStringLiteral("15.203 ms"));
}

}  // namespace
}  // namespace tpscope::ui
