// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Regressions of the window's state handling (issue 10, part 1), each driven through the real window:
// results are addressed by run id and job id, never by row, so opening a workspace during a sweep,
// a superseded load or an old sweep's late signal can neither crash the window nor mislabel a run.

#include <QElapsedTimer>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTest>
#include <QUndoStack>

#include <gtest/gtest.h>

#include <algorithm>

#include "main_window_test_support.h"
#include "ui/timeline/timeline_panel.h"
#include "ui/window/error_banner.h"
#include "ui/window/run_panel.h"
#include "ui/window/runs_model.h"

namespace tpscope::ui {
namespace {

using test::FakeFile;
using test::kWaitMs;
using test::runAt;
using test::SlowRuns;

struct WindowState : test::AppGuard, ::testing::Test {};

// Bug: sweep results were placed at m_sweepFirstRow + index; a workspace opened during the sweep
// replaced every row, so a smaller one was read past its end (crash) and a larger one got the
// sweep's traces under its own labels.
void openWorkspaceDuringSweep(int workspaceRuns) {
    SlowRuns slow;
    slow.steps = 150;
    slow.honourCancel = false;  // the running run still delivers its result after the workspace is in
    Services services = slow.services();
    services.open = test::fakeOpen({{QStringLiteral("w.tpscope"), FakeFile{workspaceRuns, 0}}});
    MainWindow window(services);
    window.setUnsavedPrompt([](QWidget*) { return QMessageBox::Discard; });
    window.show();
    window.runPanel()->setDefaults();
    QSignalSpy finished(&window, &MainWindow::sweepFinished);
    QSignalSpy opened(&window, &MainWindow::documentOpened);
    ASSERT_TRUE(window.startSweep());
    ASSERT_TRUE(
        QTest::qWaitFor([&] { return runAt(window, 0).status == RunStatus::Done && slow.stepsDone > 3; }, kWaitMs));
    window.openPath(QStringLiteral("/data/w.tpscope"));
    ASSERT_TRUE(opened.wait(kWaitMs));
    std::vector<const core::Trace*> traces;
    for (const auto& r : window.document()->runs()) traces.push_back(r.trace.get());
    ASSERT_TRUE(finished.count() > 0 || finished.wait(kWaitMs));
    QTest::qWait(50);  // any late queued result of the old sweep
    const auto& runs = window.document()->runs();
    ASSERT_EQ(runs.size(), static_cast<std::size_t>(workspaceRuns));
    for (std::size_t i = 0; i < runs.size(); ++i) {
        EXPECT_EQ(runs[i].trace.get(), traces[i]) << "run " << i << " got another run's trace";
        EXPECT_EQ(runs[i].status, RunStatus::Done);
        EXPECT_EQ(runs[i].request.tp, static_cast<int>(2 + i));
        EXPECT_EQ(runs[i].trace->ranks.size(), static_cast<std::size_t>(runs[i].request.tp));
    }
    EXPECT_FALSE(window.isModified()) << "the opened workspace was not changed";
}

TEST_F(WindowState, OpeningASmallerWorkspaceDuringASweepDoesNotCrash) {
    openWorkspaceDuringSweep(1);
}

TEST_F(WindowState, OpeningALargerWorkspaceDuringASweepKeepsItsRunsTheirOwnTraces) {
    openWorkspaceDuringSweep(6);
}

// Issue 18: a file's first run paints from its trace alone while the analysis runs; the document
// changes only when the load is done, and the view then keeps the trace and gains the analysis'
// part. A run already on screen is not replaced by a preview.
TEST_F(WindowState, AFilePaintsBeforeItsAnalysisAndIsCompletedInPlace) {
    Services services = defaultServices();
    services.open = test::fakeOpen({{QStringLiteral("big.tpscope"), FakeFile{2, 0, 600}},
                                    {QStringLiteral("good.json"), FakeFile{1, 0, 0}},
                                    {QStringLiteral("late.json"), FakeFile{1, 0, 600}}});
    MainWindow window(services);
    window.show();
    QSignalSpy opened(&window, &MainWindow::documentOpened);
    TimelineView* view = window.timelinePanel()->view();
    window.openPath(QStringLiteral("/data/big.tpscope"));
    QElapsedTimer timer;
    timer.start();
    while (view->trace() == nullptr && timer.elapsed() < kWaitMs) QTest::qWait(10);
    ASSERT_NE(view->trace(), nullptr) << "no preview";
    EXPECT_TRUE(window.timelinePanel()->showsTimeline());
    EXPECT_FALSE(view->data()->hasAnalysis());
    EXPECT_EQ(window.document()->size(), 0u);
    EXPECT_EQ(opened.count(), 0);
    const core::Trace* previewed = view->trace();
    ASSERT_TRUE(opened.wait(kWaitMs));
    ASSERT_EQ(window.document()->size(), 2u);
    EXPECT_EQ(view->trace(), previewed);
    EXPECT_TRUE(view->data()->hasAnalysis());
    EXPECT_EQ(window.document()->run(window.currentRun())->trace.get(), previewed);

    // A run is shown: the next file's preview leaves it there.
    window.setUnsavedPrompt([](QWidget*) { return QMessageBox::Discard; });
    opened.clear();
    window.openPath(QStringLiteral("/data/late.json"));
    QTest::qWait(300);  // the preview has been sent; the analysis is still running
    EXPECT_EQ(view->trace(), previewed);
    ASSERT_TRUE(opened.wait(kWaitMs));
}

// Bug: start() joined the previous worker on the GUI thread, so opening a second file while the
// first was still being read froze the window until the first finished.
TEST_F(WindowState, OpeningASecondFileDoesNotWaitForTheFirst) {
    Services services = defaultServices();
    services.open = test::fakeOpen(
        {{QStringLiteral("slow.json"), FakeFile{1, 1500}}, {QStringLiteral("fast.json"), FakeFile{1, 0}}});
    MainWindow window(services);
    QSignalSpy opened(&window, &MainWindow::documentOpened);
    window.openPath(QStringLiteral("/data/slow.json"));
    QTest::qWait(50);  // the slow load is running
    QElapsedTimer timer;
    timer.start();
    window.openPath(QStringLiteral("/data/fast.json"));
    EXPECT_LT(timer.elapsed(), 500) << "openPath blocked on the superseded load";
    ASSERT_TRUE(opened.wait(kWaitMs));
    EXPECT_TRUE(opened.takeFirst().at(0).toString().endsWith(QStringLiteral("fast.json")));
    QTest::qWait(1800);  // the slow one ends: its result is stale and must be dropped
    EXPECT_EQ(opened.count(), 0);
    ASSERT_EQ(window.document()->size(), 1u);
    EXPECT_TRUE(runAt(window, 0).source.endsWith(QStringLiteral("fast.json")));
}

// Bug: the staleness check ran on the worker, so a result queued just before a newer load started
// was still applied.
TEST_F(WindowState, AQueuedResultOfASupersededLoadIsDropped) {
    Services services = defaultServices();
    services.open = test::fakeOpen(
        {{QStringLiteral("first.json"), FakeFile{1, 0}}, {QStringLiteral("second.json"), FakeFile{1, 300}}});
    MainWindow window(services);
    QSignalSpy opened(&window, &MainWindow::documentOpened);
    window.openPath(QStringLiteral("/data/first.json"));
    // Let the first load finish and queue its result without the event loop running.
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    window.openPath(QStringLiteral("/data/second.json"));
    ASSERT_TRUE(opened.wait(kWaitMs));
    QTest::qWait(50);
    ASSERT_EQ(opened.count(), 1);
    EXPECT_TRUE(opened.at(0).at(0).toString().endsWith(QStringLiteral("second.json")));
    ASSERT_EQ(window.document()->size(), 1u);
    EXPECT_TRUE(runAt(window, 0).source.endsWith(QStringLiteral("second.json")));
}

// Bug: a finished load hid the status-bar progress bar that the running sweep also uses.
TEST_F(WindowState, TheSweepKeepsItsProgressBarAfterAFileOpens) {
    SlowRuns slow;
    Services services = slow.services();
    services.open = test::fakeOpen({});
    MainWindow window(services);
    window.setUnsavedPrompt([](QWidget*) { return QMessageBox::Discard; });
    window.show();
    window.runPanel()->setDefaults();
    ASSERT_TRUE(window.startSweep());
    QSignalSpy opened(&window, &MainWindow::documentOpened);
    window.openPath(QStringLiteral("/data/good.json"));
    ASSERT_TRUE(opened.wait(kWaitMs));
    EXPECT_TRUE(window.isSweepRunning());
    EXPECT_TRUE(window.statusProgress()->isVisible());
    window.cancelSweep();
    QSignalSpy finished(&window, &MainWindow::sweepFinished);
    ASSERT_TRUE(finished.wait(kWaitMs));
    EXPECT_FALSE(window.statusProgress()->isVisible());
}

// Bug: a run that finished while it was selected kept showing "No timeline yet".
TEST_F(WindowState, ARunThatFinishesWhileSelectedShowsItsTimeline) {
    SlowRuns slow;
    slow.steps = 60;
    MainWindow window(slow.services());
    window.setUnsavedPrompt([](QWidget*) { return QMessageBox::Discard; });
    window.show();
    window.runPanel()->setDefaults();
    QSignalSpy finished(&window, &MainWindow::sweepFinished);
    ASSERT_TRUE(window.startSweep());
    ASSERT_TRUE(QTest::qWaitFor([&] { return runAt(window, 1).status == RunStatus::Running; }, kWaitMs));
    const RunId tp2 = runAt(window, 1).id;
    window.selectRun(tp2);
    ASSERT_EQ(window.currentRun(), tp2);
    EXPECT_FALSE(window.timelinePanel()->showsTimeline());
    ASSERT_TRUE(QTest::qWaitFor([&] { return runAt(window, 1).status == RunStatus::Done; }, kWaitMs));
    window.cancelSweep();
    // The sweep may have ended (and said so) before the cancel: wait() only sees a later signal.
    ASSERT_TRUE(!finished.isEmpty() || finished.wait(kWaitMs));
    if (window.currentRun() == tp2) {
        EXPECT_TRUE(window.timelinePanel()->showsTimeline());
        EXPECT_EQ(window.timelinePanel()->view()->trace(), runAt(window, 1).trace.get());
    }
    window.selectRun(tp2);
    EXPECT_TRUE(window.timelinePanel()->showsTimeline());
    EXPECT_EQ(window.timelinePanel()->view()->trace(), runAt(window, 1).trace.get());
}

// Bug: opening an empty workspace left the previous trace on screen.
TEST_F(WindowState, AnEmptyWorkspaceClearsTheTimeline) {
    Services services = defaultServices();
    services.open = test::fakeOpen({{QStringLiteral("empty.tpscope"), FakeFile{0, 0}}});
    MainWindow window(services);
    window.setUnsavedPrompt([](QWidget*) { return QMessageBox::Discard; });
    QSignalSpy opened(&window, &MainWindow::documentOpened);
    window.openPath(QStringLiteral("/data/good.json"));
    ASSERT_TRUE(opened.wait(kWaitMs));
    ASSERT_NE(window.timelinePanel()->view()->trace(), nullptr);
    window.openPath(QStringLiteral("/data/empty.tpscope"));
    ASSERT_TRUE(opened.wait(kWaitMs));
    EXPECT_EQ(window.document()->size(), 0u);
    EXPECT_EQ(window.timelinePanel()->view()->trace(), nullptr);
    EXPECT_FALSE(window.timelinePanel()->showsTimeline());
    EXPECT_EQ(window.currentRun(), RunId::None);
}

// Bug: answering Cancel to the unsaved-changes prompt left "Opening…" in the status bar.
TEST_F(WindowState, CancellingTheUnsavedPromptSaysTheWorkspaceWasNotOpened) {
    SlowRuns quick;
    quick.steps = 1;
    Services services = quick.services();
    services.open = test::fakeOpen({{QStringLiteral("w.tpscope"), FakeFile{2, 0}}});
    MainWindow window(services);
    window.setUnsavedPrompt([](QWidget*) { return QMessageBox::Cancel; });
    window.runPanel()->setDefaults();
    QSignalSpy finished(&window, &MainWindow::sweepFinished);
    ASSERT_TRUE(window.startSweep());
    ASSERT_TRUE(finished.wait(kWaitMs));
    ASSERT_TRUE(window.isModified());
    window.openPath(QStringLiteral("/data/w.tpscope"));
    ASSERT_TRUE(QTest::qWaitFor([&] { return !window.isLoading(); }, kWaitMs));
    QTest::qWait(20);
    EXPECT_FALSE(window.statusBar()->currentMessage().startsWith(QStringLiteral("Opening")))
        << window.statusBar()->currentMessage().toStdString();
    EXPECT_EQ(window.document()->size(), 4u);  // the sweep's runs stay
    EXPECT_FALSE(window.statusProgress()->isVisible());
}

// Bug: Run sweep pressed twice in a row queued two sweeps.
TEST_F(WindowState, DoubleClickingRunSweepStartsOneSweep) {
    SlowRuns slow;
    MainWindow window(slow.services());
    window.setUnsavedPrompt([](QWidget*) { return QMessageBox::Discard; });
    window.show();
    window.runPanel()->setDefaults();
    QPushButton* run = nullptr;
    for (auto* b : window.runPanel()->findChildren<QPushButton*>()) {
        if (b->text() == QStringLiteral("Run sweep")) run = b;
    }
    ASSERT_NE(run, nullptr);
    QTest::mouseClick(run, Qt::LeftButton);
    QTest::mouseDClick(run, Qt::LeftButton);
    QTest::mouseClick(run, Qt::LeftButton);
    EXPECT_EQ(window.document()->size(), 4u);
    window.cancelSweep();
    QSignalSpy finished(&window, &MainWindow::sweepFinished);
    ASSERT_TRUE(finished.wait(kWaitMs));
}

// Bug: between the worker clearing its running flag and the queued `finished`, a new sweep could
// start, and the old `finished` then marked the new sweep's runs cancelled.
TEST_F(WindowState, AnOldSweepsLateEndDoesNotTouchTheNextSweep) {
    std::atomic<int> sweepsDone{0};
    Services services = defaultServices();
    services.runSweep = [&sweepsDone](const SweepRequest& sweep, const SweepCallbacks& callbacks,
                                      const CancelFlag&) -> core::Status {
        const auto requests = sweep.expand();
        for (std::size_t i = 0; i < requests.size(); ++i) {
            RunOutcome out;
            out.trace = test::makeTrace(requests[i].tp, {{0, 1000, core::EventKind::Gemm, "gemm"}}, {});
            deriveRunData(out, requests[i].batch);
            callbacks.finished(static_cast<int>(i), std::move(out));
        }
        ++sweepsDone;
        return core::Ok{};
    };
    MainWindow window(services);
    window.runPanel()->setDefaults();
    QSignalSpy finished(&window, &MainWindow::sweepFinished);
    ASSERT_TRUE(window.startSweep());
    while (sweepsDone.load() < 1) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    std::this_thread::sleep_for(std::chrono::milliseconds(50));  // the worker has ended; nothing processed
    const bool second = window.startSweep();
    ASSERT_TRUE(QTest::qWaitFor([&] { return finished.count() == 1 + (second ? 1 : 0); }, kWaitMs));
    QTest::qWait(50);
    for (const auto& r : window.document()->runs()) EXPECT_EQ(r.status, RunStatus::Done) << r.label().toStdString();
    EXPECT_FALSE(window.isSweepRunning());
}

// Bug: cancelling a 6-run sweep with 2 done said "3 of 6 runs finished" and filled the bar.
TEST_F(WindowState, CancellingCountsOnlyTheRunsThatFinished) {
    SlowRuns slow;
    slow.quickRuns = 2;
    MainWindow window(slow.services());
    window.setUnsavedPrompt([](QWidget*) { return QMessageBox::Discard; });
    window.runPanel()->setDefaults();
    auto* batches = window.runPanel()->findChild<QLineEdit*>(QStringLiteral("batchSizes"));
    batches->setText(QStringLiteral("1,2"));  // TP 1, 2, 4, 8 x batch 1, 2: 8 runs
    QSignalSpy finished(&window, &MainWindow::sweepFinished);
    ASSERT_TRUE(window.startSweep());
    const std::size_t total = window.document()->size();
    ASSERT_EQ(total, 8u);
    ASSERT_TRUE(QTest::qWaitFor([&] { return runAt(window, 2).status == RunStatus::Running; }, kWaitMs));
    window.cancelSweep();
    ASSERT_TRUE(finished.wait(kWaitMs));
    int done = 0;
    for (const auto& r : window.document()->runs()) done += r.status == RunStatus::Done ? 1 : 0;
    ASSERT_EQ(done, 2);
    EXPECT_TRUE(window.runPanel()->progressText().startsWith(QStringLiteral("2 of 8 runs finished")))
        << window.runPanel()->progressText().toStdString();
    EXPECT_EQ(window.runPanel()->progressPerMille(), 2 * 1000 / 8);
    EXPECT_TRUE(window.statusBar()->currentMessage().contains(QStringLiteral("2 of 8")))
        << window.statusBar()->currentMessage().toStdString();
}

// Runs of the same TP and batch that differ in tokens can be told apart, and runs can be removed.
TEST_F(WindowState, RunsShowTheirTokensAndSweepAndCanBeRemoved) {
    SlowRuns quick;
    quick.steps = 1;
    MainWindow window(quick.services());
    window.setUnsavedPrompt([](QWidget*) { return QMessageBox::Discard; });
    window.runPanel()->setDefaults();
    QSignalSpy finished(&window, &MainWindow::sweepFinished);
    ASSERT_TRUE(window.startSweep());
    ASSERT_TRUE(finished.wait(kWaitMs));
    auto* model = window.runsModel();
    const QString first = model->data(model->index(3, RunsModel::Name), Qt::DisplayRole).toString();
    EXPECT_TRUE(first.contains(QStringLiteral("4 tokens"))) << first.toStdString();
    EXPECT_EQ(model->data(model->index(3, RunsModel::Sweep), Qt::DisplayRole).toString(), QStringLiteral("#1"));
    EXPECT_EQ(model->data(model->index(3, RunsModel::Tokens), Qt::DisplayRole).toInt(), 4);

    const RunId removed = runAt(window, 3).id;
    window.selectRun(removed);
    EXPECT_TRUE(window.removeRun(removed));
    EXPECT_EQ(window.document()->size(), 3u);
    EXPECT_EQ(window.document()->run(removed), nullptr);
    EXPECT_NE(window.currentRun(), removed);
    window.setConfirmPrompt([](QWidget*, const QString&) { return true; });
    EXPECT_TRUE(window.clearRuns());
    EXPECT_EQ(window.document()->size(), 0u);
    EXPECT_EQ(window.timelinePanel()->view()->trace(), nullptr);
}

// An interleaving a user meets: the current run removed while its sweep still runs, then undone
// after the sweep ended. The later runs end in their own rows, and the removed run comes back whole.
TEST_F(WindowState, RemovingTheCurrentRunMidSweepAndUndoingItKeepsEveryRun) {
    SlowRuns slow;
    slow.steps = 150;
    slow.quickRuns = 2;  // the first runs finish at once, the rest take a while
    MainWindow window(slow.services());
    window.setUnsavedPrompt([](QWidget*) { return QMessageBox::Discard; });
    window.show();
    window.runPanel()->setDefaults();
    QSignalSpy finished(&window, &MainWindow::sweepFinished);
    ASSERT_TRUE(window.startSweep());
    const auto firstDone = [&]() -> const RunRecord* {
        for (const auto& r : window.document()->runs()) {
            if (r.status == RunStatus::Done) return &r;
        }
        return nullptr;
    };
    ASSERT_TRUE(QTest::qWaitFor([&] { return firstDone() != nullptr; }, kWaitMs));
    ASSERT_EQ(finished.count(), 0) << "the sweep ended before the run could be removed mid-sweep";
    const RunId removed = firstDone()->id;
    const core::Trace* trace = firstDone()->trace.get();
    window.selectRun(removed);
    ASSERT_TRUE(window.removeRun(removed));
    EXPECT_NE(window.currentRun(), removed);
    const std::size_t left = window.document()->size();
    ASSERT_TRUE(finished.wait(kWaitMs));
    QTest::qWait(50);  // any late queued result
    EXPECT_EQ(window.document()->size(), left);
    EXPECT_EQ(window.document()->run(removed), nullptr);
    for (const auto& r : window.document()->runs()) {
        EXPECT_NE(r.status, RunStatus::Running) << r.label().toStdString() << " never ended";
        if (r.status == RunStatus::Done) {
            EXPECT_NE(r.trace.get(), trace) << "a later run got the removed run's trace";
        }
    }
    window.undoStack()->undo();  // the removed run comes back (under a new id: RemoveRunsCommand::undo)
    const auto& runs = window.document()->runs();
    EXPECT_EQ(std::count_if(runs.begin(), runs.end(), [&](const RunRecord& r) { return r.trace.get() == trace; }), 1)
        << "the removed run did not come back with its trace";
    EXPECT_EQ(window.document()->size(), left + 1);
}

}  // namespace
}  // namespace tpscope::ui
