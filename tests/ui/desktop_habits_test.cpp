// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Issue 45 §3: habits of a desktop tool. Delete removes the run the user has selected wherever the
// keyboard is (the timeline shows the current run), and the undo stack keeps a bounded number of
// steps, freeing the traces of removals that fall off it.
#include <QApplication>
#include <QTest>
#include <QUndoStack>

#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "main_window_test_support.h"
#include "ui/document/run_document.h"
#include "ui/timeline/timeline_panel.h"
#include "ui/timeline/timeline_view.h"
#include "ui/window/main_window.h"

namespace tpscope::ui {
namespace {

struct DesktopHabits : test::AppGuard, ::testing::Test {};

RunRecord runWithTrace(int ranks) {
    RunRecord run;
    run.request.backend = BackendKind::Imported;
    run.request.tp = ranks;
    run.status = RunStatus::Done;
    run.source = QStringLiteral("rank%1.json").arg(ranks);
    run.trace = test::makeTrace(ranks, {{0, 1000, core::EventKind::Gemm, "gemm"}}, {});
    return run;
}

TEST_F(DesktopHabits, TheUndoStackHasALimitAndFreesTheTracesPastIt) {
    MainWindow window(defaultServices());
    std::vector<std::weak_ptr<const core::Trace>> traces;
    std::vector<RunId> ids;
    for (int i = 0; i < MainWindow::kUndoLimit + 2; ++i) {
        RunRecord run = runWithTrace(1 + i % 4);
        traces.push_back(run.trace);
        ids.push_back(window.document()->add(std::move(run)));
    }
    for (const RunId id : ids) ASSERT_TRUE(window.removeRun(id));
    QApplication::processEvents();
    EXPECT_EQ(window.undoStack()->count(), MainWindow::kUndoLimit);
    // The two oldest removals fell off the stack: nothing holds their traces any more.
    EXPECT_TRUE(traces[0].expired());
    EXPECT_TRUE(traces[1].expired());
    EXPECT_FALSE(traces.back().expired()) << "a removal still on the stack keeps its trace for Undo";
    window.undoStack()->undo();
    EXPECT_EQ(window.document()->size(), 1u);
}

TEST_F(DesktopHabits, DeleteInTheTimelineRemovesTheRunItShows) {
    MainWindow window(defaultServices());
    window.setUnsavedPrompt([](QWidget*) { return QMessageBox::Discard; });
    const RunId first = window.document()->add(runWithTrace(2));
    const RunId second = window.document()->add(runWithTrace(4));
    window.resize(1400, 900);
    window.show();
    window.activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(&window));
    window.selectRun(second);
    ASSERT_EQ(window.currentRun(), second);
    auto* view = window.timelinePanel()->view();
    view->setFocus();
    QApplication::processEvents();
    ASSERT_TRUE(view->hasFocus());
    QTest::keyClick(view, Qt::Key_Delete);
    EXPECT_EQ(window.document()->run(second), nullptr) << "Delete did nothing outside the runs table";
    EXPECT_NE(window.document()->run(first), nullptr);
    window.undoStack()->undo();
    EXPECT_EQ(window.document()->size(), 2u);
}

}  // namespace
}  // namespace tpscope::ui
