// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/sim/step_floors.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/sim/collective_model.h"

namespace tpscope::core::sim {

Result<StepFloors> stepFloors(const DecodePlan& plan, const FabricSpec& fabric, const GpuSpec* gpu) {
    StepFloors f;
    f.bandwidthOnly = allReduceBound(plan, fabric);
    f.collectivesPerStep = plan.collectivesPerStep;
    const int tp = plan.config.tp;
    if (tp > 1) {
        auto model = CollectiveModel::create(fabric, std::nullopt, tp, tp);
        if (!model) return model.error();
        double alpha = std::numeric_limits<double>::infinity();
        for (const auto& e : model->allReduceCandidates(0)) alpha = std::min(alpha, e.latencyNs);
        f.minCallLatencyNs = std::isfinite(alpha) ? alpha : 0;
        f.perCallAlphaBetaNs = f.minCallLatencyNs + f.bandwidthOnly.perCallAtBusbwNs;
        f.perStepAlphaBetaNs = f.minCallLatencyNs * f.collectivesPerStep + f.bandwidthOnly.perStepAtBusbwNs;
    }
    if (gpu) {
        auto roof = roofline(plan, *gpu);
        if (!roof) return roof.error();
        f.hbmFloorNs = roof->memoryTimeNs;
        f.commOverHbm = f.hbmFloorNs > 0 ? f.perStepAlphaBetaNs / f.hbmFloorNs : 0;
    }
    return f;
}

}  // namespace tpscope::core::sim
