// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Fitted kernel efficiencies read back for the simulator (`tpscope-cli simulate --kernel-fit FILE`).
//
// Input: the JSON that `tpscope-cli calibrate --from-trace TRACE --kernels --json` prints: the GPU
// and model it was fitted on, `launch_gap_ns`, and `classes`, one object per kernel class with
// `kind` (gemm, attention, elementwise, other), `compute_efficiency` and `memory_efficiency` in
// (0, 1]. Other fields of that output are ignored.
// Mapping: each class's two efficiencies replace SimParams' for that class (core/sim/kernel_model.h:
// a kernel's roofline time scales with 1 / efficiency; the built-in per-op fit of op_time_fit.h is
// then off, SimParams::fittedOpTimes); `launch_gap_ns` becomes the device gap
// between kernels, `host_per_launch_ns` (optional) the eager host time per launch and
// `step_host_ns` (optional) the host work between steps, replacing the runtime profile's numbers
// (SimParams::hostCosts) exactly as calibrateKernels fitted them. The fit describes
// one GPU, so applying it to a simulation of another GPU is an error.
// Cost: O(file size); files over 1 MiB are refused (a fit is a few hundred bytes).

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/sim/sim_params.h"
#include "core/trace/event_kind.h"
#include "core/util/result.h"

namespace tpscope::core::sim {

struct KernelFitClass {
    EventKind kind = EventKind::Other;
    KernelEfficiency efficiency;
};

struct KernelFit {
    std::string source;  // the file, for messages
    std::string gpuId;
    std::string modelId;
    double launchGapNs = 0;            // the device gap between kernels (graphs: node to node)
    double hostPerLaunchNs = 0;        // eager host time per launch; 0 in fits written before issue 26
    std::optional<double> stepHostNs;  // host work between steps; unset: the runtime profile's
    std::vector<KernelFitClass> classes;
};

Result<KernelFit> parseKernelFit(std::string_view json, const std::string& source);
Result<KernelFit> loadKernelFit(const std::string& path);

// The parameters with the fit applied; an error when the simulation's GPU is not the fit's.
Status applyKernelFit(const KernelFit& fit, const std::string& gpuId, SimParams& params);

}  // namespace tpscope::core::sim
