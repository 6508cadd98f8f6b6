// MainWindow: opening (dialog, rank folder, recent files, drag-and-drop), saving and the
// unsaved-changes prompt.

#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QMimeData>
#include <QProgressBar>
#include <QSettings>
#include <QStatusBar>

#include "ui/document_loader.h"
#include "ui/main_window.h"
#include "ui/runs_model.h"

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
    m_statusProgress->setValue(0);
    m_statusProgress->show();
    m_loader->start(path);
}

bool MainWindow::isLoading() const {
    return m_loader->isLoading();
}

void MainWindow::onDocumentLoaded(OpenedDocument document) {
    m_statusProgress->hide();
    if (document.isWorkspace) {
        if (!maybeSave()) return;
        m_runs->setRuns(std::move(document.runs));
        m_path = document.path;
        setModified(false);
        selectRun(0);
    } else {
        const int first = m_runs->appendRuns(std::move(document.runs));
        setModified(true);
        selectRun(first);
    }
    addRecentFile(document.path);
    statusBar()->showMessage(document.note.isEmpty() ? tr("Opened %1").arg(document.path)
                                                     : tr("Opened %1 — %2").arg(document.path, document.note),
                             10'000);
    Q_EMIT documentOpened(document.path);
}

void MainWindow::onDocumentFailed(const QString& path, const QString& message) {
    m_statusProgress->hide();
    // The current document stays as it was: nothing was replaced before the load succeeded.
    showError(tr("Could not open %1: %2").arg(path, message));
    Q_EMIT openFailed(path, message);
}

bool MainWindow::saveTo(const QString& path) {
    if (!m_services.saveWorkspace) return false;
    const auto status = m_services.saveWorkspace(path, m_runs->runs());
    if (!status) {
        showError(tr("Could not save %1: %2").arg(path, QString::fromStdString(status.error().message)));
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
