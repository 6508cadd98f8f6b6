// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// A small simulated sweep (Llama-3 8B, TP 1/2/4, batch 1 and 8, two tokens) analysed once and fed
// to a window-less ChartSet, shared by the chart tests. Expected numbers are asked of core directly.

#include <gtest/gtest.h>

#include <memory>

#include "core/analysis/analysis.h"
#include "core/hw/catalog.h"
#include "core/sim/sweep.h"
#include "tests/ui/ui_test_support.h"
#include "ui/charts/chart_set.h"
#include "ui/report/report_runs.h"

namespace tpscope::test {

inline const ui::ReportRuns& smallSweep() {
    static const ui::ReportRuns runs = [] {
        auto catalog = core::Catalog::load();
        EXPECT_TRUE(catalog.ok());
        core::sim::SweepSpec spec;
        spec.model = *catalog->model("llama3-8b");
        spec.cluster.gpu = *catalog->gpu("h100-sxm");
        spec.cluster.intraFabric = *catalog->fabric("nvlink4");
        spec.cluster.gpusPerNode = 4;
        spec.tps = {1, 2, 4};
        spec.batches = {1, 8};
        spec.tokens = 2;
        spec.contextLen = 256;
        auto r = ui::simulatedReportRuns(spec, QStringLiteral("test sweep"));
        EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().describe());
        return r.ok() ? *r : ui::ReportRuns{};
    }();
    return runs;
}

// The scaling report core gives for the sweep at a price: what the charts must show.
inline core::analysis::ScalingReport expectedScaling(double price) {
    std::vector<core::analysis::RunPoint> points;
    for (const auto& r : smallSweep().runs) {
        points.push_back(core::analysis::runPointOf(*r.trace, *r.analysis, r.label.toStdString(), r.gpus, r.batch));
    }
    auto report = core::analysis::analyzeScaling(points, {.pricePerGpuHour = price});
    EXPECT_TRUE(report.ok());
    return report.ok() ? *report : core::analysis::ScalingReport{};
}

struct ChartsFixture : AppGuard, ::testing::Test {
    std::unique_ptr<ui::ChartSet> charts = std::make_unique<ui::ChartSet>();
    ChartsFixture() {
        charts->resizePages(QSize(1000, 700));
        charts->controller()->setPricePerGpuHour(2.0);
        charts->controller()->setRuns(smallSweep().runs);
    }
};

}  // namespace tpscope::test
