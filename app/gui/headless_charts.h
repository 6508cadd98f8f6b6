// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The chart side of the headless modes: `--report OUT.pdf [FILE...]` writes the multi-page PDF
// report and `--export-charts DIR [FILE]` writes every chart as PNG/SVG/PDF and its table as CSV.
// No FILE means the embedded default sweep. They use the GUI's own chart pages, without a window.

#include <QString>
#include <QStringList>

namespace tpscope::app {

int writeReportPdf(const QString& out, const QStringList& files);
int exportCharts(const QString& dir, const QStringList& files);

}  // namespace tpscope::app
