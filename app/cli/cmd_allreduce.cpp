// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
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
    std::cout << "# measured all-reduce, " << o.gpus << " local GPUs, out of place, " << o.iterations
              << " back to back between one event pair per sample, median of " << gpu::kAllReduceSamples << " samples"
              << (o.gpus == 1 ? " (one GPU: a copy; busbw is 0 by definition)" : "") << "\n";
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

// The prediction's inputs, checked: parse -> compute (predictRows) -> print.
struct Prediction {
    core::sim::ClusterSpec cluster;
    int gpusPerNode = 0;
    std::vector<std::uint64_t> sizes;
    core::Dtype dtype = core::Dtype::Fp16;
    std::optional<core::CollectiveAlgo> algo;
    std::optional<core::CollectiveProto> proto;
};

struct PredictedRow {
    std::uint64_t bytes;
    core::sim::CollectiveEstimate e;
};

core::Result<Prediction> parsePrediction(const AllReduceOptions& o, const core::Catalog& catalog) {
    Prediction p;
    TPSCOPE_TRY_ASSIGN(p.cluster, resolveCluster(catalog, o.cluster));
    if (o.gpus < 1) return core::makeError(core::ErrorCode::InvalidArgument, "must be at least 1", "--gpus");
    // --gpus N over --nodes K: N/K per node unless --gpus-per-node says otherwise.
    p.gpusPerNode = o.cluster.gpusPerNode;
    if (p.gpusPerNode == 0) {
        if (o.gpus % p.cluster.nodes != 0) {
            return core::makeError(
                core::ErrorCode::InvalidArgument,
                std::to_string(o.gpus) + " GPUs do not split evenly over " + countText(p.cluster.nodes, "node"),
                "--gpus");
        }
        p.gpusPerNode = o.gpus / p.cluster.nodes;
    }
    if (o.gpus > p.gpusPerNode * p.cluster.nodes) {
        return core::makeError(core::ErrorCode::InvalidArgument,
                               std::to_string(o.gpus) + " GPUs requested; the cluster has " +
                                   std::to_string(p.gpusPerNode * p.cluster.nodes),
                               "--gpus");
    }
    TPSCOPE_TRY_ASSIGN(p.sizes, parseSizes(o.sizes));
    TPSCOPE_TRY_ASSIGN(p.dtype, resolveDtype(o.dtype));
    if (!o.algo.empty() && !(p.algo = core::parseCollectiveAlgo(o.algo))) {
        return core::makeError(core::ErrorCode::InvalidArgument, "unknown algorithm '" + o.algo + "'", "--algo");
    }
    if (!o.proto.empty() && !(p.proto = core::parseCollectiveProto(o.proto))) {
        return core::makeError(core::ErrorCode::InvalidArgument, "unknown protocol '" + o.proto + "'", "--proto");
    }
    return p;
}

core::Result<std::vector<PredictedRow>> predictRows(const core::sim::CollectiveModel& model, const Prediction& p) {
    std::vector<PredictedRow> rows;
    for (const auto bytes : p.sizes) {
        core::sim::CollectiveEstimate e;
        if (p.algo || p.proto) {
            const auto a = p.algo.value_or(core::CollectiveAlgo::Ring);
            const bool custom = a == core::CollectiveAlgo::OneShot || a == core::CollectiveAlgo::TwoShot;
            e = model.allReduce(
                bytes, a, p.proto.value_or(custom ? core::CollectiveProto::Unknown : core::CollectiveProto::Simple));
            if (!e.valid()) {
                return core::makeError(core::ErrorCode::InvalidArgument,
                                       "this fabric and topology do not offer that algorithm/protocol",
                                       "--algo/--proto");
            }
        } else {
            e = model.allReduce(bytes);
        }
        rows.push_back({bytes, e});
    }
    return rows;
}

void printPredictionJson(const Prediction& p, const core::sim::CollectiveModel& model, int gpus,
                         const std::vector<PredictedRow>& rows) {
    const auto elementBytes = static_cast<std::uint64_t>(core::dtypeBytes(p.dtype));
    core::JsonWriter w(std::cout);
    w.beginObject().field("fabric", p.cluster.intraFabric.id);
    w.field("inter_fabric", p.cluster.interFabric ? p.cluster.interFabric->id : std::string());
    w.field("gpus", gpus).field("nodes", model.nodes()).field("gpus_per_node", model.gpusPerNode());
    w.field("dtype", core::toString(p.dtype)).key("rows").beginArray();
    for (const auto& r : rows) {
        const double t = r.e.timeNs();
        w.beginObject().field("bytes", r.bytes).field("count", r.bytes / elementBytes);
        w.field("time_us", t / 1e3).field("algbw_gbps", core::sim::algbw(r.bytes, t) / 1e9);
        w.field("busbw_gbps", core::sim::allReduceBusbw(r.bytes, t, gpus) / 1e9);
        w.field("algo", core::toString(r.e.algo)).field("proto", core::toString(r.e.proto));
        w.field("latency_us", r.e.latencyNs / 1e3).field("bandwidth_us", r.e.bandwidthNs / 1e3).endObject();
    }
    w.endArray().endObject();
}

void printPredictionText(const Prediction& p, const core::sim::CollectiveModel& model, int gpus,
                         const std::vector<PredictedRow>& rows) {
    const auto elementBytes = static_cast<std::uint64_t>(core::dtypeBytes(p.dtype));
    std::cout << "# predicted all-reduce, " << countText(gpus, "GPU") << " (" << model.nodes() << " x "
              << model.gpusPerNode() << ") over " << p.cluster.intraFabric.id
              << (p.cluster.interFabric ? " + " + p.cluster.interFabric->id : std::string()) << "\n";
    TextTable t({"size (B)", "count", "type", "redop", "time (us)", "algbw (GB/s)", "busbw (GB/s)", "algo", "proto"});
    for (const auto& r : rows) {
        const double ns = r.e.timeNs();
        t.addRow({std::to_string(r.bytes), std::to_string(r.bytes / elementBytes), std::string(core::toString(p.dtype)),
                  "sum", core::formatFixed(ns / 1e3, 2), core::formatFixed(core::sim::algbw(r.bytes, ns) / 1e9, 2),
                  core::formatFixed(core::sim::allReduceBusbw(r.bytes, ns, gpus) / 1e9, 2),
                  std::string(core::toString(r.e.algo)), std::string(core::toString(r.e.proto))});
    }
    t.print(std::cout);
}

int runMeasuredCommand(const AllReduceOptions& o) {
    auto sizes = parseSizes(o.sizes);
    if (!sizes) return reportError(sizes.error());
    auto dtype = resolveDtype(o.dtype);
    if (!dtype) return reportError(dtype.error());
    if (o.gpus < 1) {
        return reportError(core::makeError(core::ErrorCode::InvalidArgument, "must be at least 1", "--gpus"));
    }
    return runMeasured(o, *sizes, *dtype);
}

int run(const AllReduceOptions& o, const CliContext& ctx) {
    if (o.measure) return runMeasuredCommand(o);
    auto catalog = ctx.catalog();
    if (!catalog) return reportError(catalog.error());
    auto prediction = parsePrediction(o, *catalog);
    if (!prediction) return reportError(prediction.error());
    auto model = core::sim::CollectiveModel::create(prediction->cluster.intraFabric, prediction->cluster.interFabric,
                                                    o.gpus, prediction->gpusPerNode);
    if (!model) return reportError(model.error());
    auto rows = predictRows(*model, *prediction);
    if (!rows) return reportError(rows.error());
    if (o.json) {
        printPredictionJson(*prediction, *model, o.gpus, *rows);
    } else {
        printPredictionText(*prediction, *model, o.gpus, *rows);
    }
    return kExitOk;
}

}  // namespace

void addAllReduceCommand(CLI::App& app, CliContext& ctx) {
    auto opts = std::make_shared<AllReduceOptions>();
    auto* cmd = app.add_subcommand("allreduce", "Predicted all-reduce time per message size, in nccl-tests' columns");
    // No --gpu: the collective model depends on the fabric only, not on the GPU's kernel speed.
    addClusterOptions(*cmd, opts->cluster, false);
    cmd->add_option("--gpus", opts->gpus, "Number of GPUs in the all-reduce (over all nodes)")->capture_default_str();
    cmd->add_option("--sizes", opts->sizes,
                    "Message sizes in bytes (K = 1024, M = 1024^2, G = 1024^3): 8,1K,64M or a run 8,16,...,1G")
        ->capture_default_str();
    cmd->add_option("--dtype", opts->dtype, "Element type (for the count column)")->capture_default_str();
    cmd->add_option("--algo", opts->algo, "Force an algorithm: ring, tree, nvls, one_shot, two_shot");
    cmd->add_option("--proto", opts->proto, "Force a protocol: ll, ll128, simple");
    cmd->add_flag("--measure", opts->measure, "Run real NCCL all-reduces on the local GPUs instead of predicting");
    cmd->add_option("--iterations", opts->iterations,
                    "--measure: all-reduces timed back to back per sample (time = slowest GPU / iterations; median "
                    "of 5 samples)")
        ->capture_default_str();
    addJsonFlag(*cmd, opts->json);
    cmd->callback([opts, &ctx] { ctx.exitCode = run(*opts, ctx); });
}

}  // namespace tpscope::cli
