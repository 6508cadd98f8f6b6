// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/util/task_control.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

namespace tpscope::core {
namespace {

TEST(TaskControl, ReportClampsTheFractionIntoZeroToOne) {
    std::vector<double> seen;
    const TaskControl control{[&](double f) { seen.push_back(f); }};
    for (const double f : {-0.5, 0.0, 0.25, 1.0, 1.75}) control.report(f);
    EXPECT_EQ(seen, (std::vector<double>{0.0, 0.0, 0.25, 1.0, 1.0}));
}

TEST(TaskControl, WithoutACallbackOrFlagItReportsNothingAndIsNeverCancelled) {
    const TaskControl control;
    control.report(0.5);  // no callback: nothing to call, nothing to crash
    EXPECT_FALSE(control.cancelled());
}

TEST(TaskControl, SeesAFlagRaisedOnAnotherThread) {
    CancelFlag cancel{false};
    const TaskControl control{{}, &cancel};
    EXPECT_FALSE(control.cancelled());
    std::thread([&] { cancel.store(true); }).join();
    EXPECT_TRUE(control.cancelled());
}

// A richer progress value (a sweep's) passes through report() unchanged: only fractions are clamped.
struct Counter {
    int done = 0;
    int total = 0;
};

TEST(TaskControl, AStructProgressIsPassedThroughAsIs) {
    std::vector<int> done;
    const TaskControlOf<Counter> control{[&](const Counter& c) { done.push_back(c.done * 10 + c.total); }};
    control.report({-3, 2});
    control.report({7, 2});
    EXPECT_EQ(done, (std::vector<int>{-28, 72}));
}

}  // namespace
}  // namespace tpscope::core
