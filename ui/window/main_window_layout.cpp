// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// MainWindow: building the widgets, one named step per area of the window.

#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QScrollArea>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTextBrowser>
#include <QVBoxLayout>

#include "ui/charts/step_bar_delegate.h"
#include "ui/document/run_document.h"
#include "ui/timeline/timeline_panel.h"
#include "ui/view_tab.h"
#include "ui/window/error_banner.h"
#include "ui/window/main_window.h"
#include "ui/window/progress_delegate.h"
#include "ui/window/run_panel.h"
#include "ui/window/runs_column_fit.h"
#include "ui/window/runs_model.h"

namespace tpscope::ui {

void MainWindow::buildLayout() {
    m_document = new RunDocument(this);
    m_runs = new RunsModel(m_document, this);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_runs);
    m_proxy->setSortRole(RunsModel::SortRole);
    QWidget* panel = buildRunPanelArea();
    QWidget* details = buildDetailsArea();  // before the views: tabs connect to it
    QWidget* views = buildViewsArea();
    QWidget* runs = buildRunsArea();
    assembleSplitters(panel, views, runs, details);
    buildStatusBar();
    resize(1600, 1000);
}

QWidget* MainWindow::buildRunPanelArea() {
    const LocalBackendInfo local = m_services.localBackend ? m_services.localBackend() : LocalBackendInfo{};
    m_runPanel = new RunPanel(m_catalog, local, this);
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(m_runPanel);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    return scroll;
}

QWidget* MainWindow::buildRunsArea() {
    m_runsTable = new QTableView(this);
    m_runsTable->setModel(m_proxy);
    m_runsTable->setSortingEnabled(true);
    m_runsTable->sortByColumn(-1, Qt::AscendingOrder);  // document order until the user sorts
    m_runsTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_runsTable->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_runsTable->setItemDelegateForColumn(RunsModel::Status, new ProgressDelegate(m_runsTable));
    m_runsTable->setItemDelegateForColumn(RunsModel::StepBreakdown,
                                          new StepBarDelegate(RunsModel::LossRole, m_runsTable));
    m_runsTable->verticalHeader()->hide();
    // From the font, so that 150 % scaling does not clip the names.
    m_runsTable->verticalHeader()->setDefaultSectionSize(m_runsTable->fontMetrics().height() + 8);
    m_runsTable->setAlternatingRowColors(true);
    m_runsTable->setWordWrap(false);
    // Columns as wide as their contents, except two that RunsColumnFit sizes to the pane: Status takes
    // the room left and elides a failure's reason (its tooltip holds it in full); the run's name
    // gives up width first when the pane is narrow, down to a floor (it was cut to "e…" when Status
    // stretched at the end).
    QHeaderView* header = m_runsTable->horizontalHeader();
    header->setSectionResizeMode(QHeaderView::ResizeToContents);
    header->setStretchLastSection(false);
    // What a user reads first without scrolling sideways: name, tokens/s, step latency, the step's
    // breakdown, efficiency; then status and the request (the model's column order is unchanged).
    int at = 1;
    for (const int column : {RunsModel::TokensPerSec, RunsModel::StepLatency, RunsModel::StepBreakdown,
                             RunsModel::Efficiency, RunsModel::Status}) {
        header->moveSection(header->visualIndex(column), at++);
    }
    m_runsTable->setTextElideMode(Qt::ElideRight);
    new RunsColumnFit(m_runsTable, RunsModel::Status, RunsModel::Name);
    auto* box = new QWidget(this);
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(new QLabel(tr("<b>Runs</b> — select one to show its timeline; Delete removes it"), box));
    layout->addWidget(m_runsTable, 1);
    return box;
}

QWidget* MainWindow::buildDetailsArea() {
    m_details = new QTextBrowser(this);
    m_details->setObjectName(QStringLiteral("detailsPane"));
    m_details->setOpenLinks(false);
    auto* box = new QWidget(this);
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(new QLabel(tr("<b>Selection</b>"), box));
    layout->addWidget(m_details, 1);
    return box;
}

QWidget* MainWindow::buildViewsArea() {
    m_tabs = new QTabWidget(this);
    connect(m_tabs, &QTabWidget::currentChanged, this,
            [this] { m_details->setHtml(m_tabDetails.value(m_tabs->currentWidget())); });
    m_tabs->setDocumentMode(true);
    m_timeline = new TimelinePanel(this);
    m_timeline->setDocument(m_document);
    addViewTab(m_timeline);
    m_banner = new ErrorBanner(this);
    auto* top = new QWidget(this);
    auto* layout = new QVBoxLayout(top);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->addWidget(m_banner);
    layout->addWidget(m_tabs, 1);
    return top;
}

void MainWindow::assembleSplitters(QWidget* panel, QWidget* views, QWidget* runs, QWidget* details) {
    // Left: what to run. Right: the views on top; the runs and the details of the selection below,
    // side by side, so the timeline keeps the full width and height it needs.
    auto* bottom = new QSplitter(Qt::Horizontal, this);
    bottom->addWidget(runs);
    bottom->addWidget(details);
    bottom->setSizes({700, 500});  // the details' grid of 8 GPUs needs about 450 px
    auto* right = new QSplitter(Qt::Vertical, this);
    right->addWidget(views);
    right->addWidget(bottom);
    right->setStretchFactor(0, 1);
    right->setStretchFactor(1, 0);
    right->setSizes({720, 220});
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->setObjectName(QStringLiteral("mainSplit"));
    split->addWidget(panel);
    split->addWidget(right);
    split->setStretchFactor(0, 0);
    split->setStretchFactor(1, 1);
    split->setSizes({370, 1230});
    setCentralWidget(split);
}

void MainWindow::buildStatusBar() {
    m_statusTrace = new QLabel(this);
    m_statusProgress = new QProgressBar(this);
    m_statusProgress->setRange(0, 1000);
    m_statusProgress->setMaximumWidth(180);
    m_statusProgress->setMaximumHeight(14);
    m_statusProgress->hide();
    statusBar()->addPermanentWidget(m_statusTrace);
    statusBar()->addPermanentWidget(m_statusProgress);
    statusBar()->showMessage(tr("Ready"));
}

void MainWindow::addViewTab(QWidget* tab) {
    auto* view = dynamic_cast<ViewTab*>(tab);
    Q_ASSERT_X(view != nullptr, "MainWindow::addViewTab", "the tab must implement ViewTab");
    if (view == nullptr) return;
    m_tabs->addTab(tab, view->tabTitle());
    // The tab's details go to the window's pane (view_tab.h: an optional detailsChanged(QString) signal),
    // routed by the current tab: each tab's last details are kept and shown while it is current.
    if (tab->metaObject()->indexOfSignal("detailsChanged(QString)") >= 0) {
        connect(tab, SIGNAL(detailsChanged(QString)), this, SLOT(onTabDetails(QString)));
    }
    view->setCurrentRun(m_current);
}

void MainWindow::onTabDetails(const QString& html) {
    const auto* tab = qobject_cast<const QWidget*>(sender());
    if (tab == nullptr) return;
    m_tabDetails.insert(tab, html);
    if (tab == m_tabs->currentWidget()) m_details->setHtml(html);
}

ViewTab* MainWindow::currentViewTab() const {
    return dynamic_cast<ViewTab*>(m_tabs->currentWidget());
}

}  // namespace tpscope::ui
