// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Command-line options shared by the simulator commands (simulate, plan-capacity, allreduce,
// calibrate): which GPU, which fabrics, how many nodes, the simulator tunables, and the sweep a
// sweep command runs.

#include <CLI/CLI.hpp>

#include <optional>
#include <string>

#include "cli_context.h"
#include "core/hw/catalog.h"
#include "core/sim/defaults.h"
#include "core/sim/simulator.h"
#include "core/sim/sweep.h"

namespace tpscope::cli {

struct ClusterOptions {
    std::string gpu{core::sim::kDefaults.gpu};  // the one table of defaults (core/sim/defaults.h)
    std::string fabric{core::sim::kDefaults.fabric};
    std::string interFabric;
    int nodes = 1;
    int gpusPerNode = 0;  // 0: the fabric's max_gpus, else 8
    bool withGpu = true;  // false when the command offers no --gpu (see addClusterOptions)
};
// withGpu false: the command's model does not depend on the GPU (allreduce), so it offers no --gpu.
void addClusterOptions(CLI::App& cmd, ClusterOptions& opts, bool withGpu = true);
// Catalog combinations that do not exist as products (an L40S on NVLink 4, an H100 SXM on PCIe 4)
// are allowed, since users model hypotheticals, but earn a warning naming the usual fabric.
void warnUnusualCombination(const core::sim::ClusterSpec& cluster);
// Also warns about unusual GPU/fabric combinations (warnUnusualCombination).
core::Result<core::sim::ClusterSpec> resolveCluster(const core::Catalog& catalog, const ClusterOptions& opts);

struct SimTunables {
    std::uint64_t seed = core::sim::kDefaults.seed;
    std::optional<double> jitter;  // unset: the simulator's default
    std::optional<double> imbalance;
    std::optional<double> stepGapUs;
    bool overlap = false;
    bool cudaGraphs = false;  // --cuda-graphs: alias of --runtime cuda-graphs
    std::string runtime{core::sim::toString(core::sim::kDefaults.runtime)};
    std::string allReduceEngine = "nccl";
    bool deterministic = false;
};
void addSimTunables(CLI::App& cmd, SimTunables& opts);
core::Result<core::sim::SimParams> resolveSimParams(const SimTunables& opts);

// --weights fp8 and --kv-cache fp8 (Hopper/Blackwell serving): the weights' and the KV cache's
// dtype when they differ from --dtype; the all-reduces stay in --dtype.
struct PrecisionOptions {
    std::string weights;
    std::string kvCache;
    std::string moeParallel = "tp";  // --moe-parallel: how MoE experts are split (sweep commands)
};
void addPrecisionOptions(CLI::App& cmd, PrecisionOptions& opts);
core::Status applyPrecision(const PrecisionOptions& opts, std::optional<core::Dtype>& weights,
                            std::optional<core::Dtype>& kvCache);
core::Result<core::MoeParallel> resolveMoeParallel(const PrecisionOptions& opts);

// What the sweep commands (simulate, plan-capacity) share; each registers the options with its own
// defaults and help, and sets the context axis itself (a list in simulate, one value in plan-capacity).
struct SweepOptions {
    ModelOptions model;
    ClusterOptions cluster;
    SimTunables tunables;
    PrecisionOptions precision;
    std::string tps = "1,2,4,8";
    std::string batches = "1";
    int tokens = core::sim::kDefaults.tokens;
    std::string dtype = "fp16";
    std::string kernelFit;  // --kernel-fit FILE (simulate): `calibrate --kernels --json` output
    bool replicateVocab = false;  // --replicate-vocab (simulate): PlanConfig::vocabParallel = false
};
// Model, cluster, TP and batch lists, tokens, dtypes and simulator parameters, with the kernel fit
// applied when one is given (core/sim/kernel_fit_file.h); the first bad option is the error.
core::Result<core::sim::SweepSpec> resolveSweepSpec(const core::Catalog& catalog, const SweepOptions& opts);

}  // namespace tpscope::cli
