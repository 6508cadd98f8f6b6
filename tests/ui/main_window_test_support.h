// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Fakes for driving the main window in tests: runs that take a known number of short steps and
// honour (or ignore) the cancel flag, and an open service with canned documents.

#include <QMessageBox>
#include <QSignalSpy>
#include <QString>

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <thread>

#include "ui/document/run_document.h"
#include "ui/window/main_window.h"
#include "ui_test_support.h"

namespace tpscope::test {

constexpr int kWaitMs = 20'000;  // generous: the machine is shared; a pass takes milliseconds

// Runs the window's default sweep (what `./setup.sh gui` opens on) to its end; the unsaved-work prompt
// answers Discard. Call it inside ASSERT_NO_FATAL_FAILURE.
inline void runDefaultSweep(ui::MainWindow& window, int timeoutMs = 120'000) {
    window.setUnsavedPrompt([](QWidget*) { return QMessageBox::Discard; });
    QSignalSpy finished(&window, &ui::MainWindow::sweepFinished);
    ASSERT_TRUE(window.startDefaultSweep());
    ASSERT_TRUE(finished.wait(timeoutMs));
}

inline const ui::RunRecord& runAt(const ui::MainWindow& window, std::size_t i) {
    return window.document()->runs().at(i);
}

// A run takes `steps` polls of 2 ms (the TP 1 run finishes at once) and counts them, so a test can
// tell that it stopped early because of the cancel flag rather than by finishing.
struct SlowRuns {
    std::atomic<int> stepsDone{0};
    int steps = 500;
    bool honourCancel = true;
    int quickRuns = 0;  // runs with an index below this finish at once (besides TP 1)

    ui::Services services() {
        ui::Services s = ui::defaultServices();
        auto index = std::make_shared<std::atomic<int>>(0);
        s.runSweep = ui::sweepOfRuns(
            [this, index](const ui::RunRequest& req, const core::TaskControl& control) -> core::Result<ui::RunOutcome> {
                const int i = (*index)++;
                const int n = req.tp == 1 || i < quickRuns ? 1 : steps;
                for (int k = 0; k < n; ++k) {
                    if (honourCancel && control.cancelled())
                        return core::makeError(core::ErrorCode::Cancelled, "run cancelled");
                    std::this_thread::sleep_for(std::chrono::milliseconds(2));
                    ++stepsDone;
                    control.report(static_cast<double>(k + 1) / n);
                }
                ui::RunOutcome out;
                out.trace = makeTrace(req.tp, {{0, 1000, core::EventKind::Gemm, "gemm"}}, {});
                return out;
            });
        return s;
    }
};

// Documents by path: a path ending in .tpscope is a workspace of `runs` imported runs; "good.json"
// one imported run; anything else fails like a file that is not a trace.
struct FakeFile {
    int runs = 1;
    int delayMs = 0;    // reading
    int analyseMs = 0;  // between the preview of the first run and the end
};

inline ui::RunRecord importedRun(const QString& source, int ranks) {
    ui::RunRecord run;
    run.request.backend = ui::BackendKind::Imported;
    run.request.tp = ranks;
    run.status = ui::RunStatus::Done;
    run.source = source;
    run.trace = makeTrace(ranks, {{0, 5000, core::EventKind::Gemm, "gemm"}}, {});
    return run;
}

inline decltype(ui::Services::open) fakeOpen(std::map<QString, FakeFile> files) {
    return [files](const QString& path, const core::TaskControl&,
                   const ui::OpenPreviewFn& preview) -> core::Result<ui::OpenedDocument> {
        const auto it = files.find(path.section(QLatin1Char('/'), -1));
        const FakeFile file = it == files.end() ? FakeFile{} : it->second;
        if (file.delayMs > 0) std::this_thread::sleep_for(std::chrono::milliseconds(file.delayMs));
        ui::OpenedDocument doc;
        doc.path = path;
        if (path.endsWith(QStringLiteral(".tpscope"))) {
            doc.isWorkspace = true;
            for (int i = 0; i < file.runs; ++i) doc.runs.push_back(importedRun(path + QString::number(i), 2 + i));
        } else if (path.endsWith(QStringLiteral(".json")) && it != files.end()) {
            doc.runs.push_back(importedRun(path, 2));
        } else if (path.endsWith(QStringLiteral("good.json"))) {
            doc.runs.push_back(importedRun(path, 2));
        } else {
            return core::makeError(core::ErrorCode::WrongFormat, "not a Kineto trace: no traceEvents array");
        }
        if (!doc.runs.empty()) ui::previewRun(doc.runs.front(), preview);
        if (file.analyseMs > 0) std::this_thread::sleep_for(std::chrono::milliseconds(file.analyseMs));
        for (auto& run : doc.runs) ui::deriveRunData(run);
        return doc;
    };
}

}  // namespace tpscope::test
