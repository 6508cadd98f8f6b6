// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Issue 45 §3: habits of a desktop tool. Delete removes the run the user has selected wherever the
// keyboard is (the timeline shows the current run), and the undo stack keeps a bounded number of
// steps, freeing the traces of removals that fall off it. Every Save As adds the suffix before it asks
// about replacing, and asks once about every file one choice writes.
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "core/hw/catalog.h"
#include "main_window_test_support.h"
#include "ui/charts/chart_set.h"
#include "ui/charts/charts_controller.h"
#include "ui/document/run_document.h"
#include "ui/export/save_as.h"
#include "ui/jobs/io_services.h"
#include "ui/planning/advice_page.h"
#include "ui/planning/calculator_page.h"
#include "ui/timeline/timeline_panel.h"
#include "ui/timeline/timeline_view.h"
#include "ui/window/chart_tabs.h"
#include "ui/window/main_window.h"
#include "ui/window/planning_tabs.h"
#include "ui/window/run_panel.h"

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

// The decision (issue 45 notes): view settings are saved with the workspace, but changing them does
// not make it unsaved, as zoom or the tab shown do not. They are quick to set again; the runs are the
// work a quit must never lose without asking. A change to this rule changes this test.
TEST_F(DesktopHabits, ViewSettingsAreSavedButDoNotMakeTheWorkspaceUnsaved) {
    MainWindow window(defaultServices());
    ASSERT_FALSE(window.isModified());
    auto* charts = window.chartTabs()->charts()->controller();
    charts->setPricePerGpuHour(charts->pricePerGpuHour() + 1.25);
    charts->setLatencyTargetMs(charts->latencyTargetMs() + 5);
    auto* advice = window.planningTabs()->advice();
    advice->setEfficiencyThreshold(advice->efficiencyThreshold() / 2);
    QApplication::processEvents();
    EXPECT_FALSE(window.isModified());
    EXPECT_FALSE(window.windowTitle().contains(QLatin1Char('*'))) << window.windowTitle().toStdString();
}

TEST_F(DesktopHabits, AFinishedLoadDoesNotTakeTheKeyboardFromTheRunPanel) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString file = dir.filePath(QStringLiteral("two.tpscope"));
    ASSERT_TRUE(saveWithIo(file, {runWithTrace(2)}, {}));
    MainWindow window(defaultServices());
    window.setUnsavedPrompt([](QWidget*) { return QMessageBox::Discard; });
    window.resize(1400, 900);
    window.show();
    window.activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(&window));
    QSignalSpy opened(&window, &MainWindow::documentOpened);
    // The user is typing the batch sizes of the next sweep while a load finishes: the keyboard stays.
    auto* field = window.runPanel()->findChild<QLineEdit*>(QStringLiteral("batchSizes"));
    ASSERT_NE(field, nullptr);
    field->setFocus();
    QApplication::processEvents();
    ASSERT_TRUE(field->hasFocus());
    window.openPath(file);
    ASSERT_TRUE(opened.wait(test::kWaitMs));
    QApplication::processEvents();
    const QWidget* focused = QApplication::focusWidget();
    EXPECT_TRUE(field->hasFocus()) << "the finished load took the keyboard away, to "
                                   << (focused ? focused->metaObject()->className() : "nothing") << " "
                                   << (focused ? focused->objectName().toStdString() : std::string());
}

void touch(const QString& path) {
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly)) << path.toStdString();
}

// Records each question and answers with `answer`.
struct RecordedPrompt {
    QStringList questions;
    bool answer = false;
    ConfirmPrompt prompt() {
        return [this](QWidget*, const QString& question) {
            questions << question;
            return answer;
        };
    }
};

TEST_F(DesktopHabits, SaveAsAddsTheSuffixBeforeItAsksAboutReplacing) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    SaveAsOptions report;
    report.formats = {QStringLiteral("pdf")};
    RecordedPrompt prompt;
    const QString typed = dir.filePath(QStringLiteral("report"));
    // No file of that name yet: the report gets its .pdf and nothing is asked.
    EXPECT_EQ(confirmSaveAs(typed, QString(), report, nullptr, prompt.prompt()), typed + QStringLiteral(".pdf"));
    EXPECT_TRUE(prompt.questions.isEmpty());
    // report.pdf exists: the dialog asked about "report" (which does not), so the helper asks.
    touch(typed + QStringLiteral(".pdf"));
    EXPECT_EQ(confirmSaveAs(typed, QString(), report, nullptr, prompt.prompt()), QString()) << "declined";
    ASSERT_EQ(prompt.questions.size(), 1);
    EXPECT_TRUE(prompt.questions.front().contains(QStringLiteral("report.pdf")));
    prompt.answer = true;
    EXPECT_EQ(confirmSaveAs(typed, QString(), report, nullptr, prompt.prompt()), typed + QStringLiteral(".pdf"));
    // The filter chosen decides the suffix of a workspace too.
    SaveAsOptions workspace;
    workspace.formats = {QStringLiteral("tpscope")};
    EXPECT_EQ(
        confirmSaveAs(typed, QStringLiteral("tpscope workspaces (*.tpscope)"), workspace, nullptr, prompt.prompt()),
        typed + QStringLiteral(".tpscope"));
}

TEST_F(DesktopHabits, TheCalculatorsThreeCsvFilesAreOneChoiceAndOneQuestion) {
    auto catalog = core::Catalog::load();
    ASSERT_TRUE(catalog.ok());
    const CalculatorPage page(*catalog);
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    SaveAsOptions options;
    options.formats = page.exportFormats();
    options.companions = [&page](const QString& path) { return page.exportCompanions(path); };
    const QString typed = dir.filePath(QStringLiteral("calc"));
    // Only the two tables beside calc.csv exist: one question names both.
    touch(dir.filePath(QStringLiteral("calc-plan.csv")));
    touch(dir.filePath(QStringLiteral("calc-amdahl.csv")));
    RecordedPrompt prompt;
    EXPECT_EQ(confirmSaveAs(typed, QStringLiteral("CSV (*.csv)"), options, nullptr, prompt.prompt()), QString());
    ASSERT_EQ(prompt.questions.size(), 1);
    EXPECT_TRUE(prompt.questions.front().contains(QStringLiteral("calc-plan.csv")));
    EXPECT_TRUE(prompt.questions.front().contains(QStringLiteral("calc-amdahl.csv")));
    EXPECT_FALSE(prompt.questions.front().contains(QStringLiteral("calc.csv"))) << "calc.csv does not exist";
    // The same name as a PNG writes one file, which does not exist: nothing to ask.
    EXPECT_EQ(confirmSaveAs(typed, QStringLiteral("PNG (*.png)"), options, nullptr, prompt.prompt()),
              typed + QStringLiteral(".png"));
    EXPECT_EQ(prompt.questions.size(), 1);
    // The export writes exactly the files the question named.
    prompt.answer = true;
    const QString path = confirmSaveAs(typed, QStringLiteral("CSV (*.csv)"), options, nullptr, prompt.prompt());
    ASSERT_EQ(path, typed + QStringLiteral(".csv"));
    ASSERT_TRUE(page.exportTo(ExportRequest{path, QSize(), 1.0}));
    QStringList written = QDir(dir.path()).entryList(QDir::Files, QDir::Name);
    EXPECT_EQ(written, (QStringList{QStringLiteral("calc-amdahl.csv"), QStringLiteral("calc-plan.csv"),
                                    QStringLiteral("calc.csv")}));
}

}  // namespace
}  // namespace tpscope::ui
