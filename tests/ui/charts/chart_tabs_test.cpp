// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// The chart tabs inside the main window: fed from the runs table once a sweep finishes, following
// the selected run, the run panel's price, and a layer click moving the timeline.
#include <qcustomplot.h>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include "tests/ui/ui_test_support.h"
#include "ui/charts/chart_set.h"
#include "ui/document/run_document.h"
#include "ui/timeline/timeline_panel.h"
#include "ui/window/chart_tabs.h"
#include "ui/window/main_window.h"
#include "ui/window/report_export.h"
#include "ui/window/run_panel.h"

namespace tpscope::ui {
namespace {

constexpr int kWaitMs = 120'000;

struct ChartTabsInWindow : test::AppGuard, ::testing::Test {
    MainWindow window{defaultServices()};
    ChartTabsInWindow() {
        window.setUnsavedPrompt([](QWidget*) { return QMessageBox::Discard; });
        QSignalSpy finished(&window, &MainWindow::sweepFinished);
        window.startDefaultSweep();
        EXPECT_TRUE(finished.wait(kWaitMs));
    }
    ChartSet* charts() const { return window.chartTabs()->charts(); }
    RunId runWithTp(int tp) const {
        for (const RunId id : window.document()->ids()) {
            if (window.document()->run(id)->request.tp == tp) return id;
        }
        return RunId::None;
    }
};

TEST_F(ChartTabsInWindow, TheTabsAreThereAndHoldTheFinishedRuns) {
    QStringList titles;
    for (int i = 0; i < window.tabs()->count(); ++i) titles << window.tabs()->tabText(i);
    // The chart tabs and Compare follow the timeline; the planning tabs (Calculator, Advice, ...) come after.
    EXPECT_EQ(titles.mid(0, 5),
              (QStringList{QStringLiteral("Timeline"), QStringLiteral("Layers"), QStringLiteral("Scaling"),
                           QStringLiteral("Cost"), QStringLiteral("Compare")}));
    // TP 1 does not fit: the charts get the three runs that finished.
    ASSERT_EQ(charts()->controller()->runs().size(), 3u);
    ASSERT_TRUE(charts()->controller()->scaling().ok());
    EXPECT_EQ(charts()->controller()->scaling()->batches.at(0).baselineGpus, 2);
    EXPECT_EQ(charts()->cost()->pricePerGpuHour(), window.runPanel()->pricePerGpuHour());
}

TEST_F(ChartTabsInWindow, TheLayersTabFollowsTheSelectedRun) {
    window.selectRun(runWithTp(2));
    const ChartRun* run = charts()->controller()->currentChartRun();
    ASSERT_NE(run, nullptr);
    EXPECT_EQ(run->gpus, 2);
    EXPECT_EQ(run->trace, window.document()->run(runWithTp(2))->trace);
    EXPECT_EQ(run->analysis, window.document()->run(runWithTp(2))->analysis) << "the document's analysis, not a copy";
    window.selectRun(runWithTp(8));
    EXPECT_EQ(charts()->controller()->currentChartRun()->gpus, 8);
}

TEST_F(ChartTabsInWindow, ClickingALayerShowsItOnTheTimeline) {
    window.selectRun(runWithTp(8));
    window.tabs()->setCurrentWidget(charts()->layers());
    charts()->layers()->activateLayer(5);
    const auto span = core::analysis::firstLayerSpan(charts()->controller()->currentChartRun()->analysis->breakdown, 5);
    ASSERT_TRUE(span.has_value());
    EXPECT_EQ(window.tabs()->currentWidget(), window.timelinePanel());
    EXPECT_EQ(window.timelinePanel()->view()->viewStartNs(), span->startNs);
    EXPECT_EQ(window.timelinePanel()->view()->viewEndNs(), span->endNs);
}

TEST_F(ChartTabsInWindow, ExportReportWritesAPdf) {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("r.pdf"));
    const auto status = window.reportExport()->exportReport(path);
    ASSERT_TRUE(status.ok()) << status.error().describe();
    QFile f(path);
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    EXPECT_TRUE(f.read(5) == "%PDF-");
}

}  // namespace
}  // namespace tpscope::ui
