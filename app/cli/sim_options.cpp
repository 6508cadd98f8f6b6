// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "sim_options.h"

#include <algorithm>

#include "cli_context.h"
#include "core/sim/allreduce_engine.h"
#include "core/sim/kernel_fit_file.h"
#include "core/util/units.h"

namespace tpscope::cli {

void addClusterOptions(CLI::App& cmd, ClusterOptions& opts, bool withGpu) {
    opts.withGpu = withGpu;
    if (withGpu) cmd.add_option("--gpu", opts.gpu, "GPU preset (see 'tpscope-cli hardware')")->capture_default_str();
    cmd.add_option("--fabric", opts.fabric, "Intra-node fabric preset")->capture_default_str();
    cmd.add_option("--nodes", opts.nodes, "Nodes in the cluster")->capture_default_str()->check(positiveNumber());
    cmd.add_option("--gpus-per-node", opts.gpusPerNode, "GPUs per node (default: what the fabric connects, else 8)")
        ->check(positiveNumber());
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
    if (opts.withGpu) warnUnusualCombination(c);
    return c;
}

void addSimTunables(CLI::App& cmd, SimTunables& opts) {
    cmd.add_option("--seed", opts.seed, "Random seed of jitter and load imbalance")->capture_default_str();
    cmd.add_option("--jitter", opts.jitter, "Relative std dev of each kernel's duration (default 0.03)");
    cmd.add_option("--imbalance", opts.imbalance, "Relative std dev of each rank's speed (default 0.01)");
    cmd.add_option("--step-gap-us", opts.stepGapUs,
                   "Host time between decode steps in us (default: the runtime profile's)");
    cmd.add_flag("--overlap", opts.overlap, "Async all-reduce on a second stream, batch split in two halves");
    cmd.add_option("--runtime", opts.runtime,
                   "Host runtime launching the kernels: pytorch-eager, cpp-runtime or cuda-graphs "
                   "(resources/runtime_profiles.json)")
        ->capture_default_str();
    cmd.add_flag("--cuda-graphs", opts.cudaGraphs,
                 "Alias of --runtime cuda-graphs: one graph launch per step, node-to-node gaps");
    cmd.add_option("--allreduce", opts.allReduceEngine,
                   "Who runs the all-reduces: nccl, vllm-custom-ar, trtllm or symm-mem (docs/simulator.md)")
        ->capture_default_str();
    cmd.add_flag("--deterministic", opts.deterministic, "No jitter, imbalance or launch noise");
}

core::Result<core::sim::SimParams> resolveSimParams(const SimTunables& o) {
    core::sim::SimParams p = o.deterministic ? core::sim::SimParams::deterministic() : core::sim::SimParams{};
    // Refused, never clamped or replaced by the default: a negative spread or gap has no meaning.
    auto check = [](const std::optional<double>& v, double max, const char* name) -> core::Status {
        if (v && !(*v >= 0 && *v <= max)) {
            return core::makeError(core::ErrorCode::InvalidArgument,
                                   "must lie in 0.." + core::formatFixed(max, 1) + ", got " + core::formatFixed(*v, 3),
                                   name);
        }
        return core::Ok{};
    };
    TPSCOPE_TRY(check(o.jitter, 1.0, "--jitter"));
    TPSCOPE_TRY(check(o.imbalance, 0.5, "--imbalance"));
    TPSCOPE_TRY(check(o.stepGapUs, 1e6, "--step-gap-us"));
    if (o.jitter) p.jitter = *o.jitter;
    if (o.imbalance) p.loadImbalance = *o.imbalance;
    if (o.stepGapUs) p.stepHostNs = *o.stepGapUs * 1e3;
    p.seed = o.seed;
    p.overlap = o.overlap;
    p.setRuntime(core::sim::kDefaults.runtime);
    if (!o.runtime.empty()) {
        const auto runtime = core::sim::parseRuntime(o.runtime);
        if (!runtime) {
            return core::makeError(core::ErrorCode::InvalidArgument,
                                   "unknown runtime '" + o.runtime + "': pytorch-eager, cpp-runtime or cuda-graphs",
                                   "--runtime");
        }
        if (o.cudaGraphs && *runtime != core::sim::Runtime::CudaGraphs) {
            return core::makeError(core::ErrorCode::InvalidArgument,
                                   "--cuda-graphs is --runtime cuda-graphs; it contradicts --runtime " + o.runtime,
                                   "--cuda-graphs");
        }
        p.setRuntime(*runtime);
    }
    if (o.cudaGraphs) p.setRuntime(core::sim::Runtime::CudaGraphs);
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

namespace tpscope::cli {

namespace {

// The fabrics each built-in GPU ships with (HGX boards, PCIe cards with or without a bridge).
struct UsualFabrics {
    const char* gpu;
    std::vector<std::string> fabrics;
};
const std::vector<UsualFabrics>& usualFabrics() {
    static const std::vector<UsualFabrics> table{
        {"a100-sxm", {"nvlink3"}},
        {"a100-sxm-40gb", {"nvlink3"}},
        {"a100-pcie", {"pcie4", "nvlink3-pair"}},
        {"h100-sxm", {"nvlink4", "nvls"}},
        {"h100-pcie", {"pcie5", "nvlink4-pair"}},
        {"h200-sxm", {"nvlink4", "nvls"}},
        {"b200", {"nvlink5"}},
        {"b300", {"nvlink5"}},
        {"gb200", {"nvl72"}},
        {"h20", {"nvlink4", "nvls"}},
        {"l40s", {"pcie4"}},
    };
    return table;
}

}  // namespace

void warnUnusualCombination(const core::sim::ClusterSpec& cluster) {
    const auto& table = usualFabrics();
    const auto gpu = std::find_if(table.begin(), table.end(), [&](const auto& u) { return cluster.gpu.id == u.gpu; });
    if (gpu == table.end()) return;
    const bool knownFabric = std::any_of(table.begin(), table.end(), [&](const auto& u) {
        return std::find(u.fabrics.begin(), u.fabrics.end(), cluster.intraFabric.id) != u.fabrics.end();
    });
    const bool usual =
        std::find(gpu->fabrics.begin(), gpu->fabrics.end(), cluster.intraFabric.id) != gpu->fabrics.end();
    if (!knownFabric || usual) return;  // a calibrated fabric of the user's own box is never questioned
    std::string list;
    for (const auto& f : gpu->fabrics) list += (list.empty() ? "" : " or ") + f;
    warn("no " + cluster.gpu.id + " system ships with " + cluster.intraFabric.id + "; its usual fabric is " + list +
         " (simulating the hypothetical anyway)");
}

void addPrecisionOptions(CLI::App& cmd, PrecisionOptions& opts) {
    cmd.add_option("--weights", opts.weights, "Weight dtype when it differs from --dtype: fp8 (Hopper, Blackwell)");
    cmd.add_option("--kv-cache", opts.kvCache, "KV-cache dtype when it differs from --dtype: fp8");
    cmd.add_option("--moe-parallel", opts.moeParallel,
                   "MoE experts: tp (each rank 1/tp of every expert) or ep (whole experts, all-to-all)")
        ->capture_default_str();
}

core::Status applyPrecision(const PrecisionOptions& opts, std::optional<core::Dtype>& weights,
                            std::optional<core::Dtype>& kvCache) {
    auto one = [](const std::string& text, const char* flag, std::optional<core::Dtype>& out) -> core::Status {
        if (text.empty()) return core::Ok{};
        auto d = resolveDtype(text);
        if (!d) return core::makeError(core::ErrorCode::InvalidArgument, d.error().message, flag);
        out = *d;
        return core::Ok{};
    };
    TPSCOPE_TRY(one(opts.weights, "--weights", weights));
    TPSCOPE_TRY(one(opts.kvCache, "--kv-cache", kvCache));
    return core::Ok{};
}

core::Result<core::MoeParallel> resolveMoeParallel(const PrecisionOptions& opts) {
    const auto mode = core::parseMoeParallel(opts.moeParallel);
    if (!mode) {
        return core::makeError(core::ErrorCode::InvalidArgument, "takes tp or ep, got '" + opts.moeParallel + "'",
                               "--moe-parallel");
    }
    return *mode;
}

core::Result<core::sim::SweepSpec> resolveSweepSpec(const core::Catalog& catalog, const SweepOptions& opts) {
    core::sim::SweepSpec spec;
    TPSCOPE_TRY_ASSIGN(spec.model, resolveModel(catalog, opts.model));
    TPSCOPE_TRY_ASSIGN(spec.cluster, resolveCluster(catalog, opts.cluster));
    TPSCOPE_TRY_ASSIGN(spec.tps, core::parsePositiveIntList(opts.tps, "--tp"));
    TPSCOPE_TRY_ASSIGN(spec.batches, core::parsePositiveIntList(opts.batches, "--batch"));
    TPSCOPE_TRY_ASSIGN(spec.dtype, resolveDtype(opts.dtype));
    TPSCOPE_TRY_ASSIGN(spec.params, resolveSimParams(opts.tunables));
    TPSCOPE_TRY(applyPrecision(opts.precision, spec.weightDtype, spec.kvDtype));
    TPSCOPE_TRY_ASSIGN(spec.moeParallel, resolveMoeParallel(opts.precision));
    spec.vocabParallel = !opts.replicateVocab;
    spec.tokens = opts.tokens;
    if (!opts.kernelFit.empty()) {
        core::sim::KernelFit fit;
        TPSCOPE_TRY_ASSIGN(fit, core::sim::loadKernelFit(opts.kernelFit));
        TPSCOPE_TRY(core::sim::applyKernelFit(fit, spec.cluster.gpu.id, spec.params));
        // Efficiencies depend on the kernels' shapes: another model's fit is an extrapolation.
        if (!fit.modelId.empty() && fit.modelId != spec.model.id) {
            warn("the kernel efficiencies of " + opts.kernelFit + " were fitted on " + fit.modelId + ", not " +
                 spec.model.id);
        }
    }
    return spec;
}

}  // namespace tpscope::cli
