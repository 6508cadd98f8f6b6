#pragma once
// Puts the Layers, Scaling and Cost tabs into the main window and keeps them fed from the runs
// table. Interim seam until the document with stable run ids and per-run analyses (issue 10)
// lands: the analysis of a finished run is computed here once per trace and cached; when the
// document provides RunRecord::analysis this file only forwards it.

#include <QObject>

#include <map>
#include <memory>

#include "core/analysis/analysis.h"

class QMenu;
class QTabWidget;
class QTableView;

namespace tpscope::ui {

class ChartSet;
class RunsModel;
class TimelinePanel;

class ChartTabs : public QObject {
    Q_OBJECT

  public:
    ChartTabs(QTabWidget* tabs, RunsModel* runs, QTableView* runsTable, TimelinePanel* timeline,
              QObject* parent = nullptr);
    ChartSet* charts() const { return m_charts; }
    void setPricePerGpuHour(double price);
    // Adds "Export chart…" and "Export report…" to the File menu, above its last separator.
    void addExportActions(QMenu* file);
    // What File → Export report writes (dialog-free, for tests): the report of the finished runs.
    core::Status exportReport(const QString& path) const;

  private:
    void refreshRuns();
    void onCurrentRow(int row);
    void exportChartDialog();
    void exportReportDialog();

    QTabWidget* m_tabs;
    RunsModel* m_runs;
    TimelinePanel* m_timeline;
    ChartSet* m_charts;
    std::map<const core::Trace*, std::shared_ptr<const core::analysis::RunAnalysis>> m_analyses;
};

}  // namespace tpscope::ui
