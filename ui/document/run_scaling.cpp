// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/document/run_scaling.h"

namespace tpscope::ui {

namespace {

const core::analysis::RunPoint* pointOf(const ScalingInput& input, RunId id) {
    for (std::size_t i = 0; i < input.pointIds.size(); ++i) {
        if (input.pointIds[i] == id) return &input.points[i];
    }
    return nullptr;
}

}  // namespace

core::Result<core::analysis::ScalingReport> scalingOfGroup(const std::vector<RunRecord>& runs, RunId member) {
    return core::analysis::analyzeScaling(scalingInputOf(runs, member).points);
}

const core::analysis::BatchScaling* scalingBatchOf(const core::analysis::ScalingReport& report,
                                                   const ScalingInput& input, RunId id) {
    const auto* point = pointOf(input, id);
    if (point == nullptr) return nullptr;
    for (const auto& batch : report.batches) {
        if (batch.batch == point->batch) return &batch;
    }
    return nullptr;
}

const core::analysis::ScalingRow* scalingRowOf(const core::analysis::ScalingReport& report, const ScalingInput& input,
                                               RunId id) {
    const auto* point = pointOf(input, id);
    if (const auto* batch = scalingBatchOf(report, input, id)) {
        for (const auto& row : batch->rows) {
            if (row.gpus == point->gpus) return &row;
        }
    }
    return nullptr;
}

}  // namespace tpscope::ui
