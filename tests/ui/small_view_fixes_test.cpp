// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Issue 28 §2 small items, each through the widget a user sees: the legend names every kernel kind the
// timeline paints (Memset was missing), a measured range scrolled off the left leaves no band at the
// edge, and a chart page without data keeps its axes where they are on every refresh.
#include <qcustomplot.h>
#include <QHeaderView>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QTableView>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include <tuple>
#include <vector>

#include "core/hw/catalog.h"
#include "tests/ui/charts/chart_fixture.h"
#include "tests/ui/main_window_test_support.h"
#include "tests/ui/ui_test_support.h"
#include "ui/charts/scaling_page.h"
#include "ui/export/plot_export.h"
#include "ui/palette_colors.h"
#include "ui/planning/calculator_page.h"
#include "ui/timeline/kind_palette.h"
#include "ui/timeline/timeline_legend.h"
#include "ui/timeline/timeline_panel.h"
#include "ui/timeline/timeline_view.h"
#include "ui/window/main_window.h"
#include "ui/window/planning_tabs.h"
#include "ui/window/run_panel.h"

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

TEST_F(SmallViewFixes, EachBaselineHasItsOwnIdealLine) {
    // Batch 1 ran from 1 GPU, batch 64 only from 2 (it did not fit 1): two baselines.
    std::vector<core::analysis::RunPoint> points;
    for (const auto& [gpus, batch, stepNs] : std::vector<std::tuple<int, int, double>>{
             {1, 1, 10e6}, {2, 1, 6e6}, {4, 1, 4e6}, {2, 64, 20e6}, {4, 64, 12e6}}) {
        core::analysis::RunPoint p;
        p.label = "TP " + std::to_string(gpus);
        p.gpus = gpus;
        p.batch = batch;
        p.stepLatencyNs = stepNs;
        p.tokensPerSec = batch / (stepNs * 1e-9);
        points.push_back(p);
    }
    const auto report = core::analysis::analyzeScaling(points);
    ASSERT_TRUE(report.ok()) << report.error().describe();
    ASSERT_EQ(report->batches.size(), 2u);
    ASSERT_EQ(report->batches[1].baselineGpus, 2);
    ScalingPage page;
    page.setReport(*report);
    ASSERT_EQ(page.idealGraphs().size(), 2u);
    for (const auto* ideal : page.idealGraphs()) {
        const int base = static_cast<int>(ideal->data()->begin()->key);
        // Through (baseline, 1) with slope 1 / baseline.
        EXPECT_DOUBLE_EQ(ideal->data()->begin()->value, 1.0);
        const auto last = ideal->data()->end() - 1;
        EXPECT_DOUBLE_EQ(last->value, last->key / base);
    }
    EXPECT_NE(page.idealGraphs()[0]->data()->begin()->key, page.idealGraphs()[1]->data()->begin()->key);
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

TEST_F(ChartExportLayout, TheLayersTableOpensSortedByLayerAscending) {
    const auto* view = charts->layers()->tableView();
    ASSERT_NE(view, nullptr);
    const auto* shown = view->model();
    ASSERT_GT(shown->rowCount(), 2);
    EXPECT_EQ(view->horizontalHeader()->sortIndicatorSection(), 0);
    EXPECT_EQ(view->horizontalHeader()->sortIndicatorOrder(), Qt::AscendingOrder);
    for (int r = 0; r < shown->rowCount(); ++r) EXPECT_EQ(shown->index(r, 0).data(Qt::UserRole).toInt(), r) << r;
}

TEST_F(SmallViewFixes, ExportViewTakesTheFormatOfTheChosenFilterWhenTheNameHasNone) {
    const QStringList formats{QStringLiteral("png"), QStringLiteral("svg"), QStringLiteral("pdf")};
    EXPECT_EQ(withChosenSuffix(QStringLiteral("/t/chart"), QStringLiteral("SVG (*.svg)"), formats),
              QStringLiteral("/t/chart.svg"));
    EXPECT_EQ(withChosenSuffix(QStringLiteral("/t/chart.PNG"), QStringLiteral("SVG (*.svg)"), formats),
              QStringLiteral("/t/chart.PNG"));
    EXPECT_EQ(withChosenSuffix(QStringLiteral("/t/v1.2"), QStringLiteral("PDF (*.pdf)"), formats),
              QStringLiteral("/t/v1.2.pdf"));
}

// §4: a dark desktop gets a dark timeline and a readable calculator error; the screenshot is
// <build>/screenshots/main-dark.png.
TEST_F(SmallViewFixes, UnderADarkPaletteTheTimelineAndTheCalculatorFollowIt) {
    MainWindow window(defaultServices());
    window.resize(1600, 1000);
    window.setPalette(test::darkPalette());
    window.show();
    ASSERT_NO_FATAL_FAILURE(test::runDefaultSweep(window));
    window.focusTimelineOnExample();
    QApplication::processEvents();
    const QImage image = window.grab().toImage();
    EXPECT_TRUE(image.save(test::screenshotDir() + "/main-dark.png"));
    const TimelineView* view = window.timelinePanel()->view();
    const QImage timeline = const_cast<TimelineView*>(view)->grab().toImage();
    // The ruler's corner (left of its caption) is the palette's window colour, not a light grey.
    EXPECT_LT(timeline.pixelColor(3, 3).lightness(), 96) << timeline.pixelColor(3, 3).name().toStdString();
    // Its text, the rank names in the gutter, read against it.
    const auto colors = TimelineColors::fromPalette(view->palette());
    EXPECT_GE(contrastRatio(colors.text, colors.panel), 7.0);
    auto* problem = window.planningTabs()->calculator()->findChild<QLabel*>(QStringLiteral("calculatorProblem"));
    ASSERT_NE(problem, nullptr);
    EXPECT_GE(
        contrastRatio(problem->palette().color(QPalette::WindowText), test::darkPalette().color(QPalette::Window)),
        4.5);
}

}  // namespace
}  // namespace tpscope::ui
