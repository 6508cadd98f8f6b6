// MainWindow: opening (dialog, rank folder, recent files, drag-and-drop), saving (on a worker thread
// with progress and Cancel), exporting the current view, and the unsaved-changes prompt.

#include <QDragEnterEvent>
#include <QDropEvent>
#include <QEventLoop>
#include <QFileDialog>
#include <QFileInfo>
#include <QMimeData>
#include <QProgressBar>
#include <QProgressDialog>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>

#include <atomic>
#include <thread>

#include "ui/document_loader.h"
#include "ui/main_window.h"
#include "ui/run_document.h"
#include "ui/runs_model.h"
#include "ui/sweep_runner.h"
#include "ui/timeline/timeline_panel.h"
#include "ui/view_tab.h"

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
    if (document.isWorkspace) {
        if (!maybeSave()) {
            statusBar()->showMessage(tr("Did not open %1: the current runs are kept").arg(document.path), 10'000);
            if (m_current == RunId::None) m_timeline->setCurrentRun(RunId::None);
            return;
        }
        // The workspace replaces every run: a sweep still running would have nowhere to go.
        if (isSweepRunning()) m_sweep->cancel();
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

bool MainWindow::saveTo(const QString& path) {
    if (!m_services.saveWorkspace || m_saving) return false;
    m_saving = true;
    // The save runs on a worker; a window-modal progress dialog keeps the window painting and
    // offers Cancel (the workspace writer checks the flag between chunks and leaves no partial file).
    CancelFlag cancel{false};
    std::atomic<int> perMille{0};
    core::Status status = core::Ok{};
    QEventLoop loop;
    QProgressDialog dialog(tr("Saving %1…").arg(path), tr("Cancel"), 0, 1000, this);
    dialog.setWindowModality(Qt::WindowModal);
    dialog.setMinimumDuration(400);
    connect(&dialog, &QProgressDialog::canceled, &dialog, [&cancel] { cancel.store(true); });
    QTimer poll;
    connect(&poll, &QTimer::timeout, &dialog, [&] { dialog.setValue(perMille.load()); });
    poll.start(50);
    const auto runs = m_document->runs();
    std::thread worker([&, runs] {
        const TaskControl control{[&perMille](double f) { perMille.store(static_cast<int>(f * 999)); }, &cancel};
        status = m_services.saveWorkspace(path, runs, control);
        QMetaObject::invokeMethod(&loop, "quit", Qt::QueuedConnection);
    });
    loop.exec();
    worker.join();
    poll.stop();
    m_saving = false;
    if (!status) {
        if (status.error().code == core::ErrorCode::Cancelled) {
            statusBar()->showMessage(tr("Save cancelled: %1 was not written").arg(path), 10'000);
        } else {
            showError(tr("Could not save %1: %2").arg(path, QString::fromStdString(status.error().message)));
        }
        return false;
    }
    m_path = path;
    setModified(false);
    addRecentFile(path);
    statusBar()->showMessage(tr("Saved %1").arg(path), 5'000);
    return true;
}

bool MainWindow::save() {
    return m_path.isEmpty() ? saveAsDialog() : saveTo(m_path);
}

bool MainWindow::saveAsDialog() {
    QString path =
        QFileDialog::getSaveFileName(this, tr("Save workspace"), lastDirectory(), tr("tpscope workspaces (*.tpscope)"));
    if (path.isEmpty()) return false;
    if (!path.endsWith(QStringLiteral(".tpscope"))) path += QStringLiteral(".tpscope");
    rememberDirectory(path);
    return saveTo(path);
}

void MainWindow::exportCurrentView() {
    ViewTab* tab = currentViewTab();
    if (tab == nullptr) return;
    QStringList filters;
    for (const QString& f : tab->exportFormats()) filters << tr("%1 (*.%2)").arg(f.toUpper(), f);
    QString selected;
    const QString path = QFileDialog::getSaveFileName(this, tr("Export %1").arg(tab->tabTitle()), lastDirectory(),
                                                      filters.join(QStringLiteral(";;")), &selected);
    if (path.isEmpty()) return;
    rememberDirectory(path);
    const auto status = tab->exportTo(ExportRequest{path, QSize(), devicePixelRatioF()});
    if (!status) {
        showError(tr("Could not export %1: %2").arg(path, QString::fromStdString(status.error().message)));
        return;
    }
    statusBar()->showMessage(tr("Exported %1").arg(path), 5'000);
}

bool MainWindow::maybeSave() {
    if (!m_modified) return true;
    switch (m_unsavedPrompt(this)) {
        case QMessageBox::Save:
            return save();
        case QMessageBox::Discard:
            return true;
        default:
            return false;
    }
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
