// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Issue 28 §2: state that survives every event, driven through the real window. A reopened workspace
// keeps its sweeps apart; the keyboard stays in the runs table after a click; Remove and Clear ask and
// can be undone; the window stops moving the selection once the user picked a run; a worker that
// throws becomes an error in the window; the details pane shows the current tab's selection.
#include <QApplication>
#include <QHeaderView>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QUndoStack>

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <new>
#include <thread>

#include "core/io/workspace/workspace.h"
#include "main_window_test_support.h"
#include "tests/synthetic_trace.h"
#include "ui/charts/chart_set.h"
#include "ui/jobs/io_services.h"
#include "ui/jobs/sim_service.h"
#include "ui/timeline/timeline_panel.h"
#include "ui/window/chart_tabs.h"
#include "ui/window/runs_model.h"

namespace tpscope::ui {
namespace {

using test::kWaitMs;
using test::SlowRuns;

struct WindowKeepsState : test::AppGuard, ::testing::Test {};

// A sweep of TP 1, 2 and 4 at batch 1 through the window's own path.
SweepRequest smallSweep(const MainWindow& window) {
    auto sweep = defaultSweepRequest(window.catalog(), 2.0);
    EXPECT_TRUE(sweep.ok());
    SweepRequest s = *sweep;
    s.tps = {1, 2, 4};
    s.batches = {1};
    return s;
}

QModelIndex rowOfRun(const MainWindow& window, RunId id) {
    return window.runsProxy()->mapFromSource(window.runsModel()->index(window.runsModel()->rowOf(id), 0));
}

void clickRun(MainWindow& window, RunId id) {
    auto* table = window.runsTable();
    const QRect rect = table->visualRect(rowOfRun(window, id));
    ASSERT_TRUE(rect.isValid());
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, rect.center());
}

void showActive(MainWindow& window) {
    window.resize(1400, 900);
    window.show();
    window.activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(&window));
}

TEST_F(WindowKeepsState, AClickedRunKeepsTheKeyboardAndDeleteRemovesItUndoably) {
    SlowRuns quick;
    quick.steps = 1;
    MainWindow window(quick.services());
    window.setUnsavedPrompt([](QWidget*) { return QMessageBox::Discard; });
    QSignalSpy finished(&window, &MainWindow::sweepFinished);
    ASSERT_EQ(window.startSweepRequest(smallSweep(window)).size(), 3u);
    ASSERT_TRUE(finished.wait(kWaitMs));
    ASSERT_NO_FATAL_FAILURE(showActive(window));
    const auto idAtRow = [&](int row) {
        return window.runsModel()->idAt(window.runsProxy()->mapToSource(window.runsProxy()->index(row, 0)).row());
    };
    const RunId first = idAtRow(0);
    const RunId second = idAtRow(1);
    ASSERT_NO_FATAL_FAILURE(clickRun(window, first));
    EXPECT_EQ(QApplication::focusWidget(), window.runsTable()) << "the click must not move the keyboard elsewhere";
    EXPECT_EQ(window.currentRun(), first);
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Down);
    EXPECT_EQ(window.currentRun(), second);
    const int position = window.document()->indexOf(second);
    const QString label = window.document()->run(second)->label();
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Delete);
    ASSERT_EQ(window.document()->size(), 2u);
    EXPECT_EQ(window.document()->run(second), nullptr);
    window.undoStack()->undo();
    ASSERT_EQ(window.document()->size(), 3u);
    const auto& back = window.document()->runs()[static_cast<std::size_t>(position)];
    EXPECT_EQ(back.label(), label) << "back in its place";
    EXPECT_EQ(back.status, RunStatus::Done);
}

TEST_F(WindowKeepsState, ClearAsksFirstAndCanBeUndone) {
    SlowRuns quick;
    quick.steps = 1;
    MainWindow window(quick.services());
    window.setUnsavedPrompt([](QWidget*) { return QMessageBox::Discard; });
    QSignalSpy finished(&window, &MainWindow::sweepFinished);
    ASSERT_EQ(window.startSweepRequest(smallSweep(window)).size(), 3u);
    ASSERT_TRUE(finished.wait(kWaitMs));
    QStringList labels;
    for (const auto& r : window.document()->runs()) labels << r.label();
    int asked = 0;
    window.setConfirmPrompt([&](QWidget*, const QString&) { return ++asked > 1; });  // no, then yes
    EXPECT_FALSE(window.clearRuns());
    EXPECT_EQ(window.document()->size(), 3u);
    EXPECT_TRUE(window.clearRuns());
    EXPECT_EQ(asked, 2);
    EXPECT_TRUE(window.document()->empty());
    window.undoStack()->undo();
    QStringList back;
    for (const auto& r : window.document()->runs()) back << r.label();
    EXPECT_EQ(back, labels);
    EXPECT_EQ(window.runsModel()->rowCount(), 3);
}

TEST_F(WindowKeepsState, TheWindowStopsFollowingNewRunsOnceTheUserPicksOne) {
    SlowRuns slow;
    slow.steps = 150;  // about 0.3 s a run; TP 1 at once
    MainWindow window(slow.services());
    window.setUnsavedPrompt([](QWidget*) { return QMessageBox::Discard; });
    ASSERT_NO_FATAL_FAILURE(showActive(window));
    QSignalSpy finished(&window, &MainWindow::sweepFinished);
    const auto ids = window.startSweepRequest(smallSweep(window));
    ASSERT_EQ(ids.size(), 3u);
    ASSERT_TRUE(QTest::qWaitFor([&] { return window.document()->run(ids[0])->status == RunStatus::Done; }, kWaitMs));
    EXPECT_EQ(window.currentRun(), ids[0]);  // the first to finish is shown
    ASSERT_NE(window.document()->run(ids[1])->status, RunStatus::Done);
    ASSERT_NO_FATAL_FAILURE(clickRun(window, ids[1]));  // the user picks TP 2 while it runs
    ASSERT_TRUE(finished.wait(kWaitMs));
    EXPECT_TRUE(window.userPickedRun());
    EXPECT_EQ(window.currentRun(), ids[1]) << "TP 4 finishing later must not take the selection";
}

TEST_F(WindowKeepsState, TheLaunchExampleDoesNotReplaceAKernelTheUserSelected) {
    SlowRuns quick;
    quick.steps = 1;
    MainWindow window(quick.services());
    window.setUnsavedPrompt([](QWidget*) { return QMessageBox::Discard; });
    QSignalSpy finished(&window, &MainWindow::sweepFinished);
    ASSERT_EQ(window.startSweepRequest(smallSweep(window)).size(), 3u);
    ASSERT_TRUE(finished.wait(kWaitMs));
    auto* view = window.timelinePanel()->view();
    ASSERT_NE(view->trace(), nullptr);
    const EventRef mine{0, 0, 0};
    view->selectEvent(mine);
    window.focusTimelineOnExampleUnlessUserChose(true);
    EXPECT_EQ(view->selectedEvent(), mine);
}

TEST_F(WindowKeepsState, AWorkerThatThrowsBecomesAnErrorInTheWindow) {
    Services services = defaultServices();
    services.runSweep = [](const SweepRequest&, const SweepCallbacks&, const CancelFlag&) -> core::Status {
        throw std::bad_alloc();
    };
    services.open = [](const QString&, const TaskControl&, const OpenPreviewFn&) -> core::Result<OpenedDocument> {
        throw std::bad_alloc();
    };
    MainWindow window(services);
    window.setUnsavedPrompt([](QWidget*) { return QMessageBox::Discard; });
    QSignalSpy finished(&window, &MainWindow::sweepFinished);
    ASSERT_EQ(window.startSweepRequest(smallSweep(window)).size(), 3u);
    ASSERT_TRUE(finished.wait(kWaitMs));
    EXPECT_TRUE(window.lastError().contains(QStringLiteral("out of memory"))) << window.lastError().toStdString();
    for (const auto& r : window.document()->runs()) EXPECT_EQ(r.status, RunStatus::Failed);
    QSignalSpy failed(&window, &MainWindow::openFailed);
    window.openPath(QStringLiteral("/nowhere/big.json"));
    ASSERT_TRUE(failed.wait(kWaitMs));
    EXPECT_TRUE(window.lastError().contains(QStringLiteral("out of memory"))) << window.lastError().toStdString();
    EXPECT_FALSE(window.isLoading());
}

TEST_F(WindowKeepsState, TheDetailsPaneShowsTheCurrentTabsSelectionOnly) {
    SlowRuns quick;
    quick.steps = 1;
    MainWindow window(quick.services());
    window.setUnsavedPrompt([](QWidget*) { return QMessageBox::Discard; });
    QSignalSpy finished(&window, &MainWindow::sweepFinished);
    ASSERT_EQ(window.startSweepRequest(smallSweep(window)).size(), 3u);
    ASSERT_TRUE(finished.wait(kWaitMs));
    window.tabs()->setCurrentWidget(window.timelinePanel());
    window.timelinePanel()->view()->selectEvent({0, 0, 0});
    const QString timelineDetails = window.detailsPane()->toPlainText();
    ASSERT_TRUE(timelineDetails.contains(QStringLiteral("gemm"))) << timelineDetails.toStdString();
    window.tabs()->setCurrentWidget(window.chartTabs()->charts()->layers());
    EXPECT_FALSE(window.detailsPane()->toPlainText().contains(QStringLiteral("gemm")))
        << "the Layers tab has no such selection";
    window.timelinePanel()->view()->selectEvent({});  // the timeline changes while another tab is current
    EXPECT_TRUE(window.detailsPane()->toPlainText().isEmpty());
    window.tabs()->setCurrentWidget(window.timelinePanel());
    EXPECT_FALSE(window.detailsPane()->toPlainText().contains(QStringLiteral("gemm")));
    window.timelinePanel()->view()->selectEvent({0, 0, 0});
    EXPECT_EQ(window.detailsPane()->toPlainText(), timelineDetails);
}

TEST_F(WindowKeepsState, ARunThatFinishesWhileSavingKeepsTheWorkspaceUnsaved) {
    SlowRuns slow;
    slow.steps = 100;  // about 0.2 s a run; TP 1 at once
    Services services = slow.services();
    std::atomic<int> saves{0};
    services.saveWorkspace = [&saves](const QString&, const WorkspaceSnapshot&, const TaskControl&) {
        std::this_thread::sleep_for(std::chrono::milliseconds(300));  // a run finishes meanwhile
        ++saves;
        return core::Status{core::Ok{}};
    };
    MainWindow window(services);
    window.setUnsavedPrompt([](QWidget*) { return QMessageBox::Discard; });
    QSignalSpy sweepDone(&window, &MainWindow::sweepFinished);
    const auto ids = window.startSweepRequest(smallSweep(window));
    ASSERT_EQ(ids.size(), 3u);
    ASSERT_TRUE(QTest::qWaitFor([&] { return window.document()->run(ids[0])->status == RunStatus::Done; }, kWaitMs));
    ASSERT_TRUE(window.isModified());
    QSignalSpy saved(&window, &MainWindow::saveFinished);
    QTemporaryDir dir;
    ASSERT_TRUE(window.saveTo(dir.filePath(QStringLiteral("w.tpscope"))));
    EXPECT_TRUE(window.isSaving()) << "saveTo returns while the worker writes: no nested event loop";
    ASSERT_TRUE(saved.wait(kWaitMs));
    EXPECT_TRUE(saved.front().at(1).toBool());
    EXPECT_EQ(saves.load(), 1);
    ASSERT_TRUE(sweepDone.count() > 0 || sweepDone.wait(kWaitMs));
    // Runs finished after the snapshot was taken: they are not in the file, so the workspace is unsaved.
    EXPECT_TRUE(window.isModified());
    for (const RunId id : ids) EXPECT_EQ(window.document()->run(id)->status, RunStatus::Done);
}

TEST_F(WindowKeepsState, UnsavedRunsAreAskedAboutBeforeAWorkspaceIsRead) {
    SlowRuns quick;
    quick.steps = 1;
    Services services = quick.services();
    std::atomic<int> opened{0};
    auto open = test::fakeOpen({{QStringLiteral("other.tpscope"), test::FakeFile{2}}});
    services.open = [&opened, open](const QString& path, const TaskControl& control, const OpenPreviewFn& preview) {
        ++opened;
        return open(path, control, preview);
    };
    MainWindow window(services);
    QSignalSpy finished(&window, &MainWindow::sweepFinished);
    ASSERT_EQ(window.startSweepRequest(smallSweep(window)).size(), 3u);
    ASSERT_TRUE(finished.wait(kWaitMs));
    // The user's own sweep is unsaved work; Cancel keeps it, and the file is not even read.
    ASSERT_TRUE(window.isModified());
    int asked = 0;
    window.setUnsavedPrompt([&](QWidget*) {
        ++asked;
        return QMessageBox::Cancel;
    });
    window.openPath(QStringLiteral("/tmp/other.tpscope"));
    QTest::qWait(100);
    EXPECT_EQ(asked, 1);
    EXPECT_EQ(opened.load(), 0);
    EXPECT_FALSE(window.isLoading());
    EXPECT_EQ(window.document()->size(), 3u);
    // Discard: asked once, before the read, and not again when it lands.
    window.setUnsavedPrompt([&](QWidget*) {
        ++asked;
        return QMessageBox::Discard;
    });
    QSignalSpy loaded(&window, &MainWindow::documentOpened);
    window.openPath(QStringLiteral("/tmp/other.tpscope"));
    ASSERT_TRUE(loaded.wait(kWaitMs));
    EXPECT_EQ(asked, 2);
    EXPECT_EQ(opened.load(), 1);
    EXPECT_EQ(window.document()->size(), 2u);
}

TEST_F(WindowKeepsState, TheRunsTableShowsThroughputAndStepLatencyWithoutScrollingSideways) {
    MainWindow window(defaultServices());
    window.resize(1600, 1000);  // the screenshots' size
    window.show();
    ASSERT_NO_FATAL_FAILURE(test::runDefaultSweep(window));
    QApplication::processEvents();
    auto* table = window.runsTable();
    const auto* header = table->horizontalHeader();
    for (const int column :
         {RunsModel::Name, RunsModel::TokensPerSec, RunsModel::StepLatency, RunsModel::StepBreakdown}) {
        EXPECT_GE(header->sectionViewportPosition(column), 0) << column;
        EXPECT_LE(header->sectionViewportPosition(column) + header->sectionSize(column), table->viewport()->width())
            << "column " << column << " needs a horizontal scroll";
    }
    // Rows are as tall as the font needs.
    EXPECT_GE(table->verticalHeader()->defaultSectionSize(), table->fontMetrics().height());
}

// Four runs of two contexts at TP 1 and 2, in a workspace that names no sweep (the CLI's, an older
// GUI's): reopened, every run was sweep 0 and two runs at one (TP, batch) blanked Scaling.
QString writeTwoContextWorkspace(const QString& dir) {
    core::Workspace ws;
    for (const int context : {1024, 2048}) {
        for (const int tp : {1, 2}) {
            RunRecord r;
            r.request.backend = BackendKind::SimulatedCluster;
            r.request.model.id = "m";
            r.request.gpu.id = "g";
            r.request.fabric.id = "f";
            r.request.tp = tp;
            r.request.batch = 1;
            r.request.contextLen = context;
            r.trace = test::makeSyntheticTrace({.ranks = tp, .steps = 2, .layers = 2, .seed = 7});
            core::RunInfo info = runInfoOf(r);
            std::erase_if(info.spec, [](const auto& kv) { return kv.first == "sweep"; });
            ws.runs.push_back(core::Run{info, r.trace, std::nullopt});
        }
    }
    const QString path = dir + QStringLiteral("/contexts.tpscope");
    EXPECT_TRUE(core::saveWorkspace(ws, path.toStdString(), {}).ok());
    return path;
}

TEST_F(WindowKeepsState, AReopenedWorkspaceKeepsItsSweepsApart) {
    QTemporaryDir dir;
    const QString path = writeTwoContextWorkspace(dir.path());
    MainWindow window(defaultServices());
    window.setUnsavedPrompt([](QWidget*) { return QMessageBox::Discard; });
    QSignalSpy opened(&window, &MainWindow::documentOpened);
    window.openPath(path);
    ASSERT_TRUE(opened.wait(kWaitMs)) << window.lastError().toStdString();
    const auto& runs = window.document()->runs();
    ASSERT_EQ(runs.size(), 4u);
    EXPECT_EQ(runs[0].sweep, runs[1].sweep);
    EXPECT_EQ(runs[2].sweep, runs[3].sweep);
    EXPECT_NE(runs[0].sweep, runs[2].sweep);
    EXPECT_NE(runs[0].label(), runs[2].label()) << "the context is in the name";
    window.selectRun(runs[2].id);
    const auto& scaling = window.chartTabs()->charts()->controller()->scaling();
    ASSERT_TRUE(scaling.ok()) << scaling.error().describe();
    ASSERT_EQ(scaling->batches.size(), 1u);
    EXPECT_EQ(scaling->batches.front().rows.size(), 2u);
    // Saved by the GUI and reopened, the sweep numbers come back as they were.
    const QString again = dir.path() + QStringLiteral("/again.tpscope");
    ASSERT_TRUE(saveWithIo(again, runs, {}).ok());
    auto reopened = openWithIo(again, {});
    ASSERT_TRUE(reopened.ok());
    ASSERT_EQ(reopened->runs.size(), 4u);
    for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(reopened->runs[i].sweep, runs[i].sweep);
}

}  // namespace
}  // namespace tpscope::ui
