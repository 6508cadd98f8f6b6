// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// HBM contention in overlap mode (core/sim/hbm_contention.h). Expected ends are worked out by hand
// in each comment: outside a window a kernel runs at full speed, inside one at (1 - share).

#include <gtest/gtest.h>

#include "core/sim/hbm_contention.h"

namespace tpscope::core::sim {
namespace {

TEST(HbmContention, KernelOutsideEveryWindowRunsAtFullSpeed) {
    HbmWindows w;
    w.push({100, 200, 0.5});
    EXPECT_DOUBLE_EQ(w.stretchedEnd(0, 50), 50);     // ends before the window opens
    EXPECT_DOUBLE_EQ(w.stretchedEnd(250, 40), 290);  // starts after it closed
}

TEST(HbmContention, KernelInsideAWindowRunsAtOneMinusShare) {
    HbmWindows w;
    w.push({0, 1000, 0.25});
    // 60 ns of work at 0.75 of the speed: 60 / 0.75 = 80 ns.
    EXPECT_DOUBLE_EQ(w.stretchedEnd(100, 60), 180);
}

TEST(HbmContention, KernelSpanningAWindowIsSlowedOnlyInsideIt) {
    HbmWindows w;
    w.push({100, 200, 0.5});
    // [50, 100): 50 work at full speed; [100, 200): 100 ns at 0.5 = 50 work; 20 work left after 200.
    EXPECT_DOUBLE_EQ(w.stretchedEnd(50, 120), 220);
}

TEST(HbmContention, OlderWindowCountsWhenTheNewerOneSitsInSlotZero) {
    HbmWindows w;
    w.push({0, 100, 0.5});    // slot 0
    w.push({200, 300, 0.5});  // slot 1
    w.push({400, 500, 0.5});  // slot 0 again: the ring now holds the newer window first
    // From 250: [250, 300) inside the older window = 25 work; 75 left, free until 400: ends at 375.
    // Walking the slots in ring order skipped the older window and gave 350.
    EXPECT_DOUBLE_EQ(w.stretchedEnd(250, 100), 375);
    // Through both: [250,300) 25 work, [300,400) 100, [400,500) 50 -> 175 done, 5 left: 505.
    EXPECT_DOUBLE_EQ(w.stretchedEnd(250, 180), 505);
}

TEST(HbmContention, ZeroShareWindowChangesNothing) {
    HbmWindows w;
    w.push({0, 1000, 0});
    EXPECT_DOUBLE_EQ(w.stretchedEnd(10, 100), 110);
}

}  // namespace
}  // namespace tpscope::core::sim
