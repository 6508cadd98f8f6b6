// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The base of every chart tab (Layers, Scaling, Cost; Compare reuses it): a row of controls, one
// QCustomPlot and, optionally, a sortable table of the same numbers below it. A page is fed core
// result structs through setters and never computes (STYLE.md "Charts and reports"); it restyles on
// QEvent::PaletteChange, implements ViewTab, and exports through ui/export (chart: PNG/SVG/PDF, table: CSV).

#include <QWidget>

#include "ui/table_cells.h"
#include "ui/view_tab.h"

class QAbstractItemModel;
class QCPLegend;
class QCustomPlot;
class QHBoxLayout;
class QLabel;
class QSortFilterProxyModel;
class QSplitter;
class QStandardItem;
class QStandardItemModel;
class QTableView;

namespace tpscope::ui {

class ChartPage : public QWidget, public ViewTab {
    Q_OBJECT

  public:
    explicit ChartPage(QString title, QWidget* parent = nullptr);
    ~ChartPage() override;

    QCustomPlot* plot() const { return m_plot; }
    // The table of the page's numbers as items (addTable; null when the page has none or its own
    // model, setTableModel); rows in insertion order.
    QStandardItemModel* tableModel() const { return m_table; }
    QTableView* tableView() const { return m_tableView; }

    QString tabTitle() const override { return m_title; }
    void fitView() override;
    void zoomIn() override;
    void zoomOut() override;
    void setCurrentRun(RunId id) override { m_currentRun = id; }
    QStringList exportFormats() const override;
    // .png/.svg/.pdf: the chart; .csv: the table.
    core::Status exportTo(const ExportRequest& request) const override;

    // Queued replot after a data change (QCustomPlot::rpQueuedReplot).
    void requestReplot();
    // Core's notes on the numbers shown (RunAnalysis::notes, why a run is left out), one a line in a
    // caption under the controls; hidden when empty.
    void setNotes(const QString& notes);
    QString notes() const;

  protected:
    QHBoxLayout* controls() const { return m_controls; }
    // Adds the table below the chart, sorted by each cell's Qt::UserRole value (the raw number).
    QStandardItemModel* addTable(const QStringList& header);
    // Adds the table below the chart showing the page's own model (one too large for items), which
    // sorts itself (QAbstractItemModel::sort; unsorted until a header is clicked) and is exported as
    // CSV in its current order.
    void setTableModel(QAbstractItemModel* model);
    // The legend in a row of its own under the axes, never over the data it names.
    void placeLegendBelowPlot();
    // `legend` (the plot's or another) in a row of its own at `row` of the plot layout, entries side
    // by side; the row gets the height the legend needs and no stretch beyond it.
    void placeLegendInRow(QCPLegend* legend, int row);
    // Called after the palette changed and the axes were restyled: re-colour what the page owns.
    virtual void restyle() {}
    // Axis ranges that show all the data (fitView); the default rescales every axis.
    virtual void fitRanges();
    void changeEvent(QEvent* event) override;

    RunId m_currentRun = RunId::None;

  private:
    void zoom(double factor);
    void addTableView(QAbstractItemModel* shown);

    QString m_title;
    QHBoxLayout* m_controls = nullptr;
    QLabel* m_notes = nullptr;
    QSplitter* m_splitter = nullptr;
    QCustomPlot* m_plot = nullptr;
    QAbstractItemModel* m_tableSource = nullptr;  // what CSV exports: m_table or the page's own model
    QStandardItemModel* m_table = nullptr;
    QSortFilterProxyModel* m_sorted = nullptr;  // over m_table
    QTableView* m_tableView = nullptr;
};

}  // namespace tpscope::ui
