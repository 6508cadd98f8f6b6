// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/report/sweep_report.h"

#include <qcustomplot.h>
#include <QDir>
#include <QStandardItemModel>

#include <algorithm>

#include "core/util/units.h"
#include "core/workload/moe_summary.h"
#include "ui/charts/chart_set.h"
#include "ui/charts/charts_controller.h"
#include "ui/charts/cost_page.h"
#include "ui/charts/layers_page.h"
#include "ui/charts/scaling_page.h"
#include "ui/export/plot_export.h"
#include "ui/report/report_pdf.h"

namespace tpscope::ui {

namespace {

// core's text, escaped for the report's HTML.
QString escaped(const std::string& s) {
    return QString::fromStdString(s).toHtmlEscaped();
}

QString priceText(double pricePerGpuHour) {
    return pricePerGpuHour > 0
               ? QStringLiteral("Price $%1 per GPU-hour.").arg(escaped(core::formatFixed(pricePerGpuHour, 2)))
               : QStringLiteral("No price per GPU-hour: no costs.");
}

QString runsTableHtml(const core::analysis::ScalingReport& report) {
    QString html = QStringLiteral(
        "<table border=\"1\" cellspacing=\"0\"><tr><th>Run</th><th>GPUs</th><th>Batch</th><th>Step latency</th>"
        "<th>Tokens/s</th><th>Speed-up</th><th>Efficiency</th><th>Exposed comm</th><th>$ per M tokens</th></tr>");
    for (const auto& b : report.batches) {
        for (const auto& r : b.rows) {
            const bool baseline = r.gpus == b.baselineGpus;
            html += QStringLiteral(
                        "<tr><td>%1</td><td align=\"right\">%2</td><td align=\"right\">%3</td>"
                        "<td align=\"right\">%4</td><td align=\"right\">%5</td><td align=\"right\">%6</td>"
                        "<td align=\"right\">%7</td><td align=\"right\">%8</td><td align=\"right\">%9</td></tr>")
                        .arg(escaped(r.label))
                        .arg(r.gpus)
                        .arg(b.batch)
                        .arg(escaped(core::formatDurationNs(r.stepLatencyNs, core::DurationStyle::Display)),
                             escaped(core::formatFixed(r.tokensPerSec, 1)),
                             escaped(core::formatFixed(r.speedup, 2)) + QStringLiteral("×"),
                             baseline ? QStringLiteral("baseline") : escaped(core::formatPercent(r.efficiency)),
                             escaped(core::formatPercent(r.exposedCommShare)),
                             report.pricePerGpuHour > 0 ? escaped(core::formatDollars(r.costPerMillionTokens))
                                                        : QStringLiteral("—"));
        }
    }
    return html;
}

// A run with no scaling row (its batch or its steps unknown): its row all the same, "—" where a
// number is unknown, its step latency and exposed communication where core measured them, and why.
QString leftOutRowsHtml(const ScalingInput& input) {
    QString html;
    for (const auto& [leftOutId, reason] : input.leftOut) {
        // A copy for the lambda: C++20 lets it capture a structured binding, clang-tidy's clang 14 does not.
        const RunId id = leftOutId;
        const auto run =
            std::find_if(input.runs.begin(), input.runs.end(), [&](const ChartRun& r) { return r.id == id; });
        if (run == input.runs.end()) continue;
        const auto& s = run->analysis->summary;
        const QString dash = QStringLiteral("—");
        html += QStringLiteral(
                    "<tr><td>%1<br/><i>%2</i></td><td align=\"right\">%3</td><td align=\"right\">%4</td>"
                    "<td align=\"right\">%5</td><td align=\"right\">%6</td><td align=\"right\">%6</td>"
                    "<td align=\"right\">%6</td><td align=\"right\">%7</td><td align=\"right\">%6</td></tr>")
                    .arg(run->label.toHtmlEscaped(), escaped(reason),
                         run->gpus > 0 ? QString::number(run->gpus) : QString::number(s.ranks),
                         s.batchKnown ? QString::number(s.batch) : dash,
                         s.latencyMeanNs > 0
                             ? escaped(core::formatDurationNs(s.latencyMeanNs, core::DurationStyle::Display))
                             : dash,
                         dash, escaped(core::formatPercent(s.exposedCommShare)));
    }
    return html;
}

// Core's loud answer for each run it did not understand (core/analysis/understanding.h): the first
// thing the report says, before any number built on it.
QString understandingHtml(const ScalingInput& input) {
    QString html;
    for (const auto& r : input.runs) {
        if (!r.analysis || r.analysis->understanding.understood()) continue;
        html += QStringLiteral("<p><b>%1: not understood.</b> %2</p>")
                    .arg(r.label.toHtmlEscaped(), escaped(r.analysis->understanding.headline()));
    }
    return html;
}

}  // namespace

QString titleWithRuntimes(const QString& title, const std::vector<core::sim::Runtime>& runtimes) {
    QStringList names;
    for (const auto runtime : core::sim::kRuntimes) {
        if (std::find(runtimes.begin(), runtimes.end(), runtime) != runtimes.end()) {
            names << QString::fromLatin1(core::sim::toString(runtime));
        }
    }
    if (names.isEmpty()) return title;
    return title + (names.size() == 1 ? QStringLiteral(", runtime ") : QStringLiteral(", runtimes ")) +
           names.join(QStringLiteral(", "));
}

QStringList weightTrafficNotes(const std::vector<RunRequest>& requests) {
    std::vector<std::vector<core::PlanConfig>> byModel;
    for (const RunRequest& r : requests) {
        if (r.backend != BackendKind::SimulatedCluster) continue;
        auto same = std::find_if(byModel.begin(), byModel.end(),
                                 [&](const auto& plans) { return plans.front().model.name == r.model.name; });
        if (same == byModel.end()) {
            byModel.push_back({r.plan()});
        } else {
            same->push_back(r.plan());
        }
    }
    QStringList notes;
    for (const auto& plans : byModel) {
        for (const auto& n : core::moeTrafficNotes(plans)) notes << QString::fromStdString(n);
    }
    return notes;
}

QString reportSummaryHtml(const ReportContext& context, const ChartSet& charts) {
    const auto* controller = charts.controller();
    QString html = QStringLiteral("<h1>%1</h1>").arg(context.title.toHtmlEscaped());
    html += understandingHtml(controller->input());
    for (const auto& line : context.configuration) html += QStringLiteral("<p>%1</p>").arg(line.toHtmlEscaped());
    html += QStringLiteral("<p>%1</p>").arg(priceText(controller->pricePerGpuHour()).toHtmlEscaped());
    html += QStringLiteral("<h2>Runs</h2>");
    const auto& scaling = controller->scaling();
    if (!scaling) {
        html += QStringLiteral("<p>No scaling summary: %1</p>").arg(escaped(scaling.error().describe()));
    }
    html += runsTableHtml(scaling ? *scaling : core::analysis::ScalingReport{}) + leftOutRowsHtml(controller->input()) +
            QStringLiteral("</table>");
    if (!context.modelNotes.isEmpty()) {
        html += QStringLiteral("<h2>Weight traffic</h2>");
        for (const auto& n : context.modelNotes) html += QStringLiteral("<p>%1</p>").arg(n.toHtmlEscaped());
    }
    if (!context.notFitting.isEmpty()) {
        html += QStringLiteral("<p><b>Configurations that do not fit the GPU memory:</b></p><ul>");
        for (const auto& f : context.notFitting) html += QStringLiteral("<li>%1</li>").arg(f.toHtmlEscaped());
        html += QStringLiteral("</ul>");
    }
    if (!context.failedRuns.isEmpty()) {
        html += QStringLiteral("<p><b>Runs that did not finish:</b></p><ul>");
        for (const auto& f : context.failedRuns) html += QStringLiteral("<li>%1</li>").arg(f.toHtmlEscaped());
        html += QStringLiteral("</ul>");
    }
    html += QStringLiteral("<h2>Cost</h2><p>%1</p>").arg(charts.cost()->highlightText().toHtmlEscaped());
    html += QStringLiteral("<h2>Advice</h2>");
    if (!context.advice) {
        html += QStringLiteral("<p>No advice: %1</p>").arg(escaped(context.advice.error().describe()));
    } else {
        html += QStringLiteral("<ul>");
        for (const auto& item : context.advice->items) html += QStringLiteral("<li>%1</li>").arg(escaped(item.text));
        if (context.advice->items.empty()) {
            html += QStringLiteral("<li>No advice: it needs runs at two or more GPU counts.</li>");
        }
        html += QStringLiteral("</ul>");
    }
    // Core's notes on these numbers, as the Scaling and Cost tabs show them.
    const QString notes = charts.scaling()->notes();
    if (!notes.isEmpty()) {
        html += QStringLiteral("<h2>Notes</h2>");
        for (const auto& line : notes.split(QLatin1Char('\n'))) {
            html += QStringLiteral("<p><i>%1</i></p>").arg(line.toHtmlEscaped());
        }
    }
    html += QStringLiteral(
        "<p><small>Efficiency = speed-up ÷ (GPUs ÷ baseline GPUs), shown where a smaller TP of the same batch ran. "
        "Exposed communication = collective time with no compute kernel running on that GPU. Exposed wait = the "
        "part of it spent waiting for the last rank to arrive (per-layer bars); it splits into imbalance (what the "
        "ranks' compute spread explains) and sync wait (the rest: launch skew, jitter), shown apart in the losses; "
        "exposed transfer = the rest of exposed communication.</small></p>");
    return html;
}

core::Result<int> writeSweepReport(const QString& path, const ReportContext& context, ChartSet& charts,
                                   const ReportPages& morePages) {
    ReportPdf pdf(path, context.title);
    TPSCOPE_TRY(pdf.begin());
    pdf.addHtml(reportSummaryHtml(context, charts));
    const ChartRun* run = charts.controller()->currentChartRun();
    const QString runName = run != nullptr ? run->label : QStringLiteral("no run");
    QString layersCaption =
        QStringLiteral("Time per layer, mean over steps and ranks; the parts partition each layer's wall time.");
    if (!charts.layers()->notes().isEmpty()) layersCaption += QLatin1Char(' ') + charts.layers()->notes();
    pdf.addChart(QStringLiteral("Layers: %1").arg(runName), *charts.layers()->plot(), layersCaption);
    pdf.addChart(QStringLiteral("Scaling"), *charts.scaling()->plot(),
                 QStringLiteral("Speed-up against GPUs with the ideal line and the fitted Amdahl curve; efficiency "
                                "on the right axis. Below: where each configuration's step time goes."));
    pdf.addChart(QStringLiteral("Cost"), *charts.cost()->plot(), charts.cost()->highlightText());
    pdf.addHtml(QStringLiteral("<h2>Per-layer table: %1</h2>").arg(runName.toHtmlEscaped()) +
                tableHtml(*charts.layers()->tableModel()));
    if (morePages) morePages(pdf);
    return pdf.finish();
}

core::Result<QStringList> exportAllCharts(const QString& dir, ChartSet& charts, QSize sizePx, double dpr) {
    if (!QDir().mkpath(dir)) {
        return core::makeError(core::ErrorCode::IoError, "cannot create the folder", dir.toStdString());
    }
    QStringList written;
    const QStringList names{QStringLiteral("layers"), QStringLiteral("scaling"), QStringLiteral("cost")};
    const auto pages = charts.pages();
    for (std::size_t i = 0; i < pages.size(); ++i) {
        for (const auto& format : pages[i]->exportFormats()) {
            const QString path = QDir(dir).filePath(names[static_cast<int>(i)] + QLatin1Char('.') + format);
            TPSCOPE_TRY(pages[i]->exportTo(ExportRequest{path, sizePx, dpr}));
            written << path;
        }
    }
    return written;
}

}  // namespace tpscope::ui
