// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/planning/calculator_numbers.h"

namespace tpscope::ui {

core::Result<CalculatorNumbers> computeCalculator(const CalculatorInputs& inputs) {
    CalculatorNumbers out;
    TPSCOPE_TRY_ASSIGN(out.plan, core::buildDecodePlan(inputs.plan));
    TPSCOPE_TRY_ASSIGN(out.roofline, core::roofline(out.plan, inputs.gpu));
    for (const auto& fabric : inputs.fabrics) {
        FabricFloorsRow row;
        row.fabric = fabric;
        auto floors = core::sim::stepFloors(out.plan, fabric, &inputs.gpu);
        if (floors) {
            row.floors = *floors;
        } else {
            row.error = floors.error().describe();
        }
        out.fabrics.push_back(std::move(row));
    }
    auto amdahl = core::amdahlTable(inputs.serialFraction, inputs.gpuCounts);
    if (amdahl) {
        out.amdahl = std::move(*amdahl);
    } else {
        out.amdahlError = amdahl.error().describe();
    }
    return out;
}

}  // namespace tpscope::ui
