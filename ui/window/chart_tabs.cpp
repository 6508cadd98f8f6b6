// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/window/chart_tabs.h"

#include "ui/charts/chart_set.h"
#include "ui/charts/layers_page.h"
#include "ui/document/run_document.h"
#include "ui/document/scaling_input.h"
#include "ui/window/tab_host.h"

namespace tpscope::ui {

ChartTabs::ChartTabs(TabHost& host, QObject* parent) : QObject(parent), m_host(host), m_charts(new ChartSet(this)) {
    for (auto* page : m_charts->pages()) m_host.addViewTab(page);
    auto* doc = m_host.document();
    connect(doc, &RunDocument::runAdded, this, &ChartTabs::refreshRuns);
    connect(doc, &RunDocument::runChanged, this, [this](RunId id) {
        // Progress ticks change a running run; the charts wait for finished ones.
        const RunRecord* r = m_host.document()->run(id);
        if (r != nullptr && r->status == RunStatus::Running) return;
        refreshRuns();
    });
    connect(doc, &RunDocument::runRemoved, this, &ChartTabs::refreshRuns);
    connect(doc, &RunDocument::reset, this, &ChartTabs::refreshRuns);
    connect(m_charts->layers(), &LayersPage::layerActivated, this,
            [this](int, qint64 t0, qint64 t1) { m_host.showTimelineRange(t0, t1); });
    refreshRuns();
}

void ChartTabs::refreshRuns() {
    // One scaling group at a time: the current run's, else the first group (core forms the groups).
    m_charts->controller()->setInput(scalingInputOf(m_host.document()->runs(), m_host.currentRun()));
}

void ChartTabs::setCurrentRun(RunId id) {
    refreshRuns();  // the current run may belong to another sweep
    m_charts->controller()->setCurrentRun(id);
}

}  // namespace tpscope::ui
