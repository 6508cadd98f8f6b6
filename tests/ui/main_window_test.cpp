// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// The main window driven as a user would, headless: sweeps, cancel, open, save, the unsaved prompt.
// More state regressions (opening during a sweep, stale results, counters) in main_window_state_test.cpp.

#include "ui/window/main_window.h"

#include <QLineEdit>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

#include <gtest/gtest.h>

#include <cmath>

#include "core/hw/catalog.h"
#include "core/sim/sweep.h"

#include "main_window_test_support.h"
#include "ui/document/run_document.h"
#include "ui/timeline/timeline_panel.h"
#include "ui/window/error_banner.h"
#include "ui/window/run_panel.h"
#include "ui/window/runs_model.h"

namespace tpscope::ui {
namespace {

using test::kWaitMs;
using test::runAt;
using test::SlowRuns;

struct MainWindowFixture : test::AppGuard, ::testing::Test {};

TEST_F(MainWindowFixture, CancelStopsASweepPromptlyAndKeepsTheFinishedRuns) {
    SlowRuns slow;
    MainWindow window(slow.services());
    window.setUnsavedPrompt([](QWidget*) { return QMessageBox::Discard; });
    window.runPanel()->setDefaults();  // TP 1, 2, 4, 8
    QSignalSpy finished(&window, &MainWindow::sweepFinished);
    ASSERT_TRUE(window.startSweep());
    EXPECT_TRUE(window.isSweepRunning());
    // Wait until the TP 1 run is in and the TP 2 run has started working.
    ASSERT_TRUE(
        QTest::qWaitFor([&] { return runAt(window, 0).status == RunStatus::Done && slow.stepsDone > 3; }, kWaitMs));
    window.cancelSweep();
    ASSERT_TRUE(finished.wait(kWaitMs));
    EXPECT_TRUE(finished.takeFirst().at(0).toBool());
    EXPECT_FALSE(window.isSweepRunning());
    EXPECT_LT(slow.stepsDone.load(), 1 + slow.steps) << "the TP 2 run went on to the end";
    const auto& runs = window.document()->runs();
    ASSERT_EQ(runs.size(), 4u);
    EXPECT_EQ(runs[0].status, RunStatus::Done);
    EXPECT_NE(runs[0].trace, nullptr);
    for (std::size_t i = 1; i < runs.size(); ++i) EXPECT_EQ(runs[i].status, RunStatus::Cancelled) << "run " << i;
}

TEST_F(MainWindowFixture, OpeningABadFileShowsTheErrorAndKeepsThePreviousDocument) {
    Services services = defaultServices();
    services.open = test::fakeOpen({});
    MainWindow window(services);
    window.setUnsavedPrompt([](QWidget*) { return QMessageBox::Discard; });
    window.show();
    QSignalSpy opened(&window, &MainWindow::documentOpened);
    window.openPath(QStringLiteral("/data/good.json"));
    ASSERT_TRUE(opened.wait(kWaitMs));
    ASSERT_EQ(window.document()->size(), 1u);
    const core::Trace* before = window.timelinePanel()->view()->trace();
    ASSERT_NE(before, nullptr);

    QSignalSpy failed(&window, &MainWindow::openFailed);
    window.openPath(QStringLiteral("/data/notes.txt"));
    ASSERT_TRUE(failed.wait(kWaitMs));
    EXPECT_EQ(window.document()->size(), 1u);
    EXPECT_EQ(window.timelinePanel()->view()->trace(), before);
    EXPECT_TRUE(window.lastError().contains(QStringLiteral("/data/notes.txt")));
    EXPECT_TRUE(window.lastError().contains(QStringLiteral("no traceEvents array")));
    const auto* banner = window.findChild<ErrorBanner*>();
    ASSERT_NE(banner, nullptr);
    EXPECT_TRUE(banner->isVisible());
    EXPECT_TRUE(banner->text().contains(QStringLiteral("no traceEvents array")));

    // A later success takes the stale error away.
    window.openPath(QStringLiteral("/data/good.json"));
    ASSERT_TRUE(opened.wait(kWaitMs));
    EXPECT_FALSE(banner->isVisible());
}

TEST_F(MainWindowFixture, TheDefaultSweepRunsTpOneToEightAndTpOneDoesNotFit) {
    MainWindow window(defaultServices());
    window.setUnsavedPrompt([](QWidget*) { return QMessageBox::Discard; });
    QSignalSpy finished(&window, &MainWindow::sweepFinished);
    window.startDefaultSweep();
    ASSERT_TRUE(finished.wait(kWaitMs));
    EXPECT_FALSE(finished.takeFirst().at(0).toBool());
    const auto& runs = window.document()->runs();
    ASSERT_EQ(runs.size(), 4u);
    EXPECT_EQ(runs[0].request.tp, 1);
    EXPECT_EQ(runs[0].status, RunStatus::DoesNotFit) << "a configuration memory cannot hold is not a failure";
    EXPECT_TRUE(runs[0].error.contains(QStringLiteral("does not fit"))) << runs[0].error.toStdString();
    for (std::size_t i = 1; i < 4; ++i) {
        EXPECT_EQ(runs[i].status, RunStatus::Done);
        EXPECT_EQ(runs[i].trace->ranks.size(), static_cast<std::size_t>(runs[i].request.tp));
        // One analysis per run, made on the worker; the table's numbers are its mean step.
        ASSERT_NE(runs[i].analysis, nullptr);
        EXPECT_EQ(runs[i].metrics.stepLatencyNs, runs[i].analysis->summary.latencyMeanNs);
        EXPECT_EQ(runs[i].metrics.tokensPerSec, runs[i].analysis->summary.tokensPerSec);
        if (i > 1) {
            EXPECT_GT(runs[i].metrics.tokensPerSec, runs[i - 1].metrics.tokensPerSec) << "run " << i;
        }
    }
    // The automatic sweep is not the user's work: closing does not ask to save it.
    EXPECT_FALSE(window.isModified());
    // The largest TP is on screen once the sweep is done, on one whole step of its analysis.
    EXPECT_EQ(window.currentRun(), runs[3].id);
    EXPECT_EQ(window.timelinePanel()->view()->trace(), runs[3].trace.get());
    const auto step = TimelinePanel::shownStepOf(*runs[3].analysis);
    ASSERT_TRUE(step.has_value());
    EXPECT_EQ(window.timelinePanel()->view()->viewStartNs(), step->startNs);
    EXPECT_EQ(window.timelinePanel()->view()->viewEndNs(), step->endNs);
    // At start-up the example call is selected and the whole step stays on screen; the screenshots'
    // example zooms to two layers of it.
    window.focusTimelineOnExample(/*wholeStep=*/true);
    EXPECT_TRUE(window.timelinePanel()->view()->selectedMatch().has_value());
    EXPECT_EQ(window.timelinePanel()->view()->viewStartNs(), step->startNs);
    EXPECT_EQ(window.timelinePanel()->view()->viewEndNs(), step->endNs);
    window.focusTimelineOnExample();
    EXPECT_LT(window.timelinePanel()->view()->viewEndNs() - window.timelinePanel()->view()->viewStartNs(),
              (step->endNs - step->startNs) / 4);

    // Why TP 1 does not fit, in core's words: in the Status column (neutral, not "failed" in the error
    // colour), its tooltip, the run panel and the sweep's progress line.
    auto catalog = core::Catalog::load();
    ASSERT_TRUE(catalog.ok());
    const auto spec = core::sim::defaultSweepSpec(*catalog);
    ASSERT_TRUE(spec.ok());
    const auto tp1 = core::sim::simulate(spec->configFor(1, 1));
    ASSERT_FALSE(tp1.ok());
    ASSERT_EQ(tp1.error().code, core::ErrorCode::DoesNotFit);
    const QString why = QString::fromStdString(tp1.error().describe());
    EXPECT_TRUE(why.startsWith(QStringLiteral("does not fit: needs "))) << why.toStdString();
    EXPECT_EQ(runs[0].error, why);
    const auto* model = window.runsModel();
    const int row = model->rowOf(runs[0].id);
    EXPECT_EQ(model->data(model->index(row, RunsModel::Status), Qt::DisplayRole).toString(), why);
    EXPECT_FALSE(model->data(model->index(row, RunsModel::Status), Qt::ForegroundRole).isValid());
    EXPECT_EQ(window.runPanel()->progressText(), QStringLiteral("3 of 4 runs finished, 1 not fitting"));
    EXPECT_EQ(model->data(model->index(row, RunsModel::Status), Qt::ToolTipRole).toString(), why);
    window.selectRun(runs[0].id);
    EXPECT_TRUE(window.runPanel()->shownRunHtml().contains(why.toHtmlEscaped()))
        << window.runPanel()->shownRunHtml().toStdString();

    // Efficiency only where a smaller TP of the sweep ran: TP 2 is the baseline (TP 1 failed).
    EXPECT_TRUE(std::isnan(model->efficiency(runs[1].id)));
    EXPECT_TRUE(model->data(model->index(model->rowOf(runs[1].id), RunsModel::Efficiency), Qt::DisplayRole)
                    .toString()
                    .isEmpty());
    EXPECT_FALSE(std::isnan(model->efficiency(runs[3].id)));
}

TEST_F(MainWindowFixture, InvalidRunPanelInputIsNamedAndDoesNotStartASweep) {
    MainWindow window(defaultServices());
    window.runPanel()->setDefaults();
    auto* batches = window.runPanel()->findChild<QLineEdit*>(QStringLiteral("batchSizes"));
    ASSERT_NE(batches, nullptr);
    batches->setText(QStringLiteral("1,x"));
    EXPECT_FALSE(window.runPanel()->sweepRequest().ok());
    EXPECT_FALSE(window.startSweep());
    EXPECT_TRUE(window.lastError().contains(QStringLiteral("batch sizes")));
    EXPECT_EQ(window.document()->size(), 0u);
}

TEST_F(MainWindowFixture, ClosingWithUnsavedRunsAsksAndCancelKeepsTheWindowOpen) {
    SlowRuns quick;
    quick.steps = 1;
    MainWindow window(quick.services());
    int asked = 0;
    window.setUnsavedPrompt([&](QWidget*) {
        ++asked;
        return QMessageBox::Cancel;
    });
    window.show();
    window.runPanel()->setDefaults();
    QSignalSpy finished(&window, &MainWindow::sweepFinished);
    ASSERT_TRUE(window.startSweep());  // the user's own sweep: unsaved work
    ASSERT_TRUE(finished.wait(kWaitMs));
    ASSERT_TRUE(window.isModified());
    EXPECT_FALSE(window.close());
    EXPECT_EQ(asked, 1);
    EXPECT_TRUE(window.isVisible());
    window.setUnsavedPrompt([](QWidget*) { return QMessageBox::Discard; });
    EXPECT_TRUE(window.close());
}

TEST_F(MainWindowFixture, SavingIntoAMissingFolderShowsWhy) {
    MainWindow window(defaultServices());
    QSignalSpy finished(&window, &MainWindow::saveFinished);
    ASSERT_TRUE(window.saveTo(QStringLiteral("/nonexistent-tpscope-folder/x.tpscope")));
    ASSERT_TRUE(finished.wait(kWaitMs));
    EXPECT_FALSE(finished.front().at(1).toBool());
    EXPECT_TRUE(window.lastError().contains(QStringLiteral("x.tpscope")));
    EXPECT_TRUE(window.lastError().contains(QStringLiteral("does not exist")));
}

}  // namespace
}  // namespace tpscope::ui
