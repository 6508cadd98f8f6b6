// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// MainWindow: opening (dialog, rank folder, recent files, drag-and-drop), saving (a job on a worker
// thread with progress and Cancel, no nested event loop), exporting the current view, and the
// unsaved-changes prompt (asked before a workspace load starts).

#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QMimeData>
#include <QProgressBar>
#include <QProgressDialog>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>
#include <QUndoStack>
#include <QtConcurrent/QtConcurrentRun>

#include <atomic>
#include <memory>
#include <utility>

#include "ui/document_loader.h"
#include "ui/export/plot_export.h"
#include "ui/main_window.h"
#include "ui/run_document.h"
#include "ui/runs_model.h"
#include "ui/sweep_runner.h"
#include "ui/timeline/timeline_panel.h"
#include "ui/view_tab.h"
#include "ui/worker_guard.h"

namespace tpscope::ui {

namespace {

QString lastDirectory() {
    return QSettings().value(QStringLiteral("lastDirectory")).toString();
}

void rememberDirectory(const QString& path) {
    QSettings().setValue(QStringLiteral("lastDirectory"), QFileInfo(path).absolutePath());
}

}  // namespace

void MainWindow::openDialog() {
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open workspace or trace"), lastDirectory(),
        tr("Workspaces and traces (*.tpscope *.json *.json.gz *.pt.trace.json *.sqlite *.db);;"
           "tpscope workspaces (*.tpscope);;Kineto / PyTorch profiler traces (*.json *.json.gz);;"
           "Nsight Systems SQLite exports (*.sqlite *.db);;All files (*)"));
    if (!path.isEmpty()) openPath(path);
}

void MainWindow::openFolderDialog() {
    const QString path =
        QFileDialog::getExistingDirectory(this, tr("Open a folder of per-rank traces"), lastDirectory());
    if (!path.isEmpty()) openPath(path);
}

void MainWindow::openPath(const QString& path) {
    rememberDirectory(path);
    // A workspace replaces every run: ask about unsaved ones before reading it, not after.
    if (m_modified && path.endsWith(QStringLiteral(".tpscope"), Qt::CaseInsensitive)) {
        const auto answer = m_unsavedPrompt(this);
        if (answer == QMessageBox::Save) {
            save([this, path](bool saved) {
                if (saved) startLoad(path, true);
            });
            return;
        }
        if (answer != QMessageBox::Discard) {
            statusBar()->showMessage(tr("Did not open %1: the current runs are kept").arg(path), 10'000);
            return;
        }
        startLoad(path, true);
        return;
    }
    startLoad(path, false);
}

void MainWindow::startLoad(const QString& path, bool askedFirst) {
    m_loadAskedFor = askedFirst ? path : QString();
    statusBar()->showMessage(tr("Opening %1…").arg(path));
    m_loadFraction = 0;
    m_loader->start(path);
    updateStatusProgress();
    if (m_current == RunId::None) m_timeline->showLoading(path);
}

bool MainWindow::isLoading() const {
    return m_loader != nullptr && m_loader->isLoading();
}

void MainWindow::onDocumentPreview(const RunRecord& firstRun) {
    // Only where the timeline shows nothing yet: the document itself changes on loaded alone (after
    // the unsaved-changes prompt), and a run the user is looking at is not taken away before that.
    if (m_current != RunId::None) return;
    m_timeline->showPreview(firstRun);
    statusBar()->showMessage(tr("Read %1; analysing…").arg(firstRun.source));
}

void MainWindow::onDocumentLoaded(OpenedDocument document) {
    updateStatusProgress();
    const bool asked = !m_loadAskedFor.isEmpty() && m_loadAskedFor == document.path;
    m_loadAskedFor.clear();
    if (document.isWorkspace && m_modified && !asked) {
        // A workspace under another name than *.tpscope: the question comes now, before it replaces the runs.
        const auto answer = m_unsavedPrompt(this);
        if (answer == QMessageBox::Save) {
            auto kept = std::make_shared<OpenedDocument>(std::move(document));
            save([this, kept](bool saved) {
                if (saved) applyLoadedWorkspace(std::move(*kept));
            });
            return;
        }
        if (answer != QMessageBox::Discard) {
            statusBar()->showMessage(tr("Did not open %1: the current runs are kept").arg(document.path), 10'000);
            if (m_current == RunId::None) m_timeline->setCurrentRun(RunId::None);
            return;
        }
    }
    applyLoadedWorkspace(std::move(document));
}

void MainWindow::applyLoadedWorkspace(OpenedDocument document) {
    if (document.isWorkspace) {
        // The workspace replaces every run: a sweep still running would have nowhere to go.
        if (isSweepRunning()) m_sweep->cancel();
        m_undo->clear();  // its commands refer to runs of the replaced document
        m_document->resetRuns(std::move(document.runs));
        m_path = document.path;
        setModified(false);
    } else {
        // An opened trace is not work the user made: it does not make the workspace unsaved.
        const auto ids = m_document->add(std::move(document.runs));
        if (!ids.empty()) selectRun(ids.front());
    }
    clearError();
    addRecentFile(document.path);
    m_timeline->focusView();
    statusBar()->showMessage(document.note.isEmpty() ? tr("Opened %1").arg(document.path)
                                                     : tr("Opened %1 — %2").arg(document.path, document.note),
                             10'000);
    Q_EMIT documentOpened(document.path);
}

void MainWindow::onDocumentFailed(const QString& path, const QString& message) {
    updateStatusProgress();
    // The current document stays as it was: nothing was replaced before the load succeeded.
    if (m_current == RunId::None) m_timeline->setCurrentRun(RunId::None);
    showError(tr("Could not open %1: %2").arg(path, message));
    Q_EMIT openFailed(path, message);
}

bool MainWindow::saveTo(const QString& path, std::function<void(bool saved)> then) {
    if (!m_services.saveWorkspace) return false;
    if (m_saving) {
        showError(tr("Could not save %1: %2 is still being saved").arg(path, m_savePath));
        return false;
    }
    m_saving = true;
    m_savePath = path;
    m_saveRevision = m_document->revision();
    m_afterSave = std::move(then);
    // A job of its own: a snapshot of the runs (the worker never reads the document), progress and
    // Cancel through one flag, its end delivered to onSaveDone by a watcher. No nested event loop:
    // runs that finish and files that load meanwhile are applied as they come.
    struct Progress {
        std::atomic<int> perMille{0};
        CancelFlag cancel{false};
    };
    auto progress = std::make_shared<Progress>();
    m_saveDialog = new QProgressDialog(tr("Saving %1…").arg(path), tr("Cancel"), 0, 1000, this);
    m_saveDialog->setWindowModality(Qt::WindowModal);
    m_saveDialog->setMinimumDuration(400);
    m_saveDialog->setAutoClose(false);
    m_saveDialog->setAutoReset(false);
    connect(m_saveDialog, &QProgressDialog::canceled, this, [progress] { progress->cancel.store(true); });
    auto* poll = new QTimer(m_saveDialog);
    connect(poll, &QTimer::timeout, m_saveDialog,
            [dialog = m_saveDialog, progress] { dialog->setValue(progress->perMille.load()); });
    poll->start(50);
    statusBar()->showMessage(tr("Saving %1…").arg(path));
    struct Outcome {
        QString error;
        bool cancelled = false;
    };
    auto future = QtConcurrent::run([save = m_services.saveWorkspace, path, runs = m_document->runs(), progress] {
        const TaskControl control{[progress](double f) { progress->perMille.store(static_cast<int>(f * 999)); },
                                  &progress->cancel};
        const core::Status status =
            guardWorker([&]() -> core::Status { return save(path, runs, control); }, path.toStdString());
        if (status) return Outcome{};
        return Outcome{QString::fromStdString(status.error().message),
                       status.error().code == core::ErrorCode::Cancelled};
    });
    auto* watcher = new QFutureWatcher<Outcome>(this);
    connect(watcher, &QFutureWatcher<Outcome>::finished, this, [this, watcher] {
        watcher->deleteLater();
        const Outcome outcome = watcher->result();
        onSaveDone(outcome.error, outcome.cancelled);
    });
    watcher->setFuture(future);
    return true;
}

void MainWindow::onSaveDone(const QString& error, bool cancelled) {
    m_saving = false;
    if (m_saveDialog) m_saveDialog->deleteLater();
    const QString path = m_savePath;
    const bool saved = error.isEmpty();
    if (cancelled) {
        statusBar()->showMessage(tr("Save cancelled: %1 was not written").arg(path), 10'000);
    } else if (!saved) {
        showError(tr("Could not save %1: %2").arg(path, error));
    } else {
        m_path = path;
        // What changed while it was written (a run that finished) is not in the file.
        setModified(m_document->revision() != m_saveRevision);
        addRecentFile(path);
        statusBar()->showMessage(tr("Saved %1").arg(path), 5'000);
    }
    Q_EMIT saveFinished(path, saved);
    if (auto then = std::exchange(m_afterSave, {})) then(saved);
}

bool MainWindow::save(std::function<void(bool saved)> then) {
    return m_path.isEmpty() ? saveAsDialog(std::move(then)) : saveTo(m_path, std::move(then));
}

bool MainWindow::saveAsDialog(std::function<void(bool saved)> then) {
    QString path =
        QFileDialog::getSaveFileName(this, tr("Save workspace"), lastDirectory(), tr("tpscope workspaces (*.tpscope)"));
    if (path.isEmpty()) return false;
    if (!path.endsWith(QStringLiteral(".tpscope"))) {
        path += QStringLiteral(".tpscope");
        // The dialog asked about the name typed, not about the one with the suffix appended.
        if (QFileInfo::exists(path) &&
            !m_confirmPrompt(this, tr("%1 already exists. Replace it?").arg(QFileInfo(path).fileName()))) {
            return false;
        }
    }
    rememberDirectory(path);
    return saveTo(path, std::move(then));
}

void MainWindow::exportCurrentView() {
    ViewTab* tab = currentViewTab();
    if (tab == nullptr) return;
    QStringList filters;
    for (const QString& f : tab->exportFormats()) filters << tr("%1 (*.%2)").arg(f.toUpper(), f);
    QString selected;
    const QString typed = QFileDialog::getSaveFileName(this, tr("Export %1").arg(tab->tabTitle()), lastDirectory(),
                                                       filters.join(QStringLiteral(";;")), &selected);
    if (typed.isEmpty()) return;
    const QString path = withChosenSuffix(typed, selected, tab->exportFormats());
    rememberDirectory(path);
    const auto status = tab->exportTo(ExportRequest{path, QSize(), devicePixelRatioF()});
    if (!status) {
        showError(tr("Could not export %1: %2").arg(path, QString::fromStdString(status.error().message)));
        return;
    }
    statusBar()->showMessage(tr("Exported %1").arg(path), 5'000);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    if (event->mimeData()->hasUrls()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    const auto urls = event->mimeData()->urls();
    if (urls.isEmpty() || !urls.front().isLocalFile()) return;
    openPath(urls.front().toLocalFile());
    event->acceptProposedAction();
}

}  // namespace tpscope::ui
