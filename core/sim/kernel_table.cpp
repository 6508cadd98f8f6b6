// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/sim/kernel_table.h"

#include "core/sim/kernel_model.h"
#include "core/sim/op_time_fit.h"

namespace tpscope::core::sim {

Result<KernelTable> kernelTable(const PlanConfig& config, const GpuSpec& gpu, const SimParams& params, int layer) {
    auto plan = buildDecodePlan(config);
    if (!plan) return plan.error();
    const int shown = layer < 0 ? 0 : layer;
    if (shown >= config.model.layers) {
        return makeError(ErrorCode::InvalidArgument,
                         "the model has " + std::to_string(config.model.layers) + " layers (0 to " +
                             std::to_string(config.model.layers - 1) + ")",
                         "--layer");
    }
    KernelTable t;
    t.gpuId = gpu.id;
    t.layer = shown;
    const auto model = params.fittedOpTimes ? opTimeModel(gpu) : std::nullopt;
    if (model) {
        t.fitDescription = model->description();
        t.derived = model->derived;
    }
    for (const auto& op : plan->ops) {
        if (op.isCollective() || !(op.layer == shown || op.block == OpBlock::Epilogue)) continue;
        const KernelCost cost = kernelCost(op, gpu, config.dtype, params);
        KernelRow row;
        row.op = op;
        row.timeNs = cost.timeNs();
        const auto bytes = static_cast<double>(op.bytesRead + op.bytesWritten);
        row.bandwidthFraction =
            row.timeNs > 0 && gpu.hbmBytesPerSec > 0 ? bytes / (row.timeNs * 1e-9) / gpu.hbmBytesPerSec : 0;
        row.source = cost.fittedNs && model ? model->description() + ", " + std::string(toString(opFitClass(op.kind)))
                                            : std::string("roofline");
        if (op.layer == shown) t.layerTimeNs += row.timeNs;
        t.rows.push_back(std::move(row));
    }
    return t;
}

}  // namespace tpscope::core::sim
