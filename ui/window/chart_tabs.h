// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Puts the Layers, Scaling and Cost tabs into the main window (addViewTab) and keeps them fed from
// the document: every finished run of the current run's sweep (or every opened run) with the
// RunAnalysis its worker computed; nothing is analysed here. A layer click moves the timeline.

#include <QObject>

#include "core/util/result.h"
#include "ui/document/run_id.h"
#include "ui/report/sweep_report.h"

class QMenu;

namespace tpscope::ui {

class ChartSet;
class MainWindow;

class ChartTabs : public QObject {
    Q_OBJECT

  public:
    explicit ChartTabs(MainWindow* window);
    ChartSet* charts() const { return m_charts; }
    // Adds "Export report (PDF)…" to the File menu, above its last separator (charts and tables export
    // through the window's "Export view…", ViewTab::exportTo).
    void addExportActions(QMenu* file);
    // What File → Export report writes (dialog-free, for tests): the report of the finished runs.
    core::Status exportReport(const QString& path) const;
    // What the report says besides the charts: the runs, their failures and the Advice tab's advice.
    ReportContext reportContext() const;
    // The group of runs (groupOf) the Scaling, Cost and Advice tabs show.

  private:
    void refreshRuns();
    void onCurrentRun(RunId id);
    void exportReportDialog();

    MainWindow* m_window;
    ChartSet* m_charts;
};

}  // namespace tpscope::ui
