#include "sim_options.h"

#include "core/sim/allreduce_engine.h"

namespace tpscope::cli {

void addClusterOptions(CLI::App& cmd, ClusterOptions& opts) {
    cmd.add_option("--gpu", opts.gpu, "GPU preset (see 'tpscope-cli hardware')")->capture_default_str();
    cmd.add_option("--fabric", opts.fabric, "Intra-node fabric preset")->capture_default_str();
    cmd.add_option("--nodes", opts.nodes, "Nodes in the cluster")->capture_default_str();
    cmd.add_option("--gpus-per-node", opts.gpusPerNode, "GPUs per node (default: what the fabric connects, else 8)");
    cmd.add_option("--inter-node-fabric,--inter-fabric", opts.interFabric,
                   "Inter-node fabric preset (needed with --nodes > 1)");
}

core::Result<core::sim::ClusterSpec> resolveCluster(const core::Catalog& catalog, const ClusterOptions& opts) {
    core::sim::ClusterSpec c;
    TPSCOPE_TRY_ASSIGN(c.gpu, catalog.gpu(opts.gpu));
    TPSCOPE_TRY_ASSIGN(c.intraFabric, catalog.fabric(opts.fabric));
    if (!opts.interFabric.empty()) {
        auto inter = catalog.fabric(opts.interFabric);
        if (!inter) return inter.error();
        c.interFabric = *inter;
    }
    if (opts.nodes < 1) return core::makeError(core::ErrorCode::InvalidArgument, "must be at least 1", "--nodes");
    if (opts.nodes > 1 && !c.interFabric) {
        return core::makeError(core::ErrorCode::InvalidArgument,
                               "several nodes need an inter-node fabric (e.g. --inter-node-fabric ib-ndr)", "--nodes");
    }
    if (opts.gpusPerNode < 0 || opts.gpusPerNode > 4096) {
        return core::makeError(core::ErrorCode::InvalidArgument, "must lie in 1..4096", "--gpus-per-node");
    }
    c.nodes = opts.nodes;
    c.gpusPerNode = opts.gpusPerNode > 0 ? opts.gpusPerNode : (c.intraFabric.maxGpus > 0 ? c.intraFabric.maxGpus : 8);
    return c;
}

void addSimTunables(CLI::App& cmd, SimTunables& opts) {
    cmd.add_option("--seed", opts.seed, "Random seed of jitter and load imbalance")->capture_default_str();
    cmd.add_option("--jitter", opts.jitter, "Relative std dev of each kernel's duration (default 0.03)");
    cmd.add_option("--imbalance", opts.imbalance, "Relative std dev of each rank's speed (default 0.01)");
    cmd.add_option("--step-gap-us", opts.stepGapUs, "Host time between decode steps in us (default 20)");
    cmd.add_flag("--overlap", opts.overlap, "Async all-reduce on a second stream, batch split in two halves");
    cmd.add_flag("--cuda-graphs", opts.cudaGraphs,
                 "Replay each step as a CUDA graph: node-to-node gaps, no host launches");
    cmd.add_option("--allreduce", opts.allReduceEngine,
                   "Who runs the all-reduces: nccl, vllm-custom-ar, trtllm or symm-mem (docs/simulator.md)")
        ->capture_default_str();
    cmd.add_flag("--deterministic", opts.deterministic, "No jitter, imbalance or launch noise");
}

core::Result<core::sim::SimParams> resolveSimParams(const SimTunables& o) {
    core::sim::SimParams p = o.deterministic ? core::sim::SimParams::deterministic() : core::sim::SimParams{};
    auto check = [](double v, double max, const char* name) -> core::Status {
        if (v > max) return core::makeError(core::ErrorCode::InvalidArgument, "too large", name);
        return core::Ok{};
    };
    TPSCOPE_TRY(check(o.jitter, 1.0, "--jitter"));
    TPSCOPE_TRY(check(o.imbalance, 0.5, "--imbalance"));
    TPSCOPE_TRY(check(o.stepGapUs, 1e6, "--step-gap-us"));
    if (o.jitter >= 0) p.jitter = o.jitter;
    if (o.imbalance >= 0) p.loadImbalance = o.imbalance;
    if (o.stepGapUs >= 0) p.stepGapNs = o.stepGapUs * 1e3;
    p.seed = o.seed;
    p.overlap = o.overlap;
    p.cudaGraphs = o.cudaGraphs;
    const auto engine = core::sim::parseAllReduceEngine(o.allReduceEngine);
    if (!engine) {
        return core::makeError(core::ErrorCode::InvalidArgument,
                               "unknown engine '" + o.allReduceEngine + "': nccl, vllm-custom-ar, trtllm or symm-mem",
                               "--allreduce");
    }
    p.allReduceEngine = *engine;
    return p;
}

}  // namespace tpscope::cli
