// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Calibration of a fabric's collective-model parameters against measured all-reduce times
// (core/sim/calibration_data.h), and the error report of any fabric against such measurements.
//
// Fitted, in log space so every value stays positive: LL base latency, LL per-step latency, the
// bus bandwidth, LL128 per-step latency, Simple base and per-step latency. The protocols'
// bandwidth fractions stay at their physical values (LL 1/2, LL128 120/128, Simple 1). For an
// inter-node fabric the intra-node fabric is held fixed and only the network's parameters move.
// Objective: the weighted mean of a Huber loss on log(predicted / measured); each sample is
// weighted by 1 / (samples of its communicator size in its octave of message size), so that every
// size octave counts the same however densely it was measured. Minimised by Nelder-Mead with
// restarts. Cost: O(iterations x samples); a few seconds for the Vidur CSVs.

#include <optional>
#include <string>
#include <vector>

#include "core/hw/gpu_spec.h"
#include "core/sim/calibration_data.h"
#include "core/util/result.h"

namespace tpscope::core::sim {

struct ErrorStats {
    std::string label;
    std::uint64_t minBytes = 0;  // inclusive
    std::uint64_t maxBytes = 0;  // inclusive
    int samples = 0;
    double medianAbsError = 0;  // median |predicted / measured - 1|
    double p90AbsError = 0;
    double meanSignedError = 0;  // mean (predicted / measured - 1): > 0 when the model is slow
};

struct CalibrationReport {
    std::vector<ErrorStats> bands;  // <= 64 KiB, 64 KiB - 1 MiB, 1 - 16 MiB, > 16 MiB
    ErrorStats overall;
    struct Config {
        int ranks = 0;
        int nodes = 0;
        ErrorStats all;
        std::vector<ErrorStats> bands;
    };
    std::vector<Config> configs;  // per (ranks, nodes), sorted
};

enum class CalibrationTarget { IntraNode, InterNode };

struct CalibrationOptions {
    CalibrationTarget target = CalibrationTarget::IntraNode;
    FabricSpec start;                 // initial guess; its link bandwidth, algorithms, max GPUs, through_cpu are kept
    std::optional<FabricSpec> intra;  // InterNode: the fixed intra-node fabric
    std::vector<int> ranks;           // keep only these communicator sizes (empty: all)
    std::string sourceNote;           // written into the fitted fabric's "sources"
    int restarts = 3;
    int maxIterations = 2500;
};

struct CalibrationResult {
    FabricSpec fabric;
    CalibrationReport report;
    std::size_t samples = 0;
    double objective = 0;
};

// Samples one target can be fitted on: single-node ones for IntraNode, multi-node for InterNode.
std::vector<AllReduceSample> selectSamples(const std::vector<AllReduceSample>& samples, CalibrationTarget target,
                                           const std::vector<int>& ranks);

// The error of the collective model with these fabrics against the samples. A sample launched by
// one host thread on g GPUs (AllReduceSample::gpusPerThread) is compared with the model plus
// (g - 1) x launchIntervalNs: its kernels start one launch apart (nccl-tests -g g).
Result<CalibrationReport> evaluateFabric(const std::vector<AllReduceSample>& samples, const FabricSpec& intra,
                                         const std::optional<FabricSpec>& inter, double launchIntervalNs = 0);

Result<CalibrationResult> calibrateFabric(const std::vector<AllReduceSample>& samples,
                                          const CalibrationOptions& options);

}  // namespace tpscope::core::sim
