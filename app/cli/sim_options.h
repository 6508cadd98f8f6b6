#pragma once
// Command-line options shared by the simulator commands (simulate, allreduce, calibrate): which
// GPU, which fabrics, how many nodes, and the simulator tunables.

#include <CLI/CLI.hpp>

#include <optional>
#include <string>

#include "core/hw/catalog.h"
#include "core/sim/simulator.h"

namespace tpscope::cli {

struct ClusterOptions {
    std::string gpu = "h100-sxm";
    std::string fabric = "nvlink4";
    std::string interFabric;
    int nodes = 1;
    int gpusPerNode = 0;  // 0: the fabric's max_gpus, else 8
};
void addClusterOptions(CLI::App& cmd, ClusterOptions& opts);
core::Result<core::sim::ClusterSpec> resolveCluster(const core::Catalog& catalog, const ClusterOptions& opts);

struct SimTunables {
    std::uint64_t seed = 1;
    double jitter = -1;  // < 0: the default
    double imbalance = -1;
    double stepGapUs = -1;
    bool overlap = false;
    bool cudaGraphs = false;
    std::string allReduceEngine = "nccl";
    bool deterministic = false;
};
void addSimTunables(CLI::App& cmd, SimTunables& opts);
core::Result<core::sim::SimParams> resolveSimParams(const SimTunables& opts);

}  // namespace tpscope::cli
