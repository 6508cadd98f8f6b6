// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/window/chart_tabs.h"

#include <qcustomplot.h>
#include <QMenu>
#include <QMessageBox>
#include <QTabWidget>
#include <QTableView>

#include <vector>

#include "ui/charts/chart_set.h"
#include "ui/charts/cost_page.h"
#include "ui/charts/layers_page.h"
#include "ui/charts/scaling_page.h"
#include "ui/document/run_document.h"
#include "ui/document/scaling_input.h"
#include "ui/export/save_as.h"
#include "ui/report/sweep_report.h"
#include "ui/timeline/timeline_panel.h"
#include "ui/window/compare_controller.h"
#include "ui/window/main_window.h"
#include "ui/window/planning_tabs.h"

namespace tpscope::ui {

ChartTabs::ChartTabs(MainWindow* window) : QObject(window), m_window(window), m_charts(new ChartSet(this)) {
    for (auto* page : m_charts->pages()) m_window->addViewTab(page);
    auto* doc = m_window->document();
    connect(doc, &RunDocument::runAdded, this, &ChartTabs::refreshRuns);
    connect(doc, &RunDocument::runChanged, this, [this](RunId id) {
        // Progress ticks change a running run; the charts wait for finished ones.
        const RunRecord* r = m_window->document()->run(id);
        if (r != nullptr && r->status == RunStatus::Running) return;
        refreshRuns();
    });
    connect(doc, &RunDocument::runRemoved, this, &ChartTabs::refreshRuns);
    connect(doc, &RunDocument::reset, this, &ChartTabs::refreshRuns);
    connect(m_window, &MainWindow::currentRunChanged, this, &ChartTabs::onCurrentRun);
    connect(m_charts->layers(), &LayersPage::layerActivated, this, [this](int, qint64 t0, qint64 t1) {
        m_window->timelinePanel()->view()->setVisibleRange(t0, t1);
        m_window->tabs()->setCurrentWidget(m_window->timelinePanel());
    });
    refreshRuns();
}

void ChartTabs::refreshRuns() {
    // One scaling group at a time: the current run's, else the first group (core forms the groups).
    m_charts->controller()->setInput(scalingInputOf(m_window->document()->runs(), m_window->currentRun()));
}

void ChartTabs::onCurrentRun(RunId id) {
    refreshRuns();  // the current run may belong to another sweep
    m_charts->controller()->setCurrentRun(id);
}

void ChartTabs::addExportActions(QMenu* file) {
    QAction* before = nullptr;  // the separator above Quit: the report goes below "Export view…"
    for (auto* action : file->actions()) {
        if (action->isSeparator()) before = action;
    }
    auto* report = new QAction(tr("Export &report (PDF)…"), file);
    report->setToolTip(
        tr("Configuration, summary, every chart, the per-layer table and the advice; with 2 to 4 runs selected, "
           "their comparison side by side"));
    connect(report, &QAction::triggered, this, &ChartTabs::exportReportDialog);
    file->insertAction(before, report);
}

ReportContext ChartTabs::reportContext() const {
    ReportContext context;
    std::vector<core::sim::Runtime> runtimes;
    for (const RunId id : m_window->document()->ids()) {
        const RunRecord& r = *m_window->document()->run(id);
        if (r.request.backend == BackendKind::SimulatedCluster) runtimes.push_back(r.request.runtime);
        context.configuration
            << QStringLiteral("%1: %2 (%3)").arg(r.label(), r.request.backendText(), statusText(r.status));
        if (r.status == RunStatus::Failed) context.failedRuns << r.label() + QStringLiteral(": ") + r.error;
        if (r.status == RunStatus::DoesNotFit) context.notFitting << r.label() + QStringLiteral(": ") + r.error;
    }
    context.title = titleWithRuntimes(tr("tpscope report"), runtimes);
    std::vector<RunRequest> requests;
    for (const RunId id : m_window->document()->ids()) {
        const RunRecord& r = *m_window->document()->run(id);
        if (r.status == RunStatus::Done) requests.push_back(r.request);
    }
    context.modelNotes = weightTrafficNotes(requests);
    // The advice the Advice tab shows, not advice of the report's own (issue 28).
    context.advice = m_window->planningTabs()->currentAdvice();
    return context;
}

core::Status ChartTabs::exportReport(const QString& path) const {
    const ReportContext context = reportContext();
    // With 2–4 runs selected, the side-by-side pages of their comparison follow.
    const auto* compare = m_window->compareController();
    auto pages =
        writeSweepReport(path, context, *m_charts, compare != nullptr ? compare->reportPages() : ReportPages{});
    if (!pages) return pages.error();
    return core::Ok{};
}

void ChartTabs::exportReportDialog() {
    SaveAsOptions options;
    options.title = tr("Export report");
    options.suggested = QStringLiteral("report.pdf");
    options.formats = {QStringLiteral("pdf")};
    const QString path = askSaveAs(m_window, options, m_window->confirmPrompt());
    if (path.isEmpty()) return;
    const auto status = exportReport(path);
    if (!status) QMessageBox::warning(m_window, tr("Export report"), QString::fromStdString(status.error().describe()));
}

}  // namespace tpscope::ui
