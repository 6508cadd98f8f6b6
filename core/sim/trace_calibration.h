// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Calibration from what the user has: a captured or imported trace.
// - Fabric: every matched all-reduce call with a message size gives one sample (bytes, communicator
//   size, nodes = distinct hosts of its ranks, time = its transfer: median end - last arrival,
//   DESIGN.md §5), fed to calibrateFabric (core/sim/calibration.h) like nccl-tests rows. In a
//   single-rank trace the transfer includes the wait for the other ranks, so the fit is slow-biased;
//   the result says so.
// - Kernels: per kernel class (GEMM, attention, elementwise, other) the efficiency factors of the
//   roofline model are scaled so that the decode plan's kernels take the measured busy time per
//   step and rank: scale = sum of roofline times / (measured busy - kernels x fixed overhead), both
//   efficiencies multiplied by it (capped at 1); the device gap becomes the measured idle time per
//   step and rank / kernels per step (at most the runtime profile's), and an eager runtime's host
//   time per launch the value in [0, step / kernels] whose simulation has the measured step (the
//   host cost per op of that machine, by bisection). The fitted parameters are checked by
//   simulating the same configuration and analysing it the same way.
// Cost: O(calls) for the samples; one simulation of `tokens` steps for the kernel check.

#include <string>
#include <vector>

#include "core/analysis/analysis.h"
#include "core/sim/calibration_data.h"
#include "core/sim/simulator.h"

namespace tpscope::core::sim {

struct TraceSamples {
    std::vector<AllReduceSample> samples;
    std::size_t allReduceCalls = 0;
    std::size_t unsized = 0;       // no message size: skipped
    std::size_t incomplete = 0;    // not joined by every rank of the channel: skipped
    std::size_t zeroTransfer = 0;  // transfer 0 (clock skew): skipped
    std::vector<std::string> notes;
};

TraceSamples allReduceSamples(const Trace& trace, const analysis::CollectiveMatching& matching);

struct KernelClassFit {
    EventKind kind = EventKind::Other;
    double measuredNsPerStep = 0;  // busy time per step and rank in the trace
    double modelNsPerStep = 0;     // the plan's kernels with the starting parameters
    double scale = 1;              // applied to both efficiencies
    KernelEfficiency fitted;
};

struct KernelCalibration {
    SimParams params;  // the starting parameters with the fitted efficiencies and host costs
    std::vector<KernelClassFit> classes;
    double measuredStepNs = 0;   // mean step latency of the trace
    double predictedStepNs = 0;  // of the simulation with the fitted parameters
    std::vector<std::string> notes;
};

// `config` describes the measured run (model, TP = the trace's ranks, batch, context, dtype, GPU,
// fabric); its params are the starting point.
Result<KernelCalibration> calibrateKernels(const Trace& trace, const analysis::RunAnalysis& analysis,
                                           const SimConfig& config);

}  // namespace tpscope::core::sim
