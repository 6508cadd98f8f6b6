// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Issue 28 §2 small items, each through the widget a user sees: the legend names every kernel kind the
// timeline paints (Memset was missing), a measured range scrolled off the left leaves no band at the
// edge, and a chart page without data keeps its axes where they are on every refresh.
#include <qcustomplot.h>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include "core/hw/catalog.h"
#include "tests/ui/charts/chart_fixture.h"
#include "tests/ui/ui_test_support.h"
#include "ui/charts/scaling_page.h"
#include "ui/planning/calculator_page.h"
#include "ui/run_panel.h"
#include "ui/timeline/kind_palette.h"
#include "ui/timeline/timeline_legend.h"
#include "ui/timeline/timeline_view.h"

namespace tpscope::ui {
namespace {

struct SmallViewFixes : test::AppGuard, ::testing::Test {};

int pixelsOf(const QImage& image, const QColor& color) {
    int n = 0;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x) n += image.pixel(x, y) == color.rgb() ? 1 : 0;
    }
    return n;
}

TEST_F(SmallViewFixes, TheLegendShowsEveryKernelKindTheTimelinePaints) {
    TimelineLegend legend;
    legend.resize(legend.sizeHint());
    const QImage image = legend.grab().toImage();
    for (int k = 0; k < core::kEventKindCount; ++k) {
        const auto kind = static_cast<core::EventKind>(k);
        EXPECT_GT(pixelsOf(image, kindColor(kind)), 50) << kindLabel(kind).toStdString();
    }
}

TEST_F(SmallViewFixes, ARangeScrolledOffTheLeftLeavesNoBandAtTheEdge) {
    TimelineView view;
    view.resize(900, 300);
    view.setTrace(
        test::makeTrace(2, {{0, 1000, core::EventKind::Gemm, "a"}, {100'000, 1000, core::EventKind::Gemm, "b"}}, {}));
    const std::int64_t origin = view.originNs();
    view.setVisibleRange(origin + 50'000, origin + 101'000);
    const QImage without = view.grab().toImage();
    view.selectRange(origin + 10'000, origin + 20'000);  // left of what is shown
    view.setVisibleRange(origin + 50'000, origin + 101'000);
    ASSERT_TRUE(view.hasSelectedRange());
    const QImage with = view.grab().toImage();
    ASSERT_EQ(with.size(), without.size());
    // The first columns of the time area, below the ruler, are as they were without a range.
    int differing = 0;
    for (int x = view.timeAreaLeft(); x < view.timeAreaLeft() + 3; ++x) {
        for (int y = TimelineView::kRulerHeight; y < with.height(); ++y)
            differing += with.pixel(x, y) != without.pixel(x, y);
    }
    EXPECT_EQ(differing, 0);
}

TEST_F(SmallViewFixes, AChartPageWithoutDataKeepsItsAxesOnEveryRefresh) {
    ScalingPage page;
    page.resize(800, 600);
    page.clearReport(QStringLiteral("No finished runs."));
    page.fitView();
    const QCPRange x = page.plot()->xAxis->range();
    const QCPRange y = page.plot()->yAxis->range();
    for (int i = 0; i < 5; ++i) {
        page.clearReport(QStringLiteral("No finished runs."));
        page.fitView();
    }
    EXPECT_EQ(page.plot()->xAxis->range(), x);
    EXPECT_EQ(page.plot()->yAxis->range(), y);
}

TEST_F(SmallViewFixes, TheCalculatorTakesEachRunsCustomModelNotTheFirstOne) {
    auto catalog = core::Catalog::load();
    ASSERT_TRUE(catalog.ok());
    CalculatorPage page(*catalog);
    RunRequest a;
    a.model = *catalog->model("llama3-8b");
    a.model.id = "custom";
    a.model.name = "custom";
    a.gpu = *catalog->gpu("h100-sxm");
    a.tp = 2;
    page.setRun(a);
    EXPECT_EQ(page.inputs().plan.model.hidden, a.model.hidden);
    RunRequest b = a;
    b.model.hidden = 2 * a.model.hidden;
    b.model.layers = a.model.layers + 8;
    page.setRun(b);
    EXPECT_EQ(page.inputs().plan.model.hidden, b.model.hidden);
    EXPECT_EQ(page.inputs().plan.model.layers, b.model.layers);
}

TEST_F(SmallViewFixes, TheRunPanelRefusesABatchGivenTwiceAndFitsTheLargestBatch) {
    auto catalog = core::Catalog::load();
    ASSERT_TRUE(catalog.ok());
    RunPanel panel(*catalog, LocalBackendInfo{});
    panel.setDefaults();
    auto* batches = panel.findChild<QLineEdit*>(QStringLiteral("batchSizes"));
    auto* hint = panel.findChild<QLabel*>(QStringLiteral("fitHint"));
    ASSERT_NE(batches, nullptr);
    ASSERT_NE(hint, nullptr);
    batches->setText(QStringLiteral("8,1,8"));
    EXPECT_FALSE(panel.sweepRequest().ok());
    // The memory fit of a sweep is its largest batch's, in whatever order the batches are typed.
    batches->setText(QStringLiteral("512"));
    ASSERT_TRUE(panel.sweepRequest().ok());
    const QString largest = hint->text();
    batches->setText(QStringLiteral("1"));
    ASSERT_NE(hint->text(), largest) << "batch 512 must need more memory than batch 1 here";
    batches->setText(QStringLiteral("512,1"));
    EXPECT_EQ(hint->text(), largest);
}

struct ChartExportLayout : test::ChartsFixture {};

TEST_F(ChartExportLayout, ThePlotOnScreenKeepsItsLayoutAfterAnExportAtAnotherSize) {
    auto* plot = charts->scaling()->plot();
    plot->replot(QCustomPlot::rpImmediateRefresh);
    const QRect before = plot->axisRect()->rect();
    QTemporaryDir dir;
    ASSERT_TRUE(charts->scaling()->exportTo({dir.filePath(QStringLiteral("s.png")), QSize(1600, 1000), 1.0}).ok());
    // Hover maps pixels through this rectangle: it must be the screen's again, not the export's.
    EXPECT_EQ(plot->axisRect()->rect(), before);
}

}  // namespace
}  // namespace tpscope::ui
