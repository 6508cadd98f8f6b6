// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The one export path for charts and tables (Layers, Scaling, Cost, and Compare later):
// - PNG: request.sizePx logical pixels at request.dpr, so the image is sizePx × dpr pixels and the
//   DPI written into it is 96 × dpr (1200×800 at dpr 2: a 2400×1600 image that prints at 1200×800);
// - SVG: the plot painted into a QSvgGenerator through QCPPainter (QCustomPlot::toPainter);
// - PDF: what QCustomPlot::savePdf draws, through a QPdfWriter: vector with text kept as text;
// - CSV: a table model, one row per row, the raw numbers (Qt::UserRole) where a cell has one,
//   written locale-proof through core's CSV writer.
// The format comes from the path's suffix. Every file goes through a QSaveFile (safe_write.h): a
// failure leaves the previous file. Every failure is one Status naming the file.

#include <QAbstractItemModel>
#include <QStringList>

#include "core/util/result.h"
#include "ui/view_tab.h"

class QCustomPlot;

namespace tpscope::ui {

QString exportSuffix(const QString& path);  // "png", "svg", "pdf", "csv" (lower case)
// The path an Export dialog returned, with the suffix of the filter the user chose ("PNG (*.png)")
// appended when the typed name has none of `formats`: the chosen filter decides the format.
QString withChosenSuffix(const QString& path, const QString& selectedFilter, const QStringList& formats);
core::Status exportPlot(QCustomPlot& plot, const ExportRequest& request);
// A table's CSV header names carry their unit (`step_latency_ms`, `wall_ns`, `tokens_per_sec`): each
// column's name is the header data of kCsvHeaderRole, set once with setCsvHeader where the table is
// built; a column without one is written under its displayed title.
inline constexpr int kCsvHeaderRole = Qt::UserRole + 1;
void setCsvHeader(QAbstractItemModel& model, const QStringList& names);
core::Status exportTableCsv(const QAbstractItemModel& model, const QString& path);

}  // namespace tpscope::ui
