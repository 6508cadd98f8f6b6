#include "ui/main_window.h"

#include <QLineEdit>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "ui/error_banner.h"
#include "ui/run_panel.h"
#include "ui/runs_model.h"
#include "ui/timeline/timeline_panel.h"
#include "ui_test_support.h"

namespace tpscope::ui {
namespace {

constexpr int kWaitMs = 20'000;  // generous: the machine is shared; a pass takes milliseconds

// A run that takes `steps` polls of 2 ms and counts how many it did, so a test can tell that it
// stopped early because of the cancel flag rather than by finishing.
struct SlowRuns {
    std::atomic<int> stepsDone{0};
    int steps = 500;

    Services services() {
        Services s = defaultServices();
        s.runOne = [this](const RunRequest& req, const ProgressFn& progress,
                          const CancelFlag& cancel) -> core::Result<RunOutcome> {
            const int n = req.tp == 1 ? 1 : steps;  // the TP 1 run finishes at once
            for (int i = 0; i < n; ++i) {
                if (cancel.load()) return core::makeError(core::ErrorCode::Cancelled, "run cancelled");
                std::this_thread::sleep_for(std::chrono::milliseconds(2));
                ++stepsDone;
                progress(static_cast<double>(i + 1) / n);
            }
            RunOutcome out;
            out.trace = test::makeTrace(req.tp, {{0, 1000, core::EventKind::Gemm, "gemm"}}, {});
            out.metrics = {1000.0, req.batch * 1e6, 1};
            return out;
        };
        return s;
    }
};

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
    ASSERT_TRUE(QTest::qWaitFor(
        [&] { return window.runsModel()->run(0).status == RunStatus::Done && slow.stepsDone > 3; }, kWaitMs));
    window.cancelSweep();
    ASSERT_TRUE(finished.wait(kWaitMs));
    EXPECT_TRUE(finished.takeFirst().at(0).toBool());
    EXPECT_FALSE(window.isSweepRunning());
    EXPECT_LT(slow.stepsDone.load(), 1 + slow.steps) << "the TP 2 run went on to the end";
    const auto& runs = window.runsModel()->runs();
    ASSERT_EQ(runs.size(), 4u);
    EXPECT_EQ(runs[0].status, RunStatus::Done);
    EXPECT_NE(runs[0].trace, nullptr);
    for (std::size_t i = 1; i < runs.size(); ++i) EXPECT_EQ(runs[i].status, RunStatus::Cancelled) << "run " << i;
}

TEST_F(MainWindowFixture, OpeningABadFileShowsTheErrorAndKeepsThePreviousDocument) {
    Services services = defaultServices();
    services.open = [](const QString& path, const ProgressFn&, const CancelFlag&) -> core::Result<OpenedDocument> {
        if (!path.endsWith(QStringLiteral("good.json"))) {
            return core::makeError(core::ErrorCode::WrongFormat, "not a Kineto trace: no traceEvents array");
        }
        OpenedDocument doc;
        doc.path = path;
        RunRecord run;
        run.request.backend = BackendKind::Imported;
        run.request.tp = 2;
        run.status = RunStatus::Done;
        run.source = path;
        run.trace = test::makeTrace(2, {{0, 5000, core::EventKind::Gemm, "gemm"}}, {});
        doc.runs.push_back(run);
        return doc;
    };
    MainWindow window(services);
    window.setUnsavedPrompt([](QWidget*) { return QMessageBox::Discard; });
    window.show();
    QSignalSpy opened(&window, &MainWindow::documentOpened);
    window.openPath(QStringLiteral("/data/good.json"));
    ASSERT_TRUE(opened.wait(kWaitMs));
    ASSERT_EQ(window.runsModel()->rowCount(), 1);
    const core::Trace* before = window.timelinePanel()->view()->trace();
    ASSERT_NE(before, nullptr);

    QSignalSpy failed(&window, &MainWindow::openFailed);
    window.openPath(QStringLiteral("/data/notes.txt"));
    ASSERT_TRUE(failed.wait(kWaitMs));
    EXPECT_EQ(window.runsModel()->rowCount(), 1);
    EXPECT_EQ(window.timelinePanel()->view()->trace(), before);
    EXPECT_TRUE(window.lastError().contains(QStringLiteral("/data/notes.txt")));
    EXPECT_TRUE(window.lastError().contains(QStringLiteral("no traceEvents array")));
    const auto* banner = window.findChild<ErrorBanner*>();
    ASSERT_NE(banner, nullptr);
    EXPECT_TRUE(banner->isVisible());
    EXPECT_TRUE(banner->text().contains(QStringLiteral("no traceEvents array")));
}

TEST_F(MainWindowFixture, TheDefaultSweepRunsTpOneToEightAndTpOneDoesNotFit) {
    MainWindow window(defaultServices());
    window.setUnsavedPrompt([](QWidget*) { return QMessageBox::Discard; });
    QSignalSpy finished(&window, &MainWindow::sweepFinished);
    window.startDefaultSweep();
    ASSERT_TRUE(finished.wait(kWaitMs));
    EXPECT_FALSE(finished.takeFirst().at(0).toBool());
    const auto* model = window.runsModel();
    ASSERT_EQ(model->rowCount(), 4);
    EXPECT_EQ(model->run(0).request.tp, 1);
    EXPECT_EQ(model->run(0).status, RunStatus::Failed);
    EXPECT_TRUE(model->run(0).error.contains(QStringLiteral("does not fit")));
    for (int row = 1; row < 4; ++row) {
        EXPECT_EQ(model->run(row).status, RunStatus::Done);
        EXPECT_EQ(model->run(row).trace->ranks.size(), static_cast<std::size_t>(model->run(row).request.tp));
        EXPECT_GT(model->run(row).metrics.tokensPerSec, model->run(row - 1).metrics.tokensPerSec) << "row " << row;
    }
    EXPECT_TRUE(window.isModified());
    // The largest TP is on screen once the sweep is done.
    EXPECT_EQ(window.currentRun(), 3);
    EXPECT_EQ(window.timelinePanel()->view()->trace(), model->run(3).trace.get());
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
    EXPECT_EQ(window.runsModel()->rowCount(), 0);
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
    QSignalSpy finished(&window, &MainWindow::sweepFinished);
    window.startDefaultSweep();
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
    EXPECT_FALSE(window.saveTo(QStringLiteral("/nonexistent-tpscope-folder/x.tpscope")));
    EXPECT_TRUE(window.lastError().contains(QStringLiteral("x.tpscope")));
    EXPECT_TRUE(window.lastError().contains(QStringLiteral("does not exist")));
}

}  // namespace
}  // namespace tpscope::ui
