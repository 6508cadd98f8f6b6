// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// File → Export report (PDF)…: one report of what the tabs show — the runs, the Layers / Scaling /
// Cost charts (ChartTabs' ChartSet), the Advice tab's advice (PlanningTabs) and, with 2 to 4 runs
// in the Compare tab, their comparison (CompareController). It is the one place that reads all
// three, so none of them reads another; the window builds it last, from the three it already holds.

#include <QObject>

#include "core/util/result.h"
#include "ui/report/sweep_report.h"

class QMenu;

namespace tpscope::ui {

class ChartSet;
class CompareController;
class PlanningTabs;
class TabHost;

class ReportExport : public QObject {
    Q_OBJECT

  public:
    ReportExport(TabHost& host, ChartSet& charts, const PlanningTabs& planning, const CompareController& compare,
                 QObject* parent);
    // Adds "Export report (PDF)…" to the File menu, above its last separator (charts and tables export
    // through the window's "Export view…", ViewTab::exportTo).
    void addExportActions(QMenu* file);
    // What File → Export report writes (dialog-free, for tests): the report of the finished runs.
    core::Status exportReport(const QString& path) const;
    // What the report says besides the charts: the runs, their failures and the Advice tab's advice.
    ReportContext reportContext() const;

  private:
    void exportReportDialog();

    TabHost& m_host;
    ChartSet& m_charts;
    const PlanningTabs& m_planning;
    const CompareController& m_compare;
};

}  // namespace tpscope::ui
