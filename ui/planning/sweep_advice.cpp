// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/planning/sweep_advice.h"

#include "core/hw/memory_fit.h"

namespace tpscope::ui {

core::Result<SweepAdvice> adviceFor(const ScalingInput& input, double pricePerGpuHour, double efficiencyThreshold) {
    SweepAdvice out;
    if (input.points.empty()) {
        return core::makeError(core::ErrorCode::InvalidArgument, input.runs.empty()
                                                                     ? "no finished run in this group"
                                                                     : "no run with a known throughput in this group");
    }
    TPSCOPE_TRY_ASSIGN(out.scaling,
                       core::analysis::analyzeScaling(input.points, {.pricePerGpuHour = pricePerGpuHour,
                                                                     .efficiencyThreshold = efficiencyThreshold}));
    out.options.efficiencyThreshold = efficiencyThreshold;
    if (const auto& base = input.fitRequest) {
        out.options.modelName = base->model.name;
        out.options.gpuName = base->gpu.name;
        const core::PlanConfig plan{base->model, 1, base->batch, base->contextLen, base->dtype};
        out.options.minimumTpThatFits = core::minimumTpThatFits(plan, base->gpu, kFitCandidates);
        out.options.eagerLaunches =
            base->backend == BackendKind::SimulatedCluster && base->runtime == core::sim::Runtime::PytorchEager;
    }
    out.items = core::analysis::adviseTp(out.scaling, out.options);
    return out;
}

}  // namespace tpscope::ui
