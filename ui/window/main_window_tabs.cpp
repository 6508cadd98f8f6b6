// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// MainWindow: the tab controllers and the TabHost side of the window (tab_host.h). The controllers
// see the window only through TabHost; what they need from each other is handed over here, in the
// order they are built, and the window's own signals and widgets are connected to them here too.

#include <QItemSelectionModel>
#include <QMenu>
#include <QMenuBar>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QToolBar>

#include <algorithm>

#include "ui/charts/chart_set.h"
#include "ui/compare/compare_view.h"
#include "ui/timeline/timeline_panel.h"
#include "ui/window/chart_tabs.h"
#include "ui/window/compare_controller.h"
#include "ui/window/main_window.h"
#include "ui/window/planning_tabs.h"
#include "ui/window/report_export.h"
#include "ui/window/run_panel.h"
#include "ui/window/runs_model.h"

namespace tpscope::ui {

void MainWindow::buildTabControllers() {
    m_chartTabs = new ChartTabs(*this, this);
    connect(this, &MainWindow::currentRunChanged, m_chartTabs, &ChartTabs::setCurrentRun);
    // One price: the charts' controller owns it; the run panel's and the Cost tab's fields edit it.
    auto* prices = m_chartTabs->charts()->controller();
    prices->setPricePerGpuHour(m_runPanel->pricePerGpuHour());
    connect(m_runPanel, &RunPanel::pricePerGpuHourChanged, prices, &ChartsController::setPricePerGpuHour);
    connect(prices, &ChartsController::pricePerGpuHourChanged, m_runPanel, &RunPanel::setPricePerGpuHour);

    // Compare simulates at the charts' price; its actions go where the user looks for them.
    m_compare = new CompareController(*this, *prices, this);
    m_compare->view()->addAction(m_removeAction);  // Delete in a Compare pane removes its run
    const QList<QAction*> compareActions{m_compare->compareAction(), m_compare->simulateAction(),
                                         m_compare->whatIfAction()};
    m_runMenu->addSeparator();
    m_runMenu->addActions(compareActions);
    m_toolBar->addSeparator();
    m_toolBar->addAction(m_compare->compareAction());
    m_runsTable->setContextMenuPolicy(Qt::ActionsContextMenu);
    m_runsTable->addActions(compareActions);
    connect(m_runsTable->selectionModel(), &QItemSelectionModel::selectionChanged, m_compare,
            &CompareController::updateActions);
    connect(this, &MainWindow::sweepFinished, m_compare, &CompareController::onSweepFinished);

    // The advice follows the charts' scaling input and price.
    m_planningTabs = new PlanningTabs(*this, *prices, this);
    connect(this, &MainWindow::currentRunChanged, m_planningTabs, &PlanningTabs::setCurrentRun);

    // The report reads all three; built last, it is the only one that does.
    m_report = new ReportExport(*this, *m_chartTabs->charts(), *m_planningTabs, *m_compare, this);
    m_report->addExportActions(menuBar()->actions().front()->menu());
}

void MainWindow::showTab(QWidget* tab) {
    m_tabs->setCurrentWidget(tab);
}

void MainWindow::showTimelineRange(qint64 t0Ns, qint64 t1Ns) {
    m_timeline->view()->setVisibleRange(t0Ns, t1Ns);
    m_tabs->setCurrentWidget(m_timeline);
}

std::vector<RunId> MainWindow::selectedRuns() const {
    QModelIndexList rows = m_runsTable->selectionModel()->selectedRows();
    std::sort(rows.begin(), rows.end(), [](const QModelIndex& a, const QModelIndex& b) { return a.row() < b.row(); });
    std::vector<RunId> ids;
    for (const QModelIndex& index : rows) ids.push_back(m_runs->idAt(m_proxy->mapToSource(index).row()));
    return ids;
}

}  // namespace tpscope::ui
