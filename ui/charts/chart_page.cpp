// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/charts/chart_page.h"

#include <qcustomplot.h>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTableView>
#include <QVBoxLayout>

#include "ui/charts/chart_theme.h"
#include "ui/export/plot_export.h"

namespace tpscope::ui {

ChartPage::ChartPage(QString title, QWidget* parent) : QWidget(parent), m_title(std::move(title)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    m_controls = new QHBoxLayout;
    layout->addLayout(m_controls);
    m_notes = new QLabel(this);
    m_notes->setObjectName(QStringLiteral("chartNotes"));
    m_notes->setWordWrap(true);
    m_notes->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_notes->hide();
    layout->addWidget(m_notes);
    m_splitter = new QSplitter(Qt::Vertical, this);
    m_plot = new QCustomPlot(m_splitter);
    m_plot->setMinimumHeight(240);
    // Adaptive sampling keeps big series cheap; charts are read, not dragged, so no antialiasing of fills.
    m_plot->setNoAntialiasingOnDrag(true);
    m_plot->setNotAntialiasedElements(QCP::aeFills);
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    m_plot->legend->setVisible(true);
    m_splitter->addWidget(m_plot);
    layout->addWidget(m_splitter, 1);
    applyChartTheme(*m_plot, palette());
}

ChartPage::~ChartPage() = default;

void ChartPage::requestReplot() {
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void ChartPage::placeLegendBelowPlot() {
    placeLegendInRow(m_plot->legend, 1);
}

void ChartPage::placeLegendInRow(QCPLegend* legend, int row) {
    // A sub-grid in the plot layout's row, which gets the height the legend needs (its minimum size)
    // and no stretch beyond it; the legend's entries fill columns first, so they spread across.
    auto* legendRow = new QCPLayoutGrid;
    m_plot->plotLayout()->addElement(row, 0, legendRow);
    legendRow->setMargins(QMargins(6, 0, 6, 6));
    legendRow->addElement(0, 0, legend);  // takes it out of an axis rect's inset layout
    m_plot->plotLayout()->setRowStretchFactor(row, 0.001);
    legend->setFillOrder(QCPLegend::foColumnsFirst);
}

void ChartPage::setNotes(const QString& notes) {
    m_notes->setText(notes);
    m_notes->setVisible(!notes.isEmpty());
}

QString ChartPage::notes() const {
    return m_notes->text();
}

void ChartPage::fitRanges() {
    for (auto* rect : m_plot->axisRects()) {
        for (auto* axis : rect->axes()) {
            bool hasData = false;
            for (auto* plottable : axis->plottables()) {
                const auto* points = plottable->interface1D();
                hasData = hasData || (plottable->visible() && points != nullptr && points->dataCount() > 0);
            }
            if (!hasData) {
                // Nothing to fit: a fixed range, so that a page refreshed without data does not drift.
                axis->setRange(0, 1);
                continue;
            }
            axis->rescale(true);
            QCPRange r = axis->range();
            if (axis->orientation() == Qt::Vertical) {
                // Values start at zero (bars, shares, speed-ups) with headroom for labels above the bars.
                r.lower = std::min(0.0, r.lower);
                r.upper = r.upper > r.lower ? r.upper + 0.1 * (r.upper - r.lower) : r.lower + 1;
            } else {
                r.lower -= 0.6;  // half a bar either side
                r.upper += 0.6;
            }
            axis->setRange(r);
        }
    }
}

void ChartPage::fitView() {
    fitRanges();
    requestReplot();
}

void ChartPage::zoom(double factor) {
    for (auto* rect : m_plot->axisRects()) rect->axis(QCPAxis::atBottom)->scaleRange(factor);
    requestReplot();
}

void ChartPage::zoomIn() {
    zoom(0.8);
}

void ChartPage::zoomOut() {
    zoom(1.25);
}

QStringList ChartPage::exportFormats() const {
    QStringList formats{QStringLiteral("png"), QStringLiteral("svg"), QStringLiteral("pdf")};
    if (m_tableSource != nullptr) formats << QStringLiteral("csv");
    return formats;
}

core::Status ChartPage::exportTo(const ExportRequest& request) const {
    if (exportSuffix(request.path) == QLatin1String("csv")) {
        if (m_tableSource == nullptr) {
            return core::makeError(core::ErrorCode::InvalidArgument, "this page has no table to export as CSV",
                                   request.path.toStdString());
        }
        return exportTableCsv(*m_tableSource, request.path);
    }
    return exportPlot(*m_plot, request);
}

QStandardItemModel* ChartPage::addTable(const QStringList& header) {
    m_table = new QStandardItemModel(0, static_cast<int>(header.size()), this);
    m_table->setHorizontalHeaderLabels(header);
    m_sorted = new QSortFilterProxyModel(this);
    m_sorted->setSourceModel(m_table);
    m_sorted->setSortRole(Qt::UserRole);
    m_tableSource = m_table;
    addTableView(m_sorted);
    // Enabling sorting applied Qt's default indicator (first column, descending): tables open by their
    // first column (the layer, the batch) ascending instead.
    m_tableView->sortByColumn(0, Qt::AscendingOrder);
    return m_table;
}

void ChartPage::setTableModel(QAbstractItemModel* model) {
    m_tableSource = model;
    addTableView(model);
    // Enabling sorting applied Qt's default indicator (first column, descending); a model of its own
    // starts in its own row order, which tableModel() readers rely on, until a header is clicked.
    m_tableView->sortByColumn(-1, Qt::AscendingOrder);
}

void ChartPage::addTableView(QAbstractItemModel* shown) {
    m_tableView = new QTableView(m_splitter);
    m_tableView->setModel(shown);
    m_tableView->setSortingEnabled(true);
    m_tableView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_tableView->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_tableView->verticalHeader()->hide();
    m_tableView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_splitter->addWidget(m_tableView);
    m_splitter->setStretchFactor(0, 3);
    m_splitter->setStretchFactor(1, 2);
}

void ChartPage::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        applyChartTheme(*m_plot, palette());
        restyle();
        requestReplot();
    }
}

}  // namespace tpscope::ui
