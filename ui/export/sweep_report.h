// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The report of a sweep or a comparison of runs: a multi-page PDF (configuration, summary table,
// advice, the Layers / Scaling / Cost charts, the per-layer table) and the same charts exported one
// by one. Everything shown comes from the ChartSet's controller (core's structs) and pages.

#include <QSize>
#include <QString>
#include <QStringList>

#include <functional>

#include "core/util/result.h"

namespace tpscope::ui {

class ChartSet;
class ReportPdf;

// More pages after the sweep's (the side-by-side pages of a comparison: ui/export/compare_report.h).
using ReportPages = std::function<void(ReportPdf& pdf)>;

struct ReportContext {
    QString title;              // "tpscope report: the embedded default sweep"
    QStringList configuration;  // lines: model, hardware, price, what the traces are
    QStringList failedRuns;     // "TP 1 · batch 1: does not fit: ..."
    QString modelName;          // for the advice text, optional
    QString gpuName;
};

// Writes the report; returns the number of pages.
core::Result<int> writeSweepReport(const QString& path, const ReportContext& context, ChartSet& charts,
                                   const ReportPages& morePages = {});
// Writes layers/scaling/cost as .png (sizePx at dpr), .svg, .pdf and their tables as .csv into dir.
core::Result<QStringList> exportAllCharts(const QString& dir, ChartSet& charts, QSize sizePx = QSize(1600, 1000),
                                          double dpr = 1.0);

}  // namespace tpscope::ui
