// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/report/compare_report.h"

#include <qcustomplot.h>
#include <QPainter>
#include <QStandardItemModel>

#include "ui/compare/compare_view.h"
#include "ui/compare/residual_page.h"
#include "ui/compare/stacked_timelines.h"
#include "ui/report/report_pdf.h"

namespace tpscope::ui {

int addComparisonPages(ReportPdf& pdf, CompareView& view) {
    if (!view.hasRuns()) return 0;
    const int before = pdf.pagesWritten();
    QStringList names;
    for (std::size_t i = 0; i < view.runs().size(); ++i)
        names << QStringLiteral("#%1 %2").arg(i + 1).arg(view.runs()[i].label);
    const QString layer = view.alignedLayer() >= 0 ? QObject::tr("aligned on layer %1").arg(view.alignedLayer())
                                                   : QObject::tr("each from its start");
    auto panes = view.stackedPanes();
    const QFont font = view.font();
    pdf.addPainted(
        QObject::tr("Compare: timelines side by side, %1").arg(layer),
        [&](QPainter& p, QSize size) { paintStackedTimelines(p, panes, size, 1.0, font); },
        QObject::tr("One pane per run on one time axis: %1. Each pane's ruler is its own run's time.")
            .arg(names.join(QStringLiteral(" · "))));
    QString html = QObject::tr("<h2>Compare: summary (deltas against #1)</h2>") + tableHtml(*view.summaryTable());
    html += QObject::tr("<h2>Compare: per layer (mean over steps and ranks; deltas against #1)</h2>") +
            tableHtml(*view.layerTable());
    html += QObject::tr(
        "<p><small>Numbers from core::analysis::compareRuns, as <tt>tpscope-cli compare --json</tt> prints them. "
        "Exposed wait = exposed communication spent waiting for the last rank to arrive (imbalance + sync wait); "
        "exposed transfer = the rest.</small></p>");
    pdf.addHtml(html);
    if (view.hasResidual()) {
        ResidualPage* residual = view.residualPage();
        pdf.addChart(QObject::tr("Residual: measured − model per layer"), *residual->plot(), residual->caption());
        pdf.addHtml(QObject::tr("<h2>Residual per layer (measured − model)</h2>") + tableHtml(*residual->tableModel()));
    }
    return pdf.pagesWritten() - before;
}

}  // namespace tpscope::ui
