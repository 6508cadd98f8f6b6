// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "headless_charts.h"

#include <QDir>
#include <QFileInfo>

#include <cstdio>

#include "ui/charts/chart_set.h"
#include "ui/charts/cost_page.h"
#include "ui/compare/compare_view.h"
#include "ui/jobs/services.h"
#include "ui/report/compare_report.h"
#include "ui/report/report_runs.h"
#include "ui/report/sweep_report.h"

namespace tpscope::app {

namespace {

// Loads and analyses the runs, then feeds a window-less chart set laid out at a report's size.
bool prepare(const QStringList& files, ui::ChartSet& charts, ui::ReportRuns& runs) {
    auto loaded = files.isEmpty() ? ui::loadDefaultReportRuns() : ui::loadReportRuns(files, ui::defaultServices());
    if (!loaded) {
        std::fprintf(stderr, "tpscope: %s\n", loaded.error().describe().c_str());
        return false;
    }
    runs = std::move(*loaded);
    if (runs.runs.empty()) {
        std::fprintf(stderr, "tpscope: no run finished, nothing to chart\n");
        for (const auto& f : runs.context.notFitting) std::fprintf(stderr, "  %s\n", qPrintable(f));
        for (const auto& f : runs.context.failedRuns) std::fprintf(stderr, "  %s\n", qPrintable(f));
        return false;
    }
    charts.resizePages(QSize(1600, 1000));
    charts.controller()->setPricePerGpuHour(runs.pricePerGpuHour);
    charts.controller()->setInput(runs.input());
    // The advice as the Advice tab would show it: the same input, the controller's price, the tab's threshold.
    runs.context.advice = ui::adviceFor(charts.controller()->input(), charts.controller()->pricePerGpuHour(),
                                        ui::kDefaultEfficiencyThreshold);
    return true;
}

// With 2–4 runs from the files given, the report ends with their comparison side by side.
ui::ReportPages comparisonPages(const QStringList& files, const ui::ReportRuns& runs) {
    if (files.isEmpty() || runs.allRuns.size() < ui::CompareView::kMinRuns ||
        runs.allRuns.size() > ui::CompareView::kMaxRuns) {
        return {};
    }
    std::vector<ui::CompareRun> compared;
    std::vector<core::TraceOrigin> origins;
    for (const auto& r : runs.allRuns) {
        compared.push_back({r.id, r.label, r.trace, nullptr, r.analysis});
        origins.push_back(r.trace->origin);
    }
    return [compared, residual = ui::residualPairFor(origins)](ui::ReportPdf& pdf) {
        ui::CompareView view;
        view.resize(1600, 1000);
        if (const auto shown = view.setRuns(compared, residual); !shown) {
            std::fprintf(stderr, "tpscope: no comparison pages: %s\n", shown.error().describe().c_str());
            return;
        }
        ui::addComparisonPages(pdf, view);
    };
}

}  // namespace

int writeReportPdf(const QString& out, const QStringList& files) {
    ui::ChartSet charts;
    ui::ReportRuns runs;
    if (!prepare(files, charts, runs)) return 1;
    const QString dir = QFileInfo(out).absolutePath();
    if (!QDir().mkpath(dir)) {
        std::fprintf(stderr, "tpscope: cannot create %s\n", qPrintable(dir));
        return 1;
    }
    const auto pages = ui::writeSweepReport(out, runs.context, charts, comparisonPages(files, runs));
    if (!pages) {
        std::fprintf(stderr, "tpscope: %s\n", pages.error().describe().c_str());
        return 1;
    }
    std::printf("tpscope: report written to %s (%d pages)\n", qPrintable(QFileInfo(out).absoluteFilePath()), *pages);
    return 0;
}

int exportCharts(const QString& dir, const QStringList& files) {
    ui::ChartSet charts;
    ui::ReportRuns runs;
    if (!prepare(files, charts, runs)) return 1;
    const auto written = ui::exportAllCharts(dir, charts);
    if (!written) {
        std::fprintf(stderr, "tpscope: %s\n", written.error().describe().c_str());
        return 1;
    }
    std::printf("tpscope: %d files written to %s\n", static_cast<int>(written->size()),
                qPrintable(QDir(dir).absolutePath()));
    return 0;
}

}  // namespace tpscope::app
