// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/window/main_window.h"

#include <QApplication>
#include <QCloseEvent>
#include <QProgressBar>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QStatusBar>
#include <QTableView>
#include <QUndoStack>

#include <utility>

#include "ui/document/run_document.h"
#include "ui/jobs/document_loader.h"
#include "ui/jobs/sweep_runner.h"
#include "ui/logging.h"
#include "ui/timeline/timeline_panel.h"
#include "ui/window/compare_controller.h"
#include "ui/window/error_banner.h"
#include "ui/window/run_panel.h"
#include "ui/window/runs_model.h"

namespace tpscope::ui {

namespace {

core::Catalog loadCatalog(QString& problem) {
    auto catalog = core::Catalog::load();
    if (catalog) return std::move(*catalog);
    problem = QString::fromStdString(catalog.error().describe());
    auto builtin = core::Catalog::builtin();
    return builtin ? std::move(*builtin) : core::Catalog{};
}

}  // namespace

MainWindow::MainWindow(Services services, QWidget* parent) : QMainWindow(parent), m_services(std::move(services)) {
    QString catalogProblem;
    m_catalog = loadCatalog(catalogProblem);
    m_unsavedPrompt = [](QWidget* owner) {
        return QMessageBox::question(owner, tr("Unsaved runs"),
                                     tr("The workspace has runs that are not saved. Save them first?"),
                                     QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    };
    m_confirmPrompt = [](QWidget* owner, const QString& question) {
        return QMessageBox::question(owner, tr("tpscope"), question, QMessageBox::Yes | QMessageBox::No,
                                     QMessageBox::No) == QMessageBox::Yes;
    };
    m_undo = new QUndoStack(this);
    // Each Remove keeps the removed runs' traces for Undo: past this many steps the oldest are freed.
    m_undo->setUndoLimit(kUndoLimit);
    // Undo and redo move the workspace away from (or back to) what was saved: the title follows.
    connect(m_undo, &QUndoStack::cleanChanged, this, [this] { updateTitle(); });
    setAcceptDrops(true);
    buildLayout();
    buildActions();
    connectWorkers();
    restoreSettings();
    updateTitle();
    updateActions();
    if (!catalogProblem.isEmpty()) showError(tr("Could not load the preset catalog: %1").arg(catalogProblem));
}

MainWindow::~MainWindow() {
    // Stop the workers before the widgets they report to go away.
    m_sweep->cancel();
    m_sweep->wait();
    m_loader->cancel();
    m_loader->wait();
}

void MainWindow::connectWorkers() {
    m_sweep = new SweepRunner(m_services.runSweep, this);
    connect(m_sweep, &SweepRunner::runProgress, this, &MainWindow::onRunProgress);
    connect(m_sweep, &SweepRunner::runFinished, this, &MainWindow::onRunFinished);
    connect(m_sweep, &SweepRunner::runFailed, this, &MainWindow::onRunFailed);
    connect(m_sweep, &SweepRunner::finished, this, &MainWindow::onSweepFinished);
    connect(m_runPanel, &RunPanel::runRequested, this, &MainWindow::startSweep);
    connect(m_runPanel, &RunPanel::cancelRequested, this, &MainWindow::cancelSweep);

    m_loader = new DocumentLoader(m_services.open, this);
    connect(m_loader, &DocumentLoader::preview, this, &MainWindow::onDocumentPreview);
    connect(m_loader, &DocumentLoader::loaded, this, &MainWindow::onDocumentLoaded);
    connect(m_loader, &DocumentLoader::failed, this, &MainWindow::onDocumentFailed);
    connect(m_loader, &DocumentLoader::progress, this, [this](double f) {
        m_loadFraction = f;
        updateStatusProgress();
    });
    connect(m_runsTable->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                if (!m_selectingRun) m_userPickedRun = true;
                const QModelIndex source = m_proxy->mapToSource(current);
                showRun(m_runs->idAt(source.row()));
            });
    connect(m_document, &RunDocument::runRemoved, this, [this](RunId id) {
        if (id == m_current) showRun(RunId::None);
    });
    connect(m_document, &RunDocument::reset, this, [this] {
        const auto ids = m_document->ids();
        if (ids.empty()) {
            showRun(RunId::None);
        } else {
            selectRun(ids.front());
        }
    });
    buildTabControllers();
}

void MainWindow::restoreSettings() {
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    m_runPanel->restoreSettings(settings);
    rebuildRecentMenu();
}

void MainWindow::saveSettings() const {
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    m_runPanel->saveSettings(settings);
}

void MainWindow::showError(const QString& message) {
    m_lastError = message;
    qCWarning(lcApp) << message;
    m_banner->showMessage(message);
    statusBar()->showMessage(message, 10'000);
    Q_EMIT errorShown(message);
}

void MainWindow::clearError() {
    // A later success makes an old error misleading: the banner goes.
    m_banner->hide();
}

void MainWindow::setModified(bool modified) {
    m_dirty = modified;
    if (!modified) m_undo->setClean();
    updateTitle();
}

bool MainWindow::isModified() const {
    return m_dirty || !m_undo->isClean();
}

void MainWindow::markUnsaved() {
    setModified(true);
}

void MainWindow::updateTitle() {
    const QString name = m_path.isEmpty() ? tr("untitled workspace") : m_path.section(QLatin1Char('/'), -1);
    setWindowTitle(QStringLiteral("%1%2 — tpscope").arg(name, isModified() ? QStringLiteral(" *") : QString()));
}

void MainWindow::updateStatusProgress() {
    // One bar for both kinds of work: a load in progress shows its fraction, else the sweep's.
    const bool loading = isLoading();
    const bool sweeping = isSweepRunning();
    m_statusProgress->setVisible(loading || sweeping);
    if (loading) {
        m_statusProgress->setValue(static_cast<int>(m_loadFraction * 1000));
    } else if (sweeping) {
        const auto& s = m_sweepState;
        const double total = std::max<std::size_t>(1, s.ids.size());
        m_statusProgress->setValue(static_cast<int>((s.finished + s.failed + s.currentFraction) / total * 1000));
    }
}

void MainWindow::closeEvent(QCloseEvent* event) {
    bool discarded = std::exchange(m_closeApproved, false);
    if (isModified() && !discarded) {
        const auto answer = m_unsavedPrompt(this);
        if (answer == QMessageBox::Save) {
            // The window closes once the save has succeeded and nothing changed since its snapshot
            // (a run that finished while it was written asks again); a failed or cancelled save
            // keeps it open.
            event->ignore();
            save([this](bool saved) {
                if (saved) close();
            });
            return;
        }
        if (answer != QMessageBox::Discard) {
            event->ignore();
            return;
        }
        discarded = true;
    }
    if (m_saving) {
        event->ignore();
        statusBar()->showMessage(tr("Saving %1: the window closes when it is written").arg(m_savePath), 10'000);
        m_afterSave = [this, discarded, previous = std::move(m_afterSave)](bool saved) {
            if (previous) previous(saved);
            m_closeApproved = discarded;  // the user's Discard stands; otherwise asked again if changed
            close();
        };
        return;
    }
    // Nothing the window started outlives it: a replay is abandoned, not waited for.
    m_sweep->cancel();
    m_loader->cancel();
    m_compare->cancelWhatIf();
    saveSettings();
    event->accept();
}

}  // namespace tpscope::ui
