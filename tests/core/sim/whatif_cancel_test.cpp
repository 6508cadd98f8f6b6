// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// runWhatIf's control (issue 28 §2: the GUI cancels a replay when its window closes): progress in
// thirds up to 1, and a Cancelled error at the first check once the flag is set, before the
// prediction is analysed.

#include <gtest/gtest.h>

#include <vector>

#include "core/sim/whatif_report.h"
#include "sim_test_support.h"

namespace tpscope::core::sim {
namespace {

std::shared_ptr<const Trace> smallTrace() {
    SimConfig c = test::simConfig("llama3-8b", "h100-sxm", "nvlink4", 4, 1, 2);
    c.plan.model = test::smallModel();
    auto r = simulate(c);
    EXPECT_TRUE(r.ok()) << (r ? "" : r.error().describe());
    return r ? r->trace : nullptr;
}

WhatIfOptions onPcie() {
    WhatIfOptions o;
    o.fabric = *test::catalog().fabric("pcie4");
    o.gpusPerNode = 8;
    return o;
}

TEST(WhatIfControl, ReportsProgressToTheEnd) {
    auto trace = smallTrace();
    ASSERT_TRUE(trace);
    std::vector<double> seen;
    TaskControl control;
    control.progress = [&](double f) { seen.push_back(f); };
    auto run = runWhatIf(*trace, {}, onPcie(), control);
    ASSERT_TRUE(run.ok()) << run.error().describe();
    ASSERT_EQ(seen.size(), 3u);
    EXPECT_DOUBLE_EQ(seen.back(), 1.0);
    EXPECT_LT(seen.front(), seen[1]);
}

TEST(WhatIfControl, AFlagSetDuringTheReplayStopsItWithCancelled) {
    auto trace = smallTrace();
    ASSERT_TRUE(trace);
    CancelFlag cancel{false};
    int reports = 0;
    TaskControl control;
    control.cancel = &cancel;
    // The flag is set at the first report, as a window closing during the measured run's analysis.
    control.progress = [&](double) {
        ++reports;
        cancel.store(true);
    };
    auto run = runWhatIf(*trace, {}, onPcie(), control);
    ASSERT_FALSE(run.ok());
    EXPECT_EQ(run.error().code, ErrorCode::Cancelled);
    EXPECT_EQ(reports, 1) << "the replay went on after the flag was set";
}

}  // namespace
}  // namespace tpscope::core::sim
