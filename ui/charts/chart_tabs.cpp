// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/charts/chart_tabs.h"

#include <qcustomplot.h>
#include <QFileDialog>
#include <QMenu>
#include <QMessageBox>
#include <QTabWidget>
#include <QTableView>

#include "ui/charts/chart_set.h"
#include "ui/charts/cost_page.h"
#include "ui/charts/layers_page.h"
#include "ui/charts/scaling_page.h"
#include "ui/compare/compare_controller.h"
#include "ui/export/sweep_report.h"
#include "ui/main_window.h"
#include "ui/run_document.h"
#include "ui/timeline/timeline_panel.h"

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

void ChartTabs::setPricePerGpuHour(double price) {
    m_charts->controller()->setPricePerGpuHour(price);
}

void ChartTabs::refreshRuns() {
    const auto* doc = m_window->document();
    // One sweep's scaling at a time: the current run's sweep, or the opened runs (sweep 0).
    const RunRecord* current = doc->run(m_window->currentRun());
    const int sweep = current != nullptr ? current->sweep : 0;
    std::vector<ChartRun> runs;
    for (const RunId id : doc->ids()) {
        const RunRecord* r = doc->run(id);
        if (r == nullptr || r->status != RunStatus::Done || !r->trace || !r->analysis) continue;
        if (current != nullptr && r->sweep != sweep) continue;
        ChartRun c;
        c.id = id;
        c.label = r->label();
        c.gpus = r->request.tp;
        c.batch = r->request.backend == BackendKind::Imported ? 0 : r->request.batch;
        c.trace = r->trace;
        c.analysis = r->analysis;
        runs.push_back(std::move(c));
    }
    m_charts->controller()->setRuns(std::move(runs));
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

core::Status ChartTabs::exportReport(const QString& path) const {
    ReportContext context;
    context.title = tr("tpscope report");
    for (const RunId id : m_window->document()->ids()) {
        const RunRecord& r = *m_window->document()->run(id);
        if (context.modelName.isEmpty() && !r.request.model.name.empty()) {
            context.modelName = QString::fromStdString(r.request.model.name);
            context.gpuName = QString::fromStdString(r.request.gpu.name);
        }
        context.configuration
            << QStringLiteral("%1: %2 (%3)").arg(r.label(), r.request.backendText(), statusText(r.status));
        if (r.status == RunStatus::Failed) context.failedRuns << r.label() + QStringLiteral(": ") + r.error;
    }
    context.configuration << tr("Price $%1 per GPU-hour.").arg(m_charts->controller()->pricePerGpuHour(), 0, 'f', 2);
    // With 2–4 runs selected, the side-by-side pages of their comparison follow.
    const auto* compare = m_window->compareController();
    auto pages =
        writeSweepReport(path, context, *m_charts, compare != nullptr ? compare->reportPages() : ReportPages{});
    if (!pages) return pages.error();
    return core::Ok{};
}

void ChartTabs::exportReportDialog() {
    const QString path =
        QFileDialog::getSaveFileName(m_window, tr("Export report"), QStringLiteral("report.pdf"), tr("PDF (*.pdf)"));
    if (path.isEmpty()) return;
    const auto status = exportReport(path);
    if (!status) QMessageBox::warning(m_window, tr("Export report"), QString::fromStdString(status.error().describe()));
}

}  // namespace tpscope::ui
