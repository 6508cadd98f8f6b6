// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Puts the Layers, Scaling and Cost tabs into the window (TabHost::addViewTab) and keeps them fed
// from the document: every finished run of the current run's sweep (or every opened run) with the
// RunAnalysis its worker computed; nothing is analysed here. A layer click moves the timeline.
// File → Export report, which prints these charts, is ReportExport's.

#include <QObject>

#include "ui/document/run_id.h"

namespace tpscope::ui {

class ChartSet;
class TabHost;

class ChartTabs : public QObject {
    Q_OBJECT

  public:
    ChartTabs(TabHost& host, QObject* parent);
    ChartSet* charts() const { return m_charts; }
    // The window connects its currentRunChanged here: the charts show the current run's group.
    void setCurrentRun(RunId id);

  private:
    void refreshRuns();

    TabHost& m_host;
    ChartSet* m_charts;
};

}  // namespace tpscope::ui
