// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Colours of the time-breakdown parts (compute, overlapped comm, exposed transfer, sync wait,
// imbalance, idle) and of chart series. Built on the timeline's kind palette
// (ui/timeline/kind_palette.h), the one copy of the colour-blind-safe hues, so a GEMM, a collective
// and exposed communication look the same on the timeline and in every chart.

#include <QColor>
#include <QString>

namespace tpscope::ui {

// One meaning per word (docs/guide.md): exposed wait = all the exposed communication spent waiting for
// the last rank (per-layer and compare views); it splits into imbalance (what the ranks' compute spread
// explains) and sync wait (the rest), which the loss views (runs table, scaling) show apart.
enum class BreakdownPart { Compute, OverlappedComm, ExposedTransfer, SyncWait, Imbalance, Idle, ExposedWait };

QColor breakdownColor(BreakdownPart part);
QString breakdownLabel(BreakdownPart part);  // "Compute", "Overlapped comm", ...
// The i-th data series of a chart (one per batch size), from the same palette.
QColor seriesColor(int index);

}  // namespace tpscope::ui
