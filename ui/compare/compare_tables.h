// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The Compare view's tables, filled from core's comparison (core::analysis::compareRuns, the result
// `tpscope-cli compare --json` prints) and its part deltas (layerDeltas): the per-layer delta table,
// the summary and the measured - model residual. Cells show formatted text and keep the raw number
// (Qt::UserRole) for sorting and CSV; a cell without a number (a run without that layer, the
// baseline's own delta) shows "—" and has none. Nothing is computed here.

#include <QStandardItemModel>

#include <vector>

#include "core/analysis/compare.h"

namespace tpscope::ui {

// Columns of the per-layer table, one row per (layer, run).
enum class LayerDeltaColumn {
    Layer,
    Run,
    Wall,
    WallDelta,
    WallDeltaFraction,
    Compute,
    ComputeDelta,
    ExposedTransfer,
    ExposedTransferDelta,
    ExposedWait,
    ExposedWaitDelta,
    Idle,
    IdleDelta,
    Count
};
enum class SummaryColumn {
    Run,
    Ranks,
    StepLatency,
    StepLatencyDelta,
    TokensPerSec,
    TokensPerSecDelta,
    ExposedCommShare,
    ExposedCommShareDelta,
    ExposedWaitShare,
    Count
};
enum class ResidualColumn { Layer, Wall, Compute, ExposedTransfer, ExposedWait, Idle, MeasuredWall, ModelWall, Count };

void fillLayerDeltaTable(QStandardItemModel& model, const core::analysis::RunComparison& comparison);
void fillSummaryTable(QStandardItemModel& model, const core::analysis::RunComparison& comparison);
// `measured` and `model` index comparison.runs (the residual's rows come from layerDeltas).
void fillResidualTable(QStandardItemModel& model, const core::analysis::RunComparison& comparison,
                       const std::vector<core::analysis::LayerDelta>& residual, std::size_t measured,
                       std::size_t modelRun);

inline int col(LayerDeltaColumn c) {
    return static_cast<int>(c);
}
inline int col(SummaryColumn c) {
    return static_cast<int>(c);
}
inline int col(ResidualColumn c) {
    return static_cast<int>(c);
}

}  // namespace tpscope::ui
