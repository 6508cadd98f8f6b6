// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/run_scaling.h"

#include "core/analysis/analysis.h"

namespace tpscope::ui {

std::vector<core::analysis::RunPoint> scalingPointsOf(const std::vector<RunRecord>& runs, int sweep) {
    std::vector<core::analysis::RunPoint> points;
    for (const auto& r : runs) {
        if (r.sweep != sweep || r.status != RunStatus::Done || !r.trace || !r.analysis) continue;
        if (r.request.backend == BackendKind::Imported) continue;
        points.push_back(
            core::analysis::runPointOf(*r.trace, *r.analysis, r.label().toStdString(), r.request.tp, r.request.batch));
    }
    return points;
}

core::Result<core::analysis::ScalingReport> scalingOfSweep(const std::vector<RunRecord>& runs, int sweep) {
    double price = 0;
    for (const auto& r : runs) {
        if (r.sweep == sweep) price = r.request.pricePerGpuHour;
    }
    return core::analysis::analyzeScaling(scalingPointsOf(runs, sweep), {.pricePerGpuHour = price});
}

const core::analysis::BatchScaling* scalingBatchOf(const core::analysis::ScalingReport& report, const RunRecord& run) {
    for (const auto& batch : report.batches) {
        if (batch.batch == run.request.batch) return &batch;
    }
    return nullptr;
}

const core::analysis::ScalingRow* scalingRowOf(const core::analysis::ScalingReport& report, const RunRecord& run) {
    if (const auto* batch = scalingBatchOf(report, run)) {
        for (const auto& row : batch->rows) {
            if (row.gpus == run.request.tp) return &row;
        }
    }
    return nullptr;
}

}  // namespace tpscope::ui
