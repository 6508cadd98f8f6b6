// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// MainWindow: opening (dialog, rank folder, recent files, drag-and-drop), saving (a job on a worker
// thread with progress and Cancel, no nested event loop), exporting the current view, and the
// unsaved-changes prompt (asked before a workspace load starts).

#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLineEdit>
#include <QMimeData>
#include <QProgressBar>
#include <QProgressDialog>
#include <QSettings>
#include <QStatusBar>
#include <QUndoStack>

#include <memory>
#include <utility>

#include "core/io/workspace/workspace.h"
#include "ui/document/run_document.h"
#include "ui/export/plot_export.h"
#include "ui/export/save_as.h"
#include "ui/jobs/document_loader.h"
#include "ui/jobs/io_services.h"
#include "ui/jobs/job.h"
#include "ui/jobs/sweep_runner.h"
#include "ui/timeline/timeline_data.h"
#include "ui/timeline/timeline_panel.h"
#include "ui/view_tab.h"
#include "ui/window/main_window.h"
#include "ui/window/run_panel.h"
#include "ui/window/runs_model.h"

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
        tr("Workspaces and traces (*.tpscope *.json *.json.gz *.pt.trace.json *.sqlite *.db *.nsys-rep);;"
           "tpscope workspaces (*.tpscope);;Kineto / PyTorch profiler traces (*.json *.json.gz);;"
           "Nsight Systems SQLite exports (*.sqlite *.db);;"
           "Nsight Systems reports, exported by nsys (*.nsys-rep *.qdrep);;All files (*)"));
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
    if (isModified() && path.endsWith(QStringLiteral(".tpscope"), Qt::CaseInsensitive)) {
        const auto answer = m_unsavedPrompt(this);
        if (answer == QMessageBox::Save) {
            // Runs that finished while it was written are not in the file: then the question comes again.
            save([this, path](bool saved) {
                if (saved) openPath(path);
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
    m_loadPath = path;
    m_loader->start(path);
    updateStatusProgress();
    updateActions();
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
    const bool excerpt = firstRun.timeline && firstRun.timeline->excerpt();
    statusBar()->showMessage(excerpt ? tr("Showing the stored excerpt of %1; reading its events…").arg(firstRun.source)
                                     : tr("Read %1; analysing…").arg(firstRun.source));
}

void MainWindow::cancelWork() {
    if (isLoading()) {
        m_loader->cancel();
        m_loadAskedFor.clear();
        updateStatusProgress();
        updateActions();
        if (m_current == RunId::None) m_timeline->setCurrentRun(RunId::None);
        statusBar()->showMessage(tr("Did not open %1: cancelled; the current runs are kept").arg(m_loadPath), 10'000);
    }
    cancelSweep();
}

void MainWindow::onDocumentLoaded(OpenedDocument document) {
    updateStatusProgress();
    updateActions();
    const bool asked = !m_loadAskedFor.isEmpty() && m_loadAskedFor == document.path;
    m_loadAskedFor.clear();
    if (document.isWorkspace && isModified() && !asked) {
        // A workspace under another name than *.tpscope: the question comes now, before it replaces the runs.
        const auto answer = m_unsavedPrompt(this);
        if (answer == QMessageBox::Save) {
            auto kept = std::make_shared<OpenedDocument>(std::move(document));
            // Asked again (onDocumentLoaded) when runs changed while the save was written.
            save([this, kept](bool saved) {
                if (saved) onDocumentLoaded(std::move(*kept));
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

namespace {

// Whether the keyboard is with a field the user may be typing in (the run panel's fields, a spin box,
// an editable combo box): a load that finishes then must not take it away.
bool typingIn(const QWidget* focused, const QWidget* runPanel) {
    if (focused == nullptr) return false;
    if (runPanel->isAncestorOf(focused)) return true;
    if (qobject_cast<const QLineEdit*>(focused) != nullptr ||
        qobject_cast<const QAbstractSpinBox*>(focused) != nullptr) {
        return true;
    }
    const auto* combo = qobject_cast<const QComboBox*>(focused);
    return combo != nullptr && combo->isEditable();
}

}  // namespace

void MainWindow::applyLoadedWorkspace(OpenedDocument document) {
    if (document.isWorkspace) {
        // The workspace replaces every run: a sweep still running would have nowhere to go.
        if (isSweepRunning()) m_sweep->cancel();
        m_undo->clear();  // its commands refer to runs of the replaced document
        ++m_generation;   // a save of the replaced document still running no longer points here
        m_document->resetRuns(std::move(document.runs));
        m_path = document.path;
        applyViewSettings(document.settings);
        setModified(false);
    } else {
        // An opened trace is not work the user made: it does not make the workspace unsaved.
        const auto ids = m_document->add(std::move(document.runs));
        if (!ids.empty()) selectRun(ids.front());
    }
    clearError();
    addRecentFile(document.path);
    if (!typingIn(QApplication::focusWidget(), m_runPanel)) m_timeline->focusView();
    statusBar()->showMessage(document.note.isEmpty() ? tr("Opened %1").arg(document.path)
                                                     : tr("Opened %1 — %2").arg(document.path, document.note),
                             10'000);
    Q_EMIT documentOpened(document.path);
}

void MainWindow::onDocumentFailed(const QString& path, const QString& message) {
    updateStatusProgress();
    updateActions();
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
    if (!confirmReplacingRuns(path)) {
        statusBar()->showMessage(tr("Not saved: %1 was kept as it was").arg(path), 10'000);
        return false;
    }
    m_saving = true;
    m_savePath = path;
    m_saveRevision = m_document->revision();
    m_saveGeneration = m_generation;
    m_afterSave = std::move(then);
    // A job (ui/jobs/job.h): a snapshot of the runs and the view's settings (the worker never reads the
    // document), progress and Cancel through the job, its end delivered to onSaveDone. No nested
    // event loop: runs that finish and files that load meanwhile are applied as they come.
    m_saveDialog = new QProgressDialog(tr("Saving %1…").arg(path), tr("Cancel"), 0, 1000, this);
    m_saveDialog->setWindowModality(Qt::WindowModal);
    m_saveDialog->setMinimumDuration(400);
    m_saveDialog->setAutoClose(false);
    m_saveDialog->setAutoReset(false);
    statusBar()->showMessage(tr("Saving %1…").arg(path));
    JobHandlers<core::Ok> handlers;
    handlers.progress = [dialog = m_saveDialog](double f) {
        if (dialog) dialog->setValue(static_cast<int>(f * 999));
    };
    handlers.result = [this](core::Ok) { onSaveDone(QString(), false); };
    handlers.failed = [this](const core::Error& error) {
        onSaveDone(QString::fromStdString(error.message), error.code == core::ErrorCode::Cancelled);
    };
    WorkspaceSnapshot snapshot{m_document->runs(), viewSettings()};
    const JobHandle job = startJob<core::Ok>(
        this, path.toStdString(),
        [save = m_services.saveWorkspace, path, snapshot = std::move(snapshot)](const JobContext<>& context) {
            return save(path, snapshot, context.control);
        },
        std::move(handlers));
    connect(m_saveDialog, &QProgressDialog::canceled, this, [job] { job.cancel(); });
    return true;
}

bool MainWindow::confirmReplacingRuns(const QString& path) {
    // Replacing a workspace with fewer runs (none, after Select all and Delete) is asked about first;
    // the previous file stays as NAME~ (saveWithIo) either way.
    if (!QFileInfo(path).isFile()) return true;
    const auto held = core::listWorkspaceRuns(path.toStdString());
    if (!held) return true;  // not a workspace: the save's own checks speak
    const std::size_t writing = savedRunCount(m_document->runs());
    if (writing >= held->size()) return true;
    const QString name = QFileInfo(path).fileName();
    const QString question =
        writing == 0 ? tr("%1 holds %2 runs. Replace it with an empty workspace?").arg(name).arg(held->size())
                     : tr("%1 holds %2 runs. Replace it with these %3?").arg(name).arg(held->size()).arg(writing);
    return m_confirmPrompt(this, question + tr(" The previous file is kept as %1~.").arg(name));
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
    } else if (m_saveGeneration != m_generation) {
        // Another workspace was opened while it was written: the window stays on that one.
        addRecentFile(path);
        statusBar()->showMessage(tr("Saved %1 (the workspace shown now is %2)").arg(path, m_path), 10'000);
    } else {
        m_path = path;
        if (m_document->revision() == m_saveRevision) {
            setModified(false);
        } else {
            // What changed while it was written (a run that finished, an undo) is not in the file, and
            // the undo stack's clean state is not the file's any more.
            m_undo->resetClean();
            setModified(true);
        }
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
    SaveAsOptions options;
    options.title = tr("Save workspace");
    options.suggested = lastDirectory();
    options.formats = {QStringLiteral("tpscope")};
    options.filters = {tr("tpscope workspaces (*.tpscope)")};
    const QString path = askSaveAs(this, options, m_confirmPrompt);
    if (path.isEmpty()) return false;
    rememberDirectory(path);
    return saveTo(path, std::move(then));
}

void MainWindow::exportCurrentView() {
    ViewTab* tab = currentViewTab();
    if (tab == nullptr) return;
    SaveAsOptions options;
    options.title = tr("Export %1").arg(tab->tabTitle());
    options.formats = tab->exportFormats();
    options.companions = [tab](const QString& path) { return tab->exportCompanions(path); };
    // The filter chosen last time when this view offers it, and a name that has its suffix.
    options.selectedFilter = QSettings().value(QStringLiteral("export/filter")).toString();
    if (!saveAsFilters(options.formats).contains(options.selectedFilter)) {
        options.selectedFilter = saveAsFilters(options.formats).value(0);
    }
    QString name = tab->tabTitle().toLower();
    name.replace(QLatin1Char(' '), QLatin1Char('-'));
    options.suggested = QDir(lastDirectory()).filePath(withChosenSuffix(name, options.selectedFilter, options.formats));
    QString selected;
    const QString path = askSaveAs(this, options, m_confirmPrompt, &selected);
    if (path.isEmpty()) return;
    exportCurrentViewTo(path, selected);
}

bool MainWindow::exportCurrentViewTo(const QString& typed, const QString& selectedFilter) {
    ViewTab* tab = currentViewTab();
    if (tab == nullptr) return false;
    const QString path = withChosenSuffix(typed, selectedFilter, tab->exportFormats());
    rememberDirectory(path);
    if (!selectedFilter.isEmpty()) QSettings().setValue(QStringLiteral("export/filter"), selectedFilter);
    const auto status = tab->exportTo(ExportRequest{path, QSize(), devicePixelRatioF()});
    if (!status) {
        showError(tr("Could not export %1: %2").arg(path, QString::fromStdString(status.error().message)));
        return false;
    }
    statusBar()->showMessage(tr("Exported %1").arg(path), 5'000);
    return true;
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
