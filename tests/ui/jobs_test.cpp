// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// One job abstraction (ui/jobs/job.h, issue 28 §2): a job reports progress and partial values in order,
// ends in exactly one of result / failed, turns an exception into its error, stops on cancel, and an
// abandoned job calls nothing. In the real window: Run → Cancel stops a file being opened (the runs
// stay), closing the window during a what-if cancels the replay without waiting for it, and a what-if
// or a save whose worker throws std::bad_alloc ends in the error banner.

#include <QAction>
#include <QSignalSpy>
#include <QTest>

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <new>
#include <thread>
#include <vector>

#include "compare_test_support.h"
#include "main_window_test_support.h"
#include "ui/document/run_document.h"
#include "ui/jobs/job.h"
#include "ui/window/compare_controller.h"
#include "ui/window/main_window.h"

namespace tpscope::ui {
namespace {

using test::kWaitMs;

struct Jobs : test::AppGuard, ::testing::Test {};

// Waits (processing events) until `done` or kWaitMs; true when done.
template <typename Done>
bool waitFor(Done done) {
    return QTest::qWaitFor(done, kWaitMs);
}

// Blocks a worker until the test releases it or kWaitMs pass; says which, and whether the job's
// cancel flag was set by then.
struct Gate {
    std::atomic<bool> entered{false};
    std::atomic<bool> released{false};
    std::atomic<bool> returned{false};
    std::atomic<bool> sawCancel{false};
    std::atomic<bool> timedOut{false};

    // Returns when released, or when cancelled if untilCancelled.
    void hold(const core::TaskControl& control, bool untilCancelled) {
        entered = true;
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kWaitMs);
        while (!released && !(untilCancelled && control.cancelled())) {
            if (std::chrono::steady_clock::now() > deadline) {
                timedOut = true;
                break;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
        }
        sawCancel = control.cancelled();
    }
};

TEST_F(Jobs, ProgressAndPartialValuesComeInOrderThenTheResult) {
    QObject owner;
    std::vector<int> partials;
    std::vector<double> progress;
    int result = 0;
    int failures = 0;
    JobHandlers<int, int> handlers;
    handlers.partial = [&](const int& p) { partials.push_back(p); };
    handlers.progress = [&](double f) { progress.push_back(f); };
    handlers.result = [&](int r) { result = r; };
    handlers.failed = [&](const core::Error&) { ++failures; };
    JobHandle job = startJob<int, int>(
        &owner, "count",
        [](const JobContext<int>& context) -> core::Result<int> {
            int sum = 0;
            for (int i = 1; i <= 5; ++i) {
                context.hand(i);
                context.control.report(i / 5.0);
                sum += i;
            }
            return sum;
        },
        handlers);
    EXPECT_GT(job.id(), 0u);
    ASSERT_TRUE(waitFor([&] { return result != 0; }));
    EXPECT_EQ(result, 1 + 2 + 3 + 4 + 5);
    EXPECT_EQ(partials, (std::vector<int>{1, 2, 3, 4, 5}));
    ASSERT_FALSE(progress.empty());
    EXPECT_DOUBLE_EQ(progress.back(), 1.0);
    EXPECT_EQ(failures, 0);
    // Two jobs never share an id.
    JobHandle other = startJob<int>(&owner, "one", [](const JobContext<>&) -> core::Result<int> { return 1; }, {});
    EXPECT_NE(other.id(), job.id());
    other.wait();
}

TEST_F(Jobs, AnExceptionIsTheJobsErrorAndCancelStopsTheWork) {
    QObject owner;
    QString error;
    JobHandlers<int> handlers;
    handlers.failed = [&](const core::Error& e) { error = QString::fromStdString(e.describe()); };
    startJob<int>(
        &owner, "big trace", [](const JobContext<>&) -> core::Result<int> { throw std::bad_alloc(); }, handlers);
    ASSERT_TRUE(waitFor([&] { return !error.isEmpty(); }));
    EXPECT_TRUE(error.contains(QStringLiteral("out of memory"))) << error.toStdString();

    Gate gate;
    std::optional<core::ErrorCode> code;
    JobHandlers<int> cancelled;
    cancelled.failed = [&](const core::Error& e) { code = e.code; };
    JobHandle job = startJob<int>(
        &owner, "wait",
        [&gate](const JobContext<>& context) -> core::Result<int> {
            gate.hold(context.control, true);
            if (context.control.cancelled()) return core::makeError(core::ErrorCode::Cancelled, "cancelled");
            return 1;
        },
        cancelled);
    ASSERT_TRUE(waitFor([&] { return gate.entered.load(); }));
    job.cancel();
    ASSERT_TRUE(waitFor([&] { return code.has_value(); }));
    EXPECT_EQ(*code, core::ErrorCode::Cancelled);
    EXPECT_FALSE(gate.timedOut);
}

TEST_F(Jobs, AnAbandonedJobCallsNoHandler) {
    QObject owner;
    Gate gate;
    int calls = 0;
    JobHandlers<int> handlers;
    handlers.result = [&](int) { ++calls; };
    handlers.failed = [&](const core::Error&) { ++calls; };
    JobHandle job = startJob<int>(
        &owner, "wait",
        [&gate](const JobContext<>& context) -> core::Result<int> {
            gate.hold(context.control, false);
            return 1;  // finishes anyway: the owner dropped it
        },
        handlers);
    ASSERT_TRUE(waitFor([&] { return gate.entered.load(); }));
    job.abandon();
    gate.released = true;
    job.wait();
    QTest::qWait(50);  // the queued end, were it delivered
    EXPECT_TRUE(gate.sawCancel);
    EXPECT_EQ(calls, 0);
}

TEST_F(Jobs, RunCancelStopsAFileBeingOpenedAndKeepsTheRuns) {
    auto gate = std::make_shared<Gate>();
    Services services = defaultServices();
    services.open = [gate](const QString&, const core::TaskControl& control,
                           const OpenPreviewFn&) -> core::Result<OpenedDocument> {
        gate->hold(control, true);
        gate->returned = true;
        return core::makeError(core::ErrorCode::Cancelled, "open cancelled");
    };
    MainWindow window(services);
    window.setUnsavedPrompt([](QWidget*) { return QMessageBox::Discard; });
    window.document()->add(test::importedRun(QStringLiteral("kept.json"), 2));
    EXPECT_FALSE(window.cancelAction()->isEnabled());
    QSignalSpy failed(&window, &MainWindow::openFailed);
    window.openPath(QStringLiteral("/data/huge.pt.trace.json"));
    ASSERT_TRUE(window.isLoading());
    ASSERT_TRUE(waitFor([&] { return gate->entered.load(); }));
    EXPECT_TRUE(window.cancelAction()->isEnabled()) << "Run → Cancel is the way to stop an open";
    window.cancelAction()->trigger();
    EXPECT_FALSE(window.isLoading());
    EXPECT_FALSE(window.cancelAction()->isEnabled());
    ASSERT_TRUE(waitFor([&] { return gate->returned.load(); }));
    EXPECT_TRUE(gate->sawCancel);
    EXPECT_FALSE(gate->timedOut);
    QTest::qWait(50);
    EXPECT_EQ(failed.count(), 0) << "a cancelled open is not a failure";
    EXPECT_TRUE(window.lastError().isEmpty()) << window.lastError().toStdString();
    EXPECT_EQ(window.document()->size(), 1u);
}

TEST_F(Jobs, ClosingTheWindowDuringAWhatIfCancelsItWithoutWaiting) {
    auto gate = std::make_shared<Gate>();
    Services services = defaultServices();
    // Ignores the flag until the test releases it, so a window that waited for it could not close
    // before the release (it would wait for the gate's deadline instead).
    services.whatIf = [gate](std::shared_ptr<const core::Trace>, const core::sim::WhatIfOptions&, RunRecord,
                             const TaskControl& control) -> core::Result<RunRecord> {
        gate->hold(control, false);
        gate->returned = true;
        return core::makeError(core::ErrorCode::Cancelled, "what-if cancelled");
    };
    auto window = std::make_unique<MainWindow>(services);
    window->setUnsavedPrompt([](QWidget*) { return QMessageBox::Discard; });
    const RunId measured =
        window->document()->add(test::simulatedRecord(test::smallRequest(2), core::TraceOrigin::Imported));
    RunConfigChoice choice = prefillFromRun(*window->document()->run(measured), window->catalog());
    choice.fabricId = "pcie4";
    ASSERT_TRUE(window->compareController()->whatIf(measured, choice).ok());
    ASSERT_TRUE(waitFor([&] { return gate->entered.load(); }));
    EXPECT_TRUE(window->close());
    window.reset();
    // Had the window waited for the replay, it would have returned only at the gate's deadline.
    EXPECT_FALSE(gate->timedOut) << "the window waited for the replay";
    gate->released = true;
    ASSERT_TRUE(waitFor([&] { return gate->returned.load(); }));
    EXPECT_TRUE(gate->sawCancel) << "closing the window did not cancel the replay";
}

TEST_F(Jobs, AWhatIfOrASaveThatThrowsEndsInTheErrorBanner) {
    Services services = defaultServices();
    services.whatIf = [](std::shared_ptr<const core::Trace>, const core::sim::WhatIfOptions&, RunRecord,
                         const TaskControl&) -> core::Result<RunRecord> { throw std::bad_alloc(); };
    services.saveWorkspace = [](const QString&, const WorkspaceSnapshot&, const TaskControl&) -> core::Status {
        throw std::bad_alloc();
    };
    MainWindow window(services);
    window.setUnsavedPrompt([](QWidget*) { return QMessageBox::Discard; });
    const RunId measured =
        window.document()->add(test::simulatedRecord(test::smallRequest(2), core::TraceOrigin::Imported));
    RunConfigChoice choice = prefillFromRun(*window.document()->run(measured), window.catalog());
    QSignalSpy whatIfFailed(window.compareController(), &CompareController::comparisonFailed);
    ASSERT_TRUE(window.compareController()->whatIf(measured, choice).ok());
    ASSERT_TRUE(whatIfFailed.wait(kWaitMs));
    EXPECT_TRUE(window.lastError().contains(QStringLiteral("out of memory"))) << window.lastError().toStdString();
    EXPECT_FALSE(window.compareController()->isWhatIfRunning());
    QSignalSpy saved(&window, &MainWindow::saveFinished);
    ASSERT_TRUE(window.saveTo(QStringLiteral("/tmp/never-written.tpscope")));
    ASSERT_TRUE(saved.wait(kWaitMs));
    EXPECT_FALSE(saved.front().at(1).toBool());
    EXPECT_TRUE(window.lastError().contains(QStringLiteral("Could not save")) &&
                window.lastError().contains(QStringLiteral("out of memory")))
        << window.lastError().toStdString();
    EXPECT_FALSE(window.isSaving());
}

}  // namespace
}  // namespace tpscope::ui
