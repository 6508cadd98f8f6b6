// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The calculator's numbers for one plan (issue 13 §1.3): the decode plan's all-reduce bytes, the
// floors of the step on every catalog fabric, the roofline on the GPU, and Amdahl's table. Nothing
// is computed here: each number is the core result that `tpscope-cli plan`, `bounds` and `amdahl`
// print (core::buildDecodePlan, core::sim::stepFloors, core::roofline, core::amdahlTable), so the
// panel and the CLI show the same digits. Cost: one plan build plus O(fabrics x algorithms).

#include <optional>
#include <string>
#include <vector>

#include "core/calc/amdahl.h"
#include "core/calc/roofline.h"
#include "core/hw/gpu_spec.h"
#include "core/sim/step_floors.h"
#include "core/util/result.h"
#include "core/workload/decode_plan.h"

namespace tpscope::ui {

struct CalculatorInputs {
    core::PlanConfig plan;
    core::GpuSpec gpu;
    std::vector<core::FabricSpec> fabrics;  // every fabric to floor the step on (the catalog's)
    double serialFraction = 0.05;
    std::vector<int> gpuCounts{1, 2, 4, 8, 16};
};

// One fabric's floors, or why that fabric cannot carry the plan (e.g. TP above its GPUs per node):
// the same message `tpscope-cli bounds --fabric` gives.
struct FabricFloorsRow {
    core::FabricSpec fabric;
    std::optional<core::sim::StepFloors> floors;
    std::string error;
};

struct CalculatorNumbers {
    core::DecodePlan plan;
    core::RooflineReport roofline;
    std::vector<FabricFloorsRow> fabrics;
    std::optional<core::AmdahlTable> amdahl;  // empty with amdahlError when S or the counts are invalid
    std::string amdahlError;
};

// An invalid plan (TP not dividing the heads, zero batch, ...) or GPU is one error for the whole
// calculator; a fabric or the Amdahl inputs fail on their own row.
core::Result<CalculatorNumbers> computeCalculator(const CalculatorInputs& inputs);

}  // namespace tpscope::ui
