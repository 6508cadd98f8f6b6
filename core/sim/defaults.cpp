// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/sim/defaults.h"

#include "core/util/units.h"

namespace tpscope::core::sim {

std::vector<DefaultRow> defaultsTable() {
    const Defaults& d = kDefaults;
    return {
        {"runtime", std::string(toString(d.runtime)), "--runtime",
         "simulate, plan-capacity, demo, the window (run panel, default sweep), the workspace spec, the report"},
        {"model", std::string(d.model), "--model", "demo, the window's default sweep, the report"},
        {"gpu", std::string(d.gpu), "--gpu", "simulate, plan-capacity, calibrate, demo, the window"},
        {"fabric", std::string(d.fabric), "--fabric", "simulate, plan-capacity, bounds, allreduce, demo, the window"},
        {"gpus per node", std::to_string(d.gpusPerNode), "--gpus-per-node",
         "when the fabric does not say how many GPUs it connects"},
        {"tokens (simulated)", std::to_string(d.tokens), "--tokens", "simulate, plan-capacity, demo, the window"},
        {"tokens (captured)", std::to_string(d.capturedTokens), "--tokens", "capture (measured decode steps)"},
        {"context", std::to_string(d.contextLen), "--context",
         "plan, bounds, simulate, plan-capacity, capture, whatif --tp, scaling's memory fit, the window"},
        {"price per GPU-hour", "$" + formatFixed(d.pricePerGpuHour, 2), "--price-per-gpu-hour",
         "plan-capacity, scaling, cost, the window's Cost tab, the report"},
        {"seed", std::to_string(d.seed), "--seed", "simulate, plan-capacity, demo, the window"},
    };
}

}  // namespace tpscope::core::sim
