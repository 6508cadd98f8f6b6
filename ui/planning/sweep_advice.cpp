// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/planning/sweep_advice.h"

#include <algorithm>

#include "core/hw/memory_fit.h"
#include "ui/run_scaling.h"

namespace tpscope::ui {

core::Result<SweepAdvice> adviceForSweep(const std::vector<RunRecord>& runs, int sweep, double efficiencyThreshold) {
    SweepAdvice out;
    double price = 0;
    const RunRequest* base = nullptr;
    int largestBatch = 1;
    for (const auto& r : runs) {
        if (r.sweep != sweep || r.request.backend == BackendKind::Imported) continue;
        price = r.request.pricePerGpuHour;
        base = &r.request;
        largestBatch = std::max(largestBatch, r.request.batch);
    }
    TPSCOPE_TRY_ASSIGN(out.scaling, core::analysis::analyzeScaling(
                                        scalingPointsOf(runs, sweep),
                                        {.pricePerGpuHour = price, .efficiencyThreshold = efficiencyThreshold}));
    out.options.efficiencyThreshold = efficiencyThreshold;
    if (base != nullptr && base->model.layers > 0) {
        out.options.modelName = base->model.name;
        out.options.gpuName = base->gpu.name;
        const core::PlanConfig plan{base->model, 1, largestBatch, base->contextLen, base->dtype};
        out.options.minimumTpThatFits = core::minimumTpThatFits(plan, base->gpu, kFitCandidates);
    }
    out.items = core::analysis::adviseTp(out.scaling, out.options);
    return out;
}

}  // namespace tpscope::ui
