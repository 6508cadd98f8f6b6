// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// MainWindow: menus, tool bar and the recent-files list.

#include <QAction>
#include <QApplication>
#include <QFileInfo>
#include <QKeySequence>
#include <QMenuBar>
#include <QSettings>
#include <QStyle>
#include <QTableView>
#include <QToolBar>
#include <QUndoStack>

#include "core/util/build_info.h"
#include "ui/timeline/timeline_panel.h"
#include "ui/view_tab.h"
#include "ui/window/main_window.h"
#include "ui/window/run_panel.h"

namespace tpscope::ui {

namespace {
constexpr int kMaxRecentFiles = 8;
const QString kRecentKey = QStringLiteral("recentFiles");
}  // namespace

void MainWindow::buildActions() {
    QStyle* st = style();
    auto* file = menuBar()->addMenu(tr("&File"));
    auto* open =
        file->addAction(st->standardIcon(QStyle::SP_DialogOpenButton), tr("&Open…"), this, &MainWindow::openDialog);
    open->setShortcut(QKeySequence::Open);
    open->setToolTip(
        tr("Open a workspace (.tpscope), a Kineto/PyTorch profiler trace (.json, .json.gz) or an "
           "Nsight Systems SQLite export"));
    auto* openFolder = file->addAction(tr("Open rank &folder…"), this, &MainWindow::openFolderDialog);
    openFolder->setToolTip(tr("Open a folder with one trace per rank, merged on one timeline"));
    m_recentMenu = file->addMenu(tr("Open &recent"));
    file->addSeparator();
    m_saveAction =
        file->addAction(st->standardIcon(QStyle::SP_DialogSaveButton), tr("&Save"), this, [this] { save(); });
    m_saveAction->setShortcut(QKeySequence::Save);
    auto* saveAs = file->addAction(tr("Save &as…"), this, [this] { saveAsDialog(); });
    saveAs->setShortcut(QKeySequence::SaveAs);
    file->addSeparator();
    auto* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    m_exportAction = file->addAction(tr("&Export view…"), this, &MainWindow::exportCurrentView);
    m_exportAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    m_exportAction->setToolTip(tr("Export what the current tab shows (PNG, SVG, PDF, …)"));
    file->insertAction(quit, m_exportAction);
    file->insertSeparator(quit);

    // Remove and Clear can be undone (issue 28): a slip followed by Save would lose the runs.
    auto* editMenu = menuBar()->addMenu(tr("&Edit"));
    auto* undo = m_undo->createUndoAction(editMenu, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    editMenu->addAction(undo);
    auto* redo = m_undo->createRedoAction(editMenu, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    editMenu->addAction(redo);

    // View actions go to the current tab (ViewTab); the timeline's own extras to the timeline.
    auto* view = menuBar()->addMenu(tr("&View"));
    auto* fit = view->addAction(tr("&Fit"), this, [this] {
        if (auto* tab = currentViewTab()) tab->fitView();
    });
    fit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    auto* zoomIn = view->addAction(tr("Zoom &in"), this, [this] {
        if (auto* tab = currentViewTab()) tab->zoomIn();
    });
    zoomIn->setShortcut(QKeySequence::ZoomIn);
    auto* zoomOut = view->addAction(tr("Zoom &out"), this, [this] {
        if (auto* tab = currentViewTab()) tab->zoomOut();
    });
    zoomOut->setShortcut(QKeySequence::ZoomOut);
    // Single-key shortcuts (W/A/S/D, F, Z) live on the timeline itself so they never fire while typing.
    // They act on the current tab's view, as Fit and Zoom do (issue 28): Compare's timelines too.
    auto* zoomSel = view->addAction(tr("Zoom to &selection"), this, [this] {
        if (auto* tab = currentViewTab()) tab->zoomToSelection();
    });
    zoomSel->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    view->addSeparator();
    view->addAction(tr("&Collapse all GPUs"), this, [this] {
        if (auto* tab = currentViewTab()) tab->setAllRanksCollapsed(true);
    });
    view->addAction(tr("&Expand all GPUs"), this, [this] {
        if (auto* tab = currentViewTab()) tab->setAllRanksCollapsed(false);
    });

    auto* run = m_runMenu = menuBar()->addMenu(tr("&Run"));
    m_runAction =
        run->addAction(st->standardIcon(QStyle::SP_MediaPlay), tr("&Run sweep"), this, &MainWindow::startSweep);
    m_runAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    m_cancelAction =
        run->addAction(st->standardIcon(QStyle::SP_MediaStop), tr("&Cancel"), this, &MainWindow::cancelWork);
    m_cancelAction->setShortcut(QKeySequence(Qt::Key_Escape | Qt::SHIFT));
    run->addAction(tr("Reset to the &default sweep"), m_runPanel, &RunPanel::setDefaults);
    run->addSeparator();
    auto* remove = m_removeAction = run->addAction(tr("Re&move selected runs"), this, &MainWindow::removeSelectedRuns);
    remove->setShortcut(QKeySequence::Delete);
    remove->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    // Wherever a run is selected (issue 45 §3): the runs table, the timeline, a Compare pane (added
    // with the Compare tab, buildTabControllers).
    m_runsTable->addAction(remove);
    m_timeline->addAction(remove);
    run->addAction(tr("C&lear all runs"), this, &MainWindow::clearRuns);

    auto* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About tpscope"), this, [this] {
        QMessageBox::about(
            this, tr("About tpscope"),
            tr("<b>tpscope %1</b><p>Where did the speed-up go? A profiler for tensor-parallel LLM "
               "decode. The Timeline shows every GPU's kernels with wait vs transfer of each collective; the "
               "Layers, Scaling and Cost tabs chart per-layer time, speed-up with an Amdahl fit and "
               "$ per million tokens; Compare puts 2 to 4 runs side by side, aligned by layer, with their "
               "per-layer deltas and, for a measured run against its simulation or what-if replay, the "
               "residual. Charts export to PNG, SVG, PDF and CSV; File → Export report writes a PDF.</p>"
               "<p>Built from %2. Licence: %3, the GNU General Public License version 3 or later. This is free "
               "software: you are free to change and redistribute it. There is NO WARRANTY, to the extent "
               "permitted by law.</p>")
                .arg(QApplication::applicationVersion(),
                     QString::fromUtf8(core::buildCommit().data(), static_cast<qsizetype>(core::buildCommit().size())),
                     QString::fromUtf8(core::kLicenceSpdx.data(), static_cast<qsizetype>(core::kLicenceSpdx.size()))));
    });

    auto* bar = m_toolBar = addToolBar(tr("Main"));
    bar->setObjectName(QStringLiteral("mainToolBar"));
    bar->setMovable(false);
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    bar->addAction(open);
    bar->addAction(m_saveAction);
    bar->addSeparator();
    bar->addAction(m_runAction);
    bar->addAction(m_cancelAction);
    bar->addSeparator();
    bar->addAction(fit);
    bar->addAction(zoomSel);
}

void MainWindow::updateActions() {
    const bool running = isSweepRunning();
    m_runAction->setEnabled(!running);
    m_cancelAction->setEnabled(running || isLoading());
    m_saveAction->setEnabled(m_document != nullptr);
    m_runPanel->setBusy(running);
}

void MainWindow::addRecentFile(const QString& path) {
    QSettings settings;
    QStringList files = settings.value(kRecentKey).toStringList();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    files.removeAll(absolute);
    files.prepend(absolute);
    while (files.size() > kMaxRecentFiles) files.removeLast();
    settings.setValue(kRecentKey, files);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu() {
    m_recentMenu->clear();
    const QStringList files = QSettings().value(kRecentKey).toStringList();
    for (const QString& f : files) {
        m_recentMenu->addAction(f, this, [this, f] { openPath(f); });
    }
    m_recentMenu->setEnabled(!files.isEmpty());
}

}  // namespace tpscope::ui
