// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// tpscope-cli calibrate --from-trace TRACE --kernels: fits the simulator's kernel-efficiency factors
// and launch gap to a measured run (core::sim::calibrateKernels) and, with --predict-tp, simulates
// the same model at other TP degrees with the fitted parameters.

#include <string>

#include "analysis_options.h"
#include "core/hw/catalog.h"

namespace tpscope::cli {

struct KernelCalibrationRequest {
    std::string trace;
    std::string model;  // "" : trace metadata
    std::string gpu;
    std::string fabric;
    std::string predictTp;  // "1,2,4,8" or ""
    bool json = false;
    AnalysisCliOptions analysis;
};

int runKernelCalibration(const KernelCalibrationRequest& r, const core::Catalog& catalog);

}  // namespace tpscope::cli
