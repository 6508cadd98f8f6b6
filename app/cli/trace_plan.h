// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The decode plan and GPU a trace was recorded with, for commands that model a measured run
// (whatif --tp, calibrate --kernels): each field from the command line when given, else from the
// trace's metadata (model, gpu, tp, batch, context, dtype: what simulate and capture write), else a
// default (TP = the trace's ranks, batch 1, context 1024, fp16).

#include <string>

#include "core/hw/catalog.h"
#include "core/trace/trace.h"
#include "core/workload/decode_plan.h"

namespace tpscope::cli {

struct TracePlanOverrides {
    std::string model;
    std::string gpu;
    int batch = 0;
    int context = 0;
    std::string dtype;
};

struct TracePlan {
    core::PlanConfig plan;
    core::GpuSpec gpu;
};

// `what` names the option that needs the plan, for the error when model or GPU is unknown.
core::Result<TracePlan> resolveTracePlan(const core::Trace& trace, const core::Catalog& catalog,
                                         const TracePlanOverrides& o, const std::string& what);

}  // namespace tpscope::cli
