// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The report of a sweep or a comparison of runs: a multi-page PDF (configuration, summary table,
// advice, the Layers / Scaling / Cost charts, the per-layer table) and the same charts exported one
// by one. Everything shown comes from the ChartSet's controller (core's structs, its price and the
// notes beside them) and pages, and the advice from adviceFor: the screen's numbers.

#include <QSize>
#include <QString>
#include <QStringList>

#include <functional>
#include <vector>

#include "core/sim/runtime_profile.h"
#include "core/util/result.h"
#include "ui/document/run_request.h"
#include "ui/planning/sweep_advice.h"

namespace tpscope::ui {

class ChartSet;
class ReportPdf;

// More pages after the sweep's (the side-by-side pages of a comparison: ui/report/compare_report.h).
using ReportPages = std::function<void(ReportPdf& pdf)>;

struct ReportContext {
    QString title;              // "tpscope report: the embedded default sweep"
    QStringList configuration;  // lines: model, hardware, price, what the traces are
    QStringList failedRuns;     // "TP 1 · batch 1: cannot open ...": runs that failed
    QStringList notFitting;     // "TP 1 · batch 1: does not fit: ...": configurations memory cannot hold
    // What the model's weight traffic does across the runs, in words: for a MoE model, the experts a
    // step touches and the weight bytes a GPU reads per step at each batch (core::moeTrafficNotes);
    // empty for a dense model, whose weight traffic does not depend on batch.
    QStringList modelNotes;
    // The advice to print: what the Advice tab shows (PlanningTabs::advice) or, headless, adviceFor
    // over the same chart input and price at the tab's default threshold.
    core::Result<SweepAdvice> advice{core::makeError(core::ErrorCode::InvalidArgument, "no advice computed")};
};

// A report title with the runtime profiles its simulated runs ran under ("…, runtime cuda-graphs";
// several: "…, runtimes pytorch-eager, cuda-graphs"): the host's share of every step depends on it,
// so the first line says it (issue 26). Unchanged when there is none (measured runs only).
QString titleWithRuntimes(const QString& title, const std::vector<core::sim::Runtime>& runtimes);

// Core's words on each simulated model's weight traffic across the given runs' requests (a MoE
// model's grows with batch; core::moeTrafficNotes), one model after another in the order they first
// appear; runs that were not simulated are skipped. What ReportContext::modelNotes holds.
QStringList weightTrafficNotes(const std::vector<RunRequest>& requests);

// The report's first pages (title, configuration, price, runs table, cost, advice, notes) as the
// HTML the PDF is made of: what tests compare with the screen.
QString reportSummaryHtml(const ReportContext& context, const ChartSet& charts);
// Writes the report; returns the number of pages.
core::Result<int> writeSweepReport(const QString& path, const ReportContext& context, ChartSet& charts,
                                   const ReportPages& morePages = {});
// Writes layers/scaling/cost as .png (sizePx at dpr), .svg, .pdf and their tables as .csv into dir.
core::Result<QStringList> exportAllCharts(const QString& dir, ChartSet& charts, QSize sizePx = QSize(1600, 1000),
                                          double dpr = 1.0);

}  // namespace tpscope::ui
