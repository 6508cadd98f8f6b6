// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Issue 45 §1: nothing a user made is ever lost. Each test is one trigger a user can hit, driven
// through the real window (or the job abstraction, the save and the timeline it relies on), and
// fails on 978c820's behaviour:
//   1 Undo after a save makes the workspace unsaved again (the undo stack's clean state).
//   2 A save that ends after another workspace was opened does not point the window back at its file.
//   3 Close → Save and Open → Save ask again when a run arrived while the file was written.
//   4 Replacing a workspace with fewer runs asks first and keeps the previous file as NAME~.
//   5 A What-if prediction makes the workspace unsaved.
//   6 Out of memory in the save's compression threads, or in the timeline's paint pool, is an error
//     (no std::terminate, no temporary file left).
//   7 A job whose work never ran still ends (cancelled), so the window is never "saving" forever.
//   8 A save keeps the file's permissions and writes through a symbolic link to its target.
//   9 The workspace keeps what the view shows: failed runs with their reasons, the price, the
//     latency target, the advice threshold, the Compare set with its baseline and aligned layer,
//     the current run.
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QPainter>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>
#include <QUndoStack>

#include <gtest/gtest.h>

#include <sys/stat.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <memory>
#include <new>
#include <thread>
#include <vector>

#include "compare_test_support.h"
#include "core/io/workspace/workspace.h"
#include "main_window_test_support.h"
#include "tests/synthetic_trace.h"
#include "ui/charts/chart_set.h"
#include "ui/charts/charts_controller.h"
#include "ui/compare/compare_view.h"
#include "ui/compare/run_config_dialog.h"
#include "ui/document/run_document.h"
#include "ui/jobs/io_services.h"
#include "ui/jobs/job.h"
#include "ui/planning/advice_page.h"
#include "ui/timeline/timeline_view.h"
#include "ui/window/chart_tabs.h"
#include "ui/window/compare_controller.h"
#include "ui/window/main_window.h"
#include "ui/window/planning_tabs.h"

// Allocation failure on demand: while armed, an allocation of at least `failFrom` bytes on a thread
// other than the test's (the GUI thread) throws std::bad_alloc, as a machine out of memory would in
// the save's compression threads or the timeline's paint pool. Off (0) everywhere else.
namespace {
std::atomic<std::size_t> failFrom{0};
std::atomic<std::thread::id> spared{};
std::atomic<int> failedAllocations{0};

void* allocate(std::size_t n) {
    const std::size_t limit = failFrom.load(std::memory_order_relaxed);
    if (limit != 0 && n >= limit && std::this_thread::get_id() != spared.load()) {
        ++failedAllocations;
        throw std::bad_alloc();
    }
    if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
    throw std::bad_alloc();
}

struct FailLargeAllocationsOffThisThread {
    explicit FailLargeAllocationsOffThisThread(std::size_t bytes) {
        failedAllocations = 0;
        spared = std::this_thread::get_id();
        failFrom = bytes;
    }
    ~FailLargeAllocationsOffThisThread() { failFrom = 0; }
    FailLargeAllocationsOffThisThread(const FailLargeAllocationsOffThisThread&) = delete;
    FailLargeAllocationsOffThisThread& operator=(const FailLargeAllocationsOffThisThread&) = delete;
};
}  // namespace

void* operator new(std::size_t n) {
    return allocate(n);
}
void* operator new[](std::size_t n) {
    return allocate(n);
}
void operator delete(void* p) noexcept {
    std::free(p);
}
void operator delete[](void* p) noexcept {
    std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
    std::free(p);
}
void operator delete[](void* p, std::size_t) noexcept {
    std::free(p);
}

namespace tpscope::ui {
namespace {

using test::kWaitMs;

struct DataLoss : test::AppGuard, ::testing::Test {
    QTemporaryDir dir;
    QString path(const char* name) const { return dir.filePath(QString::fromLatin1(name)); }
};

// A save that waits for the test's word before it writes (through core, as the window's own does).
struct HeldSave {
    std::atomic<bool> entered{false};
    std::atomic<bool> released{false};

    decltype(Services::saveWorkspace) service() {
        return [this](const QString& path, const WorkspaceSnapshot& snapshot, const TaskControl& control) {
            entered = true;
            const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kWaitMs);
            while (!released && std::chrono::steady_clock::now() < deadline) {
                std::this_thread::sleep_for(std::chrono::milliseconds(2));
            }
            return saveWithIo(path, snapshot, control);
        };
    }

    // Starts a save with `start` (Ctrl+S, Close → Save, Open → Save), does `during` while the file is
    // being written, then lets the write end. Returns saveFinished's `saved`.
    bool around(MainWindow& window, const std::function<void()>& start, const std::function<void()>& during) {
        QSignalSpy saved(&window, &MainWindow::saveFinished);
        start();
        EXPECT_TRUE(QTest::qWaitFor([&] { return entered.load(); }, kWaitMs)) << "the save never started";
        if (!entered) return false;
        during();
        released = true;
        EXPECT_TRUE(saved.wait(kWaitMs)) << "the save never ended";
        return !saved.isEmpty() && saved.front().at(1).toBool();
    }
};

// The window's services with its saves held by `held`.
Services servicesHolding(HeldSave& held) {
    Services services = defaultServices();
    services.saveWorkspace = held.service();
    return services;
}

RunRecord finishedRun(int tp) {
    return test::simulatedRecord(test::smallRequest(tp));
}

// A workspace file of `runs` small simulated runs (TP 1, 2, …).
void writeWorkspace(const QString& file, int runs) {
    std::vector<RunRecord> records;
    for (int i = 0; i < runs; ++i) records.push_back(finishedRun(1 << i));
    ASSERT_TRUE(saveWithIo(file, records, {}).ok());
}

std::size_t runsIn(const QString& file) {
    auto infos = core::listWorkspaceRuns(file.toStdString());
    EXPECT_TRUE(infos.ok()) << file.toStdString();
    return infos ? infos->size() : 0;
}

void openAndWait(MainWindow& window, const QString& file) {
    QSignalSpy opened(&window, &MainWindow::documentOpened);
    window.openPath(file);
    ASSERT_TRUE(opened.count() > 0 || opened.wait(kWaitMs)) << window.lastError().toStdString();
}

void saveAndWait(MainWindow& window, const QString& file, bool expectSaved = true) {
    QSignalSpy saved(&window, &MainWindow::saveFinished);
    ASSERT_TRUE(window.saveTo(file));
    ASSERT_TRUE(saved.wait(kWaitMs));
    ASSERT_EQ(saved.front().at(1).toBool(), expectSaved) << window.lastError().toStdString();
}

// 1
TEST_F(DataLoss, UndoAfterASaveMakesTheWorkspaceUnsavedAndQuittingAsks) {
    const QString a = path("a.tpscope");
    ASSERT_NO_FATAL_FAILURE(writeWorkspace(a, 2));
    MainWindow window(defaultServices());
    window.setConfirmPrompt([](QWidget*, const QString&) { return true; });
    ASSERT_NO_FATAL_FAILURE(openAndWait(window, a));
    ASSERT_FALSE(window.isModified());
    ASSERT_TRUE(window.clearRuns());
    EXPECT_TRUE(window.isModified());
    ASSERT_NO_FATAL_FAILURE(saveAndWait(window, a));  // an empty workspace over a.tpscope
    EXPECT_FALSE(window.isModified());
    window.undoStack()->undo();  // the runs come back; the file holds none of them
    ASSERT_EQ(window.document()->size(), 2u);
    EXPECT_TRUE(window.isModified());
    EXPECT_TRUE(window.windowTitle().contains(QStringLiteral("*"))) << window.windowTitle().toStdString();
    int asked = 0;
    window.setUnsavedPrompt([&](QWidget*) {
        ++asked;
        return QMessageBox::Cancel;
    });
    window.show();
    EXPECT_FALSE(window.close());
    EXPECT_EQ(asked, 1) << "quitting lost the runs Undo brought back without a question";
    window.undoStack()->redo();  // back to what the file holds: nothing unsaved
    EXPECT_FALSE(window.isModified());
}

// 2
TEST_F(DataLoss, ASaveThatEndsAfterAnotherWorkspaceOpenedLeavesTheWindowOnThatOne) {
    const QString a = path("a.tpscope");
    const QString b = path("b.tpscope");
    ASSERT_NO_FATAL_FAILURE(writeWorkspace(a, 2));
    ASSERT_NO_FATAL_FAILURE(writeWorkspace(b, 1));
    HeldSave held;
    MainWindow window(servicesHolding(held));
    ASSERT_NO_FATAL_FAILURE(openAndWait(window, a));
    const bool saved = held.around(
        window, [&] { EXPECT_TRUE(window.saveTo(a)); },
        [&] {
            openAndWait(window, b);  // while A is still being written
            EXPECT_EQ(window.currentPath(), b);
        });
    EXPECT_TRUE(saved);
    EXPECT_EQ(window.currentPath(), b) << "the window points at A again; Ctrl+S would write B's runs into A";
    EXPECT_FALSE(window.isModified());
    EXPECT_FALSE(window.windowTitle().contains(QStringLiteral("*"))) << window.windowTitle().toStdString();
    EXPECT_EQ(runsIn(a), 2u);
    EXPECT_EQ(runsIn(b), 1u);
}

// 3, Close → Save
TEST_F(DataLoss, CloseThenSaveAsksAgainWhenARunArrivedDuringTheWrite) {
    const QString a = path("a.tpscope");
    ASSERT_NO_FATAL_FAILURE(writeWorkspace(a, 1));
    HeldSave held;
    MainWindow window(servicesHolding(held));
    ASSERT_NO_FATAL_FAILURE(openAndWait(window, a));
    window.markUnsaved();
    std::vector<QMessageBox::StandardButton> answers{QMessageBox::Save, QMessageBox::Cancel};
    std::size_t asked = 0;
    window.setUnsavedPrompt([&](QWidget*) { return answers.at(std::min(asked++, answers.size() - 1)); });
    window.show();
    held.around(
        window, [&] { EXPECT_FALSE(window.close()); },     // Save: the window waits for the write
        [&] { window.document()->add(finishedRun(2)); });  // a run that finished while the file was written
    QApplication::processEvents();
    EXPECT_EQ(asked, 2u) << "the window closed without asking about the run that is not in the file";
    EXPECT_TRUE(window.isVisible());
    EXPECT_TRUE(window.isModified());
    EXPECT_EQ(runsIn(a), 1u);
}

// 3, Open → Save
TEST_F(DataLoss, OpenThenSaveAsksAgainWhenARunArrivedDuringTheWrite) {
    const QString a = path("a.tpscope");
    const QString b = path("b.tpscope");
    ASSERT_NO_FATAL_FAILURE(writeWorkspace(a, 1));
    ASSERT_NO_FATAL_FAILURE(writeWorkspace(b, 2));
    HeldSave held;
    MainWindow window(servicesHolding(held));
    ASSERT_NO_FATAL_FAILURE(openAndWait(window, a));
    window.markUnsaved();
    std::vector<QMessageBox::StandardButton> answers{QMessageBox::Save, QMessageBox::Cancel};
    std::size_t asked = 0;
    window.setUnsavedPrompt([&](QWidget*) { return answers.at(std::min(asked++, answers.size() - 1)); });
    QSignalSpy opened(&window, &MainWindow::documentOpened);
    held.around(
        window, [&] { window.openPath(b); }, [&] { window.document()->add(finishedRun(2)); });
    QTest::qWait(200);  // a load, had one started, lands meanwhile
    EXPECT_EQ(asked, 2u) << "B replaced the runs without asking about the one that is not in A";
    EXPECT_EQ(opened.count(), 0);
    EXPECT_EQ(window.currentPath(), a);
    EXPECT_EQ(window.document()->size(), 2u);
}

// 4
TEST_F(DataLoss, ReplacingAWorkspaceWithFewerRunsAsksAndKeepsThePreviousFile) {
    const QString a = path("a.tpscope");
    ASSERT_NO_FATAL_FAILURE(writeWorkspace(a, 2));
    MainWindow window(defaultServices());
    QStringList questions;
    bool yes = false;
    window.setConfirmPrompt([&](QWidget*, const QString& question) {
        questions << question;
        return yes || question.startsWith(QStringLiteral("Remove all"));
    });
    ASSERT_NO_FATAL_FAILURE(openAndWait(window, a));
    ASSERT_TRUE(window.clearRuns());  // Ctrl+A, Delete
    questions.clear();
    EXPECT_FALSE(window.saveTo(a)) << "an empty workspace replaced two runs without a question";
    ASSERT_EQ(questions.size(), 1);
    EXPECT_TRUE(questions.front().contains(QStringLiteral("2 runs"))) << questions.front().toStdString();
    EXPECT_EQ(runsIn(a), 2u);
    yes = true;
    ASSERT_NO_FATAL_FAILURE(saveAndWait(window, a));
    EXPECT_EQ(runsIn(a), 0u);
    const QString backup = a + QStringLiteral("~");
    ASSERT_TRUE(QFileInfo::exists(backup));
    EXPECT_EQ(runsIn(backup), 2u);
}

// 5
TEST_F(DataLoss, AWhatIfPredictionMakesTheWorkspaceUnsaved) {
    Services services = defaultServices();
    services.whatIf = [](std::shared_ptr<const core::Trace>, const core::sim::WhatIfOptions&, RunRecord base,
                         const TaskControl&) -> core::Result<RunRecord> {
        RunRecord predicted = finishedRun(2);
        predicted.source = base.source + QStringLiteral(" (what-if)");
        return predicted;
    };
    MainWindow window(services);
    const RunId measured =
        window.document()->add(test::simulatedRecord(test::smallRequest(2), core::TraceOrigin::Imported));
    ASSERT_FALSE(window.isModified()) << "an opened trace is not the user's work";
    RunConfigChoice choice = prefillFromRun(*window.document()->run(measured), window.catalog());
    choice.fabricId = "pcie4";
    QSignalSpy shown(window.compareController(), &CompareController::comparisonShown);
    ASSERT_TRUE(window.compareController()->whatIf(measured, choice).ok());
    ASSERT_TRUE(QTest::qWaitFor([&] { return window.document()->size() == 2u; }, kWaitMs));
    EXPECT_TRUE(window.isModified()) << "quitting would lose the prediction without a question";
}

// 6, the save's compression threads
TEST_F(DataLoss, OutOfMemoryInTheSaveCompressionThreadsIsAnErrorAndLeavesNoTemporaryFile) {
    RunRecord big;
    big.status = RunStatus::Done;
    big.request = test::smallRequest(2);
    // Streams of more than one chunk (65536 events): each chunk's encoding is a large allocation.
    big.trace = test::makeSyntheticTrace({.ranks = 2, .steps = 10, .layers = 1200, .seed = 3});
    MainWindow window(defaultServices());
    window.document()->add(big);
    const QString target = path("big.tpscope");
    QSignalSpy saved(&window, &MainWindow::saveFinished);
    {
        FailLargeAllocationsOffThisThread outOfMemory(std::size_t{64} << 10);
        ASSERT_TRUE(window.saveTo(target));
        ASSERT_TRUE(saved.wait(kWaitMs));
    }
    EXPECT_GT(failedAllocations.load(), 0) << "the test's allocation failure never happened";
    EXPECT_FALSE(saved.front().at(1).toBool());
    EXPECT_TRUE(window.lastError().contains(QStringLiteral("out of memory"))) << window.lastError().toStdString();
    EXPECT_FALSE(QFileInfo::exists(target));
    EXPECT_TRUE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).isEmpty())
        << QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).join(QLatin1Char(' ')).toStdString();
    EXPECT_FALSE(window.isSaving());
}

// 6, the timeline's paint pool
TEST_F(DataLoss, OutOfMemoryInTheTimelinesPaintPoolDoesNotEndThePaint) {
    // More than the renderer's threshold for its own pool (500 000 events), on several rows.
    auto trace = test::makeSyntheticTrace({.ranks = 4, .steps = 10, .layers = 2000, .seed = 5});
    ASSERT_GE(trace->eventCount(), 500'000u);
    TimelineView view;
    view.resize(1600, 900);
    view.setTrace(trace);
    std::int64_t t0 = INT64_MAX;
    for (const auto& rank : trace->ranks) t0 = std::min(t0, rank.streams.front().events.startNs(0));
    view.setVisibleRange(t0, t0 + 3'000'000);  // some hundreds of events a row: spans allocate
    QImage image(view.size(), QImage::Format_ARGB32_Premultiplied);
    {
        FailLargeAllocationsOffThisThread outOfMemory(4096);
        QPainter painter(&image);
        EXPECT_NO_THROW(view.render(&painter));
    }
    EXPECT_GT(failedAllocations.load(), 0) << "the test's allocation failure never happened";
    // The next paint, with memory back, draws every row again.
    QPainter painter(&image);
    EXPECT_NO_THROW(view.render(&painter));
}

// 7
TEST_F(DataLoss, AJobWhoseWorkNeverRanEndsAsCancelled) {
    QThreadPool pool;
    pool.setMaxThreadCount(1);
    QObject owner;
    std::atomic<bool> release{false};
    int firstEnded = 0;
    JobHandlers<int> first;
    first.result = [&](int) { ++firstEnded; };
    startJob<int>(
        &owner, "first",
        [&release](const JobContext<>&) -> core::Result<int> {
            while (!release) std::this_thread::sleep_for(std::chrono::milliseconds(1));
            return 1;
        },
        std::move(first), &pool);
    int secondResults = 0;
    std::vector<core::ErrorCode> secondFailures;
    JobHandlers<int> second;
    second.result = [&](int) { ++secondResults; };
    second.failed = [&](const core::Error& e) { secondFailures.push_back(e.code); };
    const JobHandle queued = startJob<int>(
        &owner, "second", [](const JobContext<>&) -> core::Result<int> { return 2; }, std::move(second), &pool);
    pool.clear();  // the queued job's task is dropped before it ran
    release = true;
    pool.waitForDone();
    ASSERT_TRUE(QTest::qWaitFor([&] { return firstEnded == 1 && (secondResults + secondFailures.size()) > 0; }, 2000))
        << "the second job never ended: its owner would wait for it forever";
    EXPECT_EQ(secondResults, 0);
    ASSERT_EQ(secondFailures.size(), 1u);
    EXPECT_EQ(secondFailures.front(), core::ErrorCode::Cancelled);
    EXPECT_FALSE(queued.isRunning());
}

// 8
TEST_F(DataLoss, ASaveKeepsThePermissionsAndWritesThroughASymbolicLink) {
    const QString real = path("real.tpscope");
    const QString link = path("link.tpscope");
    ASSERT_NO_FATAL_FAILURE(writeWorkspace(real, 1));
    ASSERT_EQ(::chmod(real.toLocal8Bit().constData(), 0640), 0);
    ASSERT_TRUE(QFile::link(real, link));
    MainWindow window(defaultServices());
    window.document()->add(finishedRun(1));
    window.document()->add(finishedRun(2));
    ASSERT_NO_FATAL_FAILURE(saveAndWait(window, link));
    EXPECT_TRUE(QFileInfo(link).isSymLink()) << "the link was replaced by a file";
    EXPECT_EQ(runsIn(real), 2u) << "the link's target was not written";
    struct stat st {};
    ASSERT_EQ(::stat(real.toLocal8Bit().constData(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0640u);
}

// 9
TEST_F(DataLoss, TheWorkspaceKeepsWhatTheViewShows) {
    const QString file = path("view.tpscope");
    double price = 0;
    double target = 0;
    double threshold = 0;
    int aligned = -1;
    RunId baselineWas = RunId::None;
    {
        MainWindow window(defaultServices());
        const RunId tp1 = window.document()->add(finishedRun(1));
        const RunId tp2 = window.document()->add(finishedRun(2));
        RunRecord failed;
        failed.request = test::smallRequest(8);
        failed.status = RunStatus::Failed;
        failed.error = QStringLiteral("does not fit: needs 90 GiB of 80");
        window.document()->add(failed);
        auto* charts = window.chartTabs()->charts()->controller();
        price = charts->pricePerGpuHour() + 1.25;
        target = charts->latencyTargetMs() + 7;
        charts->setPricePerGpuHour(price);
        charts->setLatencyTargetMs(target);
        threshold = window.planningTabs()->advice()->efficiencyThreshold() == 0.6 ? 0.65 : 0.6;
        window.planningTabs()->advice()->setEfficiencyThreshold(threshold);
        ASSERT_TRUE(window.compareController()->compare({tp1, tp2}).ok());
        ASSERT_TRUE(window.compareController()->view()->setBaseline(1));
        baselineWas = window.compareController()->view()->baselineRun();
        ASSERT_EQ(baselineWas, tp2);
        ASSERT_TRUE(window.compareController()->view()->alignOnLayer(1));
        aligned = window.compareController()->view()->alignedLayer();
        window.selectRun(tp2);
        ASSERT_NO_FATAL_FAILURE(saveAndWait(window, file));
    }
    MainWindow reopened(defaultServices());
    ASSERT_NO_FATAL_FAILURE(openAndWait(reopened, file));
    const auto& runs = reopened.document()->runs();
    ASSERT_EQ(runs.size(), 3u) << "the failed run was dropped";
    EXPECT_EQ(runs[2].status, RunStatus::Failed);
    EXPECT_EQ(runs[2].error, QStringLiteral("does not fit: needs 90 GiB of 80"));
    auto* charts = reopened.chartTabs()->charts()->controller();
    EXPECT_DOUBLE_EQ(charts->pricePerGpuHour(), price);
    EXPECT_DOUBLE_EQ(charts->latencyTargetMs(), target);
    EXPECT_DOUBLE_EQ(reopened.planningTabs()->advice()->efficiencyThreshold(), threshold);
    EXPECT_EQ(reopened.currentRun(), runs[1].id);
    const CompareView* compare = reopened.compareController()->view();
    ASSERT_EQ(compare->runs().size(), 2u);
    EXPECT_EQ(compare->baselineRun(), runs[1].id);
    EXPECT_EQ(compare->alignedLayer(), aligned);
    EXPECT_FALSE(reopened.isModified());
}

}  // namespace
}  // namespace tpscope::ui
