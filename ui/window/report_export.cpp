// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/window/report_export.h"

#include <QAction>
#include <QMenu>
#include <QMessageBox>

#include <vector>

#include "ui/document/run_document.h"
#include "ui/export/save_as.h"
#include "ui/window/compare_controller.h"
#include "ui/window/planning_tabs.h"
#include "ui/window/tab_host.h"

namespace tpscope::ui {

ReportExport::ReportExport(TabHost& host, ChartSet& charts, const PlanningTabs& planning,
                           const CompareController& compare, QObject* parent)
    : QObject(parent), m_host(host), m_charts(charts), m_planning(planning), m_compare(compare) {}

void ReportExport::addExportActions(QMenu* file) {
    QAction* before = nullptr;  // the separator above Quit: the report goes below "Export view…"
    for (auto* action : file->actions()) {
        if (action->isSeparator()) before = action;
    }
    auto* report = new QAction(tr("Export &report (PDF)…"), file);
    report->setToolTip(
        tr("Configuration, summary, every chart, the per-layer table and the advice; with 2 to 4 runs selected, "
           "their comparison side by side"));
    connect(report, &QAction::triggered, this, &ReportExport::exportReportDialog);
    file->insertAction(before, report);
}

ReportContext ReportExport::reportContext() const {
    ReportContext context;
    const RunDocument& doc = *m_host.document();
    std::vector<core::sim::Runtime> runtimes;
    std::vector<RunRequest> finished;  // for the weight-traffic notes
    for (const RunId id : doc.ids()) {
        const RunRecord& r = *doc.run(id);
        if (r.request.backend == BackendKind::SimulatedCluster) runtimes.push_back(r.request.runtime);
        context.configuration
            << QStringLiteral("%1: %2 (%3)").arg(r.label(), r.request.backendText(), statusText(r.status));
        if (r.status == RunStatus::Done) finished.push_back(r.request);
        if (r.status == RunStatus::Failed) context.failedRuns << r.label() + QStringLiteral(": ") + r.error;
        if (r.status == RunStatus::DoesNotFit) context.notFitting << r.label() + QStringLiteral(": ") + r.error;
    }
    context.title = titleWithRuntimes(tr("tpscope report"), runtimes);
    context.modelNotes = weightTrafficNotes(finished);
    // The advice the Advice tab shows, not advice of the report's own (issue 28).
    context.advice = m_planning.currentAdvice();
    return context;
}

core::Status ReportExport::exportReport(const QString& path) const {
    const ReportContext context = reportContext();
    // With 2–4 runs in the Compare tab, the side-by-side pages of their comparison follow.
    auto pages = writeSweepReport(path, context, m_charts, m_compare.reportPages());
    if (!pages) return pages.error();
    return core::Ok{};
}

void ReportExport::exportReportDialog() {
    SaveAsOptions options;
    options.title = tr("Export report");
    options.suggested = QStringLiteral("report.pdf");
    options.formats = {QStringLiteral("pdf")};
    QWidget* owner = m_host.dialogParent();
    const QString path = askSaveAs(owner, options, m_host.confirmPrompt());
    if (path.isEmpty()) return;
    const auto status = exportReport(path);
    if (!status) QMessageBox::warning(owner, tr("Export report"), QString::fromStdString(status.error().describe()));
}

}  // namespace tpscope::ui
