// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// One configuration's decode plan as the commands that describe a single configuration (plan,
// kernels, bounds) take it from the command line: the model (preset, --model-file, --model-config,
// custom dimensions), --dtype, --weights / --kv-cache, --moe-parallel and the GPU preset. TP, batch
// and context stay each command's own options (plan takes a list of batches); the sweep commands
// resolve theirs in sim_options.h, a measured run's plan comes from trace_plan.h.

#include <optional>
#include <string>

#include "cli_context.h"
#include "core/hw/catalog.h"
#include "core/workload/decode_plan.h"
#include "sim_options.h"

namespace tpscope::cli {

struct ConfigOptions {
    ModelOptions model;
    std::string dtype = "fp16";
    PrecisionOptions precision;  // a command without --weights / --kv-cache leaves them empty
    std::string gpu;             // empty: no GPU (plan and bounds take one optionally)
};

struct ResolvedConfig {
    core::PlanConfig plan;
    std::optional<core::GpuSpec> gpu;
};

// The plan configuration at (tp, batch, context) and the GPU when one is named; the first bad option
// (unknown model, dtype, GPU or MoE mode) is the error.
core::Result<ResolvedConfig> resolveConfig(const core::Catalog& catalog, const ConfigOptions& opts, int tp, int batch,
                                           int context);

}  // namespace tpscope::cli
