// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Issue 28 §3: Compare with four runs at 1600×1000. Each pane opens with its ranks folded to one
// summary lane per GPU (a click on a GPU's header expands it), one legend serves every pane, the panes
// scroll together, and the user picks the baseline. The screenshot with three public traces and a
// simulated run shows kernel pixels in every pane (<build>/screenshots/compare-four-runs.png).
#include <QComboBox>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>

#include <gtest/gtest.h>

#include "compare_test_support.h"
#include "test_support.h"
#include "ui/compare/compare_view.h"
#include "ui/timeline/kind_palette.h"
#include "ui/timeline/timeline_legend.h"
#include "ui/timeline/timeline_panel.h"
#include "ui/timeline/timeline_view.h"
#include "ui/window/compare_controller.h"

namespace tpscope::ui {
namespace {

constexpr int kWaitMs = 60'000;

struct CompareFourRuns : test::AppGuard, ::testing::Test {};

CompareRun compareRunOf(const RunRecord& r, const QString& label) {
    return {r.id, label, r.trace, r.timeline, r.analysis};
}

// Pixels of any kernel colour (solid or folded) in the pane's lanes and summary strips, in `image`
// of `top` (a widget holding the pane).
int kernelPixels(const QWidget& top, const QImage& image, const TimelineView& view) {
    std::vector<QRgb> colours;
    for (int k = 0; k < core::kEventKindCount; ++k) {
        colours.push_back(kindColor(static_cast<core::EventKind>(k)).rgb());
        colours.push_back(foldedColor(static_cast<core::EventKind>(k)).rgb());
    }
    const QPoint origin = view.mapTo(&top, QPoint(0, 0));
    int n = 0;
    for (const auto& row : view.layout().rows()) {
        if (row.kind != RowKind::Stream && row.kind != RowKind::Summary) continue;
        const int y0 =
            std::max(origin.y() + view.rulerHeight() + row.y - view.verticalOffset(), origin.y() + view.rulerHeight());
        const int y1 = std::min(origin.y() + view.rulerHeight() + row.y - view.verticalOffset() + row.height,
                                origin.y() + view.height());
        for (int y = y0; y < y1; ++y) {
            for (int x = origin.x() + view.timeAreaLeft(); x < origin.x() + view.width(); ++x) {
                if (y >= 0 && y < image.height() && x < image.width() &&
                    std::find(colours.begin(), colours.end(), image.pixel(x, y)) != colours.end())
                    ++n;
            }
        }
    }
    return n;
}

std::vector<CompareRun> fourSimulatedRuns() {
    std::vector<CompareRun> runs;
    for (const int tp : {1, 2, 4, 8}) {
        RunRecord r = test::simulatedRecord(test::smallRequest(tp));
        r.id = static_cast<RunId>(tp);
        runs.push_back(compareRunOf(r, QStringLiteral("TP %1").arg(tp)));
    }
    return runs;
}

TEST_F(CompareFourRuns, PanesOpenFoldedWithOneLegendAndScrollTogether) {
    CompareView view;
    view.resize(1600, 1000);
    view.show();
    ASSERT_TRUE(view.setRuns(fourSimulatedRuns()).ok());
    ASSERT_EQ(view.paneCount(), 4);
    // One legend for the view: the panes' own are hidden.
    int shownLegends = 0;
    for (const auto* legend : view.findChildren<TimelineLegend*>()) shownLegends += legend->isVisible() ? 1 : 0;
    EXPECT_EQ(shownLegends, 1);
    for (int i = 0; i < view.paneCount(); ++i) {
        const TimelineView* pane = view.paneView(i);
        for (int r = 0; r < static_cast<int>(pane->trace()->ranks.size()); ++r) EXPECT_TRUE(pane->rankCollapsed(r));
        // One ruler for the shared axis: the first pane's.
        EXPECT_EQ(pane->rulerHeight(), i == 0 ? TimelineView::kRulerHeight : 0) << i;
    }
    // The TP 8 pane expands a GPU on a click; the rows grow taller than the pane, and a scroll there
    // scrolls the others as far as they go.
    TimelineView* tp8 = view.paneView(3);
    tp8->setAllRanksCollapsed(false);
    ASSERT_FALSE(tp8->rankCollapsed(0));
    view.paneView(2)->setAllRanksCollapsed(false);
    tp8->setVerticalOffset(40);
    EXPECT_EQ(view.paneView(2)->verticalOffset(), 40);
}

TEST_F(CompareFourRuns, TheUserPicksTheBaselineOfEveryDelta) {
    CompareView view;
    view.resize(1600, 1000);
    ASSERT_TRUE(view.setRuns(fourSimulatedRuns()).ok());
    EXPECT_EQ(view.comparison().runs.front().label, "TP 1");
    auto* baseline = view.findChild<QComboBox*>(QStringLiteral("compareBaseline"));
    ASSERT_NE(baseline, nullptr);
    ASSERT_EQ(baseline->count(), 4);
    // As the user picks "TP 4" in the combo box.
    baseline->setCurrentIndex(2);
    Q_EMIT baseline->activated(2);
    EXPECT_EQ(view.baselineRun(), static_cast<RunId>(4));
    ASSERT_EQ(view.comparison().runs.size(), 4u);
    EXPECT_EQ(view.comparison().runs[0].label, "TP 4");
    EXPECT_EQ(view.comparison().runs[1].label, "TP 1");  // the others keep their order
    EXPECT_EQ(view.comparison().runs[3].label, "TP 8");
    EXPECT_EQ(baseline->currentIndex(), 0);
}

TEST_F(CompareFourRuns, ThreePublicTracesAndASimulatedRunShowKernelsInEveryPane) {
    TPSCOPE_REQUIRE_PUBLIC("param-dlrm_kineto-8rank");
    TPSCOPE_REQUIRE_PUBLIC("tracelens-h100-qwen/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz");
    TPSCOPE_REQUIRE_PUBLIC("hta-nccl_parser_config/nccl_data.json.gz");
    MainWindow window(defaultServices());
    window.setUnsavedPrompt([](QWidget*) { return QMessageBox::Discard; });
    window.resize(1600, 1000);
    window.show();
    for (const char* file : {"param-dlrm_kineto-8rank", "tracelens-h100-qwen/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz",
                             "hta-nccl_parser_config/nccl_data.json.gz"}) {
        QSignalSpy opened(&window, &MainWindow::documentOpened);
        QSignalSpy failed(&window, &MainWindow::openFailed);
        window.openPath(QString::fromStdString((test::publicTraces() / file).string()));
        ASSERT_TRUE(QTest::qWaitFor([&] { return opened.count() + failed.count() > 0; }, kWaitMs)) << file;
        ASSERT_EQ(failed.count(), 0) << window.lastError().toStdString();
    }
    window.document()->add(test::simulatedRecord(test::smallRequest(8)));
    ASSERT_EQ(window.document()->size(), 4u);
    const auto status = window.compareController()->compare(window.document()->ids());
    ASSERT_TRUE(status.ok()) << status.error().describe();
    QApplication::processEvents();
    // Four stacked panes and the tables fit the window: it never grows past 1600 x 1000 to hold them.
    EXPECT_LE(window.minimumSizeHint().height(), 1000);
    const QImage image = window.grab().toImage();
    EXPECT_EQ(image.size(), QSize(1600, 1000));
    EXPECT_TRUE(image.save(test::screenshotDir() + "/compare-four-runs.png"));
    const auto* view = window.compareController()->view();
    ASSERT_EQ(view->paneCount(), 4);
    for (int i = 0; i < view->paneCount(); ++i) {
        EXPECT_GT(kernelPixels(window, image, *view->paneView(i)), 50)
            << "pane " << i << ": " << view->runs()[static_cast<std::size_t>(i)].label.toStdString();
    }
}

}  // namespace
}  // namespace tpscope::ui
