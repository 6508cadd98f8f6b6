// tpscope-cli allreduce: the collective model's prediction for one all-reduce per message size,
// in nccl-tests' columns (size, count, type, time, algbw, busbw) so it can be held against a real
// all_reduce_perf run on the same fabric.

#include <iostream>

#include "cli_context.h"
#include "core/sim/collective_model.h"
#include "core/util/json_writer.h"
#include "core/util/units.h"
#include "sim_options.h"
#include "text_table.h"

#ifdef TPSCOPE_HAVE_CUDA
#include "gpu/allreduce_measure.h"
#endif

namespace tpscope::cli {

namespace {

struct AllReduceOptions {
    ClusterOptions cluster;
    int gpus = 8;
    std::string sizes = "8,16,...,1G";
    std::string dtype = "fp16";
    std::string algo;
    std::string proto;
    bool measure = false;
    int iterations = 20;
    bool json = false;
};

// "8,1K,64M" or a geometric run "8,16,...,1G" (the ratio of the two sizes before "...", up to the
// size after it, which is always included).
core::Result<std::vector<std::uint64_t>> parseSizes(const std::string& text) {
    const auto dots = text.find("...");
    if (dots == std::string::npos) return core::parseByteSizeList(text);
    const auto badRun = core::makeError(core::ErrorCode::InvalidArgument,
                                        "a run is written 'first,second,...,last' with second > first", "--sizes");
    std::string head = text.substr(0, dots);
    std::string tail = text.substr(dots + 3);
    if (head.empty() || head.back() != ',' || tail.empty() || tail.front() != ',') return badRun;
    head.pop_back();
    tail.erase(0, 1);
    auto first = core::parseByteSizeList(head);
    if (!first) return first.error();
    auto last = core::parseByteSize(tail);
    if (!last) return last.error();
    auto sizes = *first;
    if (sizes.size() < 2 || sizes[sizes.size() - 2] == 0 || sizes.back() <= sizes[sizes.size() - 2]) return badRun;
    const double ratio = static_cast<double>(sizes.back()) / static_cast<double>(sizes[sizes.size() - 2]);
    for (double next = static_cast<double>(sizes.back()) * ratio; next < static_cast<double>(*last); next *= ratio) {
        sizes.push_back(static_cast<std::uint64_t>(next));
        if (sizes.size() > 4096) return badRun;
    }
    if (sizes.back() != *last) sizes.push_back(*last);
    return sizes;
}

// --measure: real NCCL all-reduces on local GPUs, printed in the same columns as the prediction.
int runMeasured(const AllReduceOptions& o, const std::vector<std::uint64_t>& sizes, core::Dtype dtype) {
#ifdef TPSCOPE_HAVE_CUDA
    gpu::MeasuredAllReduceOptions m;
    m.gpus = o.gpus;
    m.sizesBytes = sizes;
    m.dtype = dtype;
    m.iterations = o.iterations;
    auto rows = gpu::runMeasuredAllReduce(m);
    if (!rows) return reportError(rows.error());
    if (o.json) {
        core::JsonWriter w(std::cout);
        w.beginObject().field("measured", true).field("gpus", o.gpus).field("dtype", core::toString(dtype));
        w.key("rows").beginArray();
        for (const auto& r : *rows) {
            w.beginObject().field("bytes", r.bytes).field("count", r.count).field("time_us", r.timeUs);
            w.field("algbw_gbps", r.algbwGBs).field("busbw_gbps", r.busbwGBs).endObject();
        }
        w.endArray().endObject();
        return kExitOk;
    }
    std::cout << "# measured all-reduce, " << o.gpus << " local GPUs, out of place, median of " << o.iterations
              << " iterations" << (o.gpus == 1 ? " (one GPU: a copy; busbw is 0 by definition)" : "") << "\n";
    TextTable t({"size (B)", "count", "type", "redop", "time (us)", "algbw (GB/s)", "busbw (GB/s)"});
    for (const auto& r : *rows) {
        t.addRow({std::to_string(r.bytes), std::to_string(r.count), std::string(core::toString(r.dtype)), "sum",
                  core::formatFixed(r.timeUs, 2), core::formatFixed(r.algbwGBs, 2), core::formatFixed(r.busbwGBs, 2)});
    }
    t.print(std::cout);
    return kExitOk;
#else
    (void)o;
    (void)sizes;
    (void)dtype;
    return reportError(core::makeError(core::ErrorCode::DeviceError,
                                       "no CUDA device: this tpscope-cli was built without the GPU backend "
                                       "(TPSCOPE_WITH_CUDA=OFF or CUDA/NCCL/CUPTI not found)",
                                       "--measure"));
#endif
}

int run(const AllReduceOptions& o, const CliContext& ctx) {
    if (o.measure) {
        auto sizes = parseSizes(o.sizes);
        if (!sizes) return reportError(sizes.error());
        auto dtype = resolveDtype(o.dtype);
        if (!dtype) return reportError(dtype.error());
        if (o.gpus < 1) {
            return reportError(core::makeError(core::ErrorCode::InvalidArgument, "must be at least 1", "--gpus"));
        }
        return runMeasured(o, *sizes, *dtype);
    }
    auto catalog = ctx.catalog();
    if (!catalog) return reportError(catalog.error());
    auto cluster = resolveCluster(*catalog, o.cluster);
    if (!cluster) return reportError(cluster.error());
    if (o.gpus < 1)
        return reportError(core::makeError(core::ErrorCode::InvalidArgument, "must be at least 1", "--gpus"));
    // --gpus N over --nodes K: N/K per node unless --gpus-per-node says otherwise.
    int gpusPerNode = o.cluster.gpusPerNode;
    if (gpusPerNode == 0) {
        if (o.gpus % cluster->nodes != 0) {
            return reportError(core::makeError(
                core::ErrorCode::InvalidArgument,
                std::to_string(o.gpus) + " GPUs do not split evenly over " + std::to_string(cluster->nodes) + " nodes",
                "--gpus"));
        }
        gpusPerNode = o.gpus / cluster->nodes;
    }
    if (o.gpus > gpusPerNode * cluster->nodes) {
        return reportError(core::makeError(
            core::ErrorCode::InvalidArgument,
            std::to_string(o.gpus) + " GPUs requested; the cluster has " + std::to_string(gpusPerNode * cluster->nodes),
            "--gpus"));
    }
    auto model = core::sim::CollectiveModel::create(cluster->intraFabric, cluster->interFabric, o.gpus, gpusPerNode);
    if (!model) return reportError(model.error());
    auto sizes = parseSizes(o.sizes);
    if (!sizes) return reportError(sizes.error());
    auto dtype = resolveDtype(o.dtype);
    if (!dtype) return reportError(dtype.error());
    std::optional<core::CollectiveAlgo> algo;
    std::optional<core::CollectiveProto> proto;
    if (!o.algo.empty() && !(algo = core::parseCollectiveAlgo(o.algo))) {
        return reportError(
            core::makeError(core::ErrorCode::InvalidArgument, "unknown algorithm '" + o.algo + "'", "--algo"));
    }
    if (!o.proto.empty() && !(proto = core::parseCollectiveProto(o.proto))) {
        return reportError(
            core::makeError(core::ErrorCode::InvalidArgument, "unknown protocol '" + o.proto + "'", "--proto"));
    }
    const int elementBytes = core::dtypeBytes(*dtype);
    struct Row {
        std::uint64_t bytes;
        core::sim::CollectiveEstimate e;
    };
    std::vector<Row> rows;
    for (const auto bytes : *sizes) {
        core::sim::CollectiveEstimate e;
        if (algo || proto) {
            const auto a = algo.value_or(core::CollectiveAlgo::Ring);
            const bool custom = a == core::CollectiveAlgo::OneShot || a == core::CollectiveAlgo::TwoShot;
            e = model->allReduce(
                bytes, a, proto.value_or(custom ? core::CollectiveProto::Unknown : core::CollectiveProto::Simple));
            if (!e.valid()) {
                return reportError(core::makeError(core::ErrorCode::InvalidArgument,
                                                   "this fabric and topology do not offer that algorithm/protocol",
                                                   "--algo/--proto"));
            }
        } else {
            e = model->allReduce(bytes);
        }
        rows.push_back({bytes, e});
    }
    if (o.json) {
        core::JsonWriter w(std::cout);
        w.beginObject().field("fabric", cluster->intraFabric.id);
        w.field("inter_fabric", cluster->interFabric ? cluster->interFabric->id : std::string());
        w.field("gpus", o.gpus).field("nodes", model->nodes()).field("gpus_per_node", model->gpusPerNode());
        w.field("dtype", core::toString(*dtype)).key("rows").beginArray();
        for (const auto& r : rows) {
            const double t = r.e.timeNs();
            w.beginObject().field("bytes", r.bytes).field("count", r.bytes / static_cast<std::uint64_t>(elementBytes));
            w.field("time_us", t / 1e3).field("algbw_gbps", core::sim::algbw(r.bytes, t) / 1e9);
            w.field("busbw_gbps", core::sim::allReduceBusbw(r.bytes, t, o.gpus) / 1e9);
            w.field("algo", core::toString(r.e.algo)).field("proto", core::toString(r.e.proto));
            w.field("latency_us", r.e.latencyNs / 1e3).field("bandwidth_us", r.e.bandwidthNs / 1e3).endObject();
        }
        w.endArray().endObject();
        return kExitOk;
    }
    std::cout << "# predicted all-reduce, " << o.gpus << " GPUs (" << model->nodes() << " x " << model->gpusPerNode()
              << ") over " << cluster->intraFabric.id
              << (cluster->interFabric ? " + " + cluster->interFabric->id : std::string()) << "\n";
    TextTable t({"size (B)", "count", "type", "redop", "time (us)", "algbw (GB/s)", "busbw (GB/s)", "algo", "proto"});
    for (const auto& r : rows) {
        const double ns = r.e.timeNs();
        t.addRow({std::to_string(r.bytes), std::to_string(r.bytes / static_cast<std::uint64_t>(elementBytes)),
                  std::string(core::toString(*dtype)), "sum", core::formatFixed(ns / 1e3, 2),
                  core::formatFixed(core::sim::algbw(r.bytes, ns) / 1e9, 2),
                  core::formatFixed(core::sim::allReduceBusbw(r.bytes, ns, o.gpus) / 1e9, 2),
                  std::string(core::toString(r.e.algo)), std::string(core::toString(r.e.proto))});
    }
    t.print(std::cout);
    return kExitOk;
}

}  // namespace

void addAllReduceCommand(CLI::App& app, CliContext& ctx) {
    auto opts = std::make_shared<AllReduceOptions>();
    auto* cmd = app.add_subcommand("allreduce", "Predicted all-reduce time per message size, in nccl-tests' columns");
    addClusterOptions(*cmd, opts->cluster);
    cmd->add_option("--gpus", opts->gpus, "GPUs in the all-reduce (over all nodes)")->capture_default_str();
    cmd->add_option("--sizes", opts->sizes, "Message sizes: 8,1K,64M or a run 8,16,...,1G")->capture_default_str();
    cmd->add_option("--dtype", opts->dtype, "Element type (for the count column)")->capture_default_str();
    cmd->add_option("--algo", opts->algo, "Force an algorithm: ring, tree, nvls, one_shot, two_shot");
    cmd->add_option("--proto", opts->proto, "Force a protocol: ll, ll128, simple");
    cmd->add_flag("--measure", opts->measure, "Run real NCCL all-reduces on the local GPUs instead of predicting");
    cmd->add_option("--iterations", opts->iterations, "--measure: timed iterations per size (median)")
        ->capture_default_str();
    cmd->add_flag("--json", opts->json, "Machine-readable output (docs/cli.md)");
    cmd->callback([opts, &ctx] { ctx.exitCode = run(*opts, ctx); });
}

}  // namespace tpscope::cli
