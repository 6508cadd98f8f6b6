// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// tpscope-cli calibrate: fits a fabric's collective-model parameters to measured all-reduce times
// (Vidur all_reduce.csv, nccl-tests all_reduce_perf text or -J JSON, or the matched all-reduces of a
// trace with --from-trace) and writes a fabric entry that --catalog (or TPSCOPE_CATALOG) loads; with
// --check, reports a preset's error against the data; --from-trace --kernels fits the kernel model.

#include <fstream>
#include <iostream>
#include <optional>

#include "analysis_options.h"
#include "calibrate_kernels.h"
#include "cli_context.h"
#include "core/sim/calibration.h"
#include "core/sim/trace_calibration.h"
#include "core/util/json_writer.h"
#include "core/util/units.h"
#include "text_table.h"

namespace tpscope::cli {

namespace {

struct CalibrateOptions {
    std::string input;
    std::vector<std::string> fromTrace;
    bool kernels = false;
    std::string model;
    std::string gpu;
    std::string fabric;
    std::string predictTp;
    AnalysisCliOptions analysis;
    std::string format = "auto";
    std::string statistic = "min";
    std::string gpus;
    std::string scope = "intra-node";
    std::string intraFabric = "nvlink3";
    std::string start;
    std::string check;
    double launchIntervalUs = 0;
    std::string id = "calibrated";
    std::string name;
    std::optional<int> nicsPerNode;
    std::string out;
    bool json = false;
};

core::Result<core::sim::CalibrationFormat> parseFormat(const std::string& s) {
    if (s == "auto") return core::sim::CalibrationFormat::Auto;
    if (s == "vidur") return core::sim::CalibrationFormat::VidurCsv;
    if (s == "nccl-tests") return core::sim::CalibrationFormat::NcclTestsText;
    if (s == "nccl-tests-json") return core::sim::CalibrationFormat::NcclTestsJson;
    if (s == "rows") return core::sim::CalibrationFormat::MeasuredRowsCsv;
    return core::makeError(core::ErrorCode::InvalidArgument, "use auto, vidur, nccl-tests, nccl-tests-json or rows",
                           "--format");
}

void writeFabricEntry(core::JsonWriter& w, const core::FabricSpec& f) {
    w.beginObject().field("id", f.id).field("name", f.name);
    w.field("scope", f.scope == core::FabricScope::InterNode ? "inter-node" : "intra-node");
    w.field("link_bytes_per_sec", f.linkBytesPerSec).field("busbw_bytes_per_sec", f.busbwBytesPerSec);
    w.field("hop_latency_ns", f.hopLatencyNs).field("base_latency_ns", f.baseLatencyNs);
    w.field("through_cpu", f.throughCpu).field("max_gpus", f.maxGpus);
    if (f.scope == core::FabricScope::InterNode) w.field("nics_per_node", f.nicsPerNode);
    w.key("algorithms").beginArray();
    for (const auto a : f.algorithms) w.value(core::toString(a));
    w.endArray().key("protocols").beginObject();
    for (int i = 0; i < core::kProtocolCount; ++i) {
        const auto& p = f.protocols[static_cast<std::size_t>(i)];
        w.key(core::toString(core::protocolAt(i))).beginObject();
        w.field("base_latency_ns", p.baseLatencyNs).field("hop_latency_ns", p.hopLatencyNs);
        w.field("bandwidth_fraction", p.bandwidthFraction).endObject();
    }
    w.endObject().key("sources").beginObject();
    for (const auto& [k, v] : f.sources) w.field(k, v);
    w.endObject();
}

void writeStats(core::JsonWriter& w, const core::sim::ErrorStats& s) {
    w.beginObject().field("label", s.label).field("min_bytes", s.minBytes).field("max_bytes", s.maxBytes);
    w.field("samples", s.samples).field("median_abs_error", s.medianAbsError).field("p90_abs_error", s.p90AbsError);
    w.field("mean_signed_error", s.meanSignedError).endObject();
}

void writeReport(core::JsonWriter& w, const core::sim::CalibrationReport& r) {
    w.key("overall");
    writeStats(w, r.overall);
    w.key("bands").beginArray();
    for (const auto& b : r.bands) writeStats(w, b);
    w.endArray().key("configs").beginArray();
    for (const auto& c : r.configs) {
        w.beginObject().field("ranks", c.ranks).field("nodes", c.nodes).key("all");
        writeStats(w, c.all);
        w.key("bands").beginArray();
        for (const auto& b : c.bands) writeStats(w, b);
        w.endArray().endObject();
    }
    w.endArray();
}

std::string pct(double v) {
    return core::formatFixed(100 * v, 1) + " %";
}

void printReport(const core::sim::CalibrationReport& r) {
    TextTable t({"GPUs", "nodes", "size band", "samples", "median |err|", "p90 |err|", "bias"});
    auto row = [&](const std::string& g, const std::string& n, const core::sim::ErrorStats& s) {
        if (s.samples == 0) return;
        t.addRow({g, n, s.label, std::to_string(s.samples), pct(s.medianAbsError), pct(s.p90AbsError),
                  pct(s.meanSignedError)});
    };
    for (const auto& c : r.configs) {
        for (const auto& b : c.bands) row(std::to_string(c.ranks), std::to_string(c.nodes), b);
    }
    for (const auto& b : r.bands) row("all", "", b);
    row("all", "", r.overall);
    t.print(std::cout);
}

// The checked inputs of a fit or a check: parse -> compute (runCheck / runFit) -> print.
struct CalibrationInput {
    core::sim::CalibrationData data;
    std::vector<core::sim::AllReduceSample> samples;  // the rows --scope and --only-gpus select
    core::sim::CalibrationTarget target = core::sim::CalibrationTarget::IntraNode;
    std::optional<core::FabricSpec> intra;  // inter-node fits: the fabric inside each node
    std::vector<int> ranks;
};

// Samples of every matched all-reduce with a size in the traces (calibrate --from-trace).
core::Result<core::sim::CalibrationData> samplesFromTraces(const CalibrateOptions& o) {
    core::sim::CalibrationData data;
    auto classifier = classifierFor(o.analysis.kernelRules);
    if (!classifier) return classifier.error();
    for (const auto& file : o.fromTrace) {
        auto trace = loadSyncedTrace(file, o.analysis.clockSync, o.analysis.clockOffsets, nullptr, nullptr,
                                     *classifier ? &**classifier : nullptr);
        if (!trace) return trace.error();
        const auto a = core::analysis::analyzeTrace(**trace, o.analysis.toCore());
        const auto s = core::sim::allReduceSamples(**trace, a.matching);
        for (const auto& n : s.notes) std::cerr << "tpscope-cli: note: " << file << ": " << n << '\n';
        data.samples.insert(data.samples.end(), s.samples.begin(), s.samples.end());
        data.skippedRows += s.allReduceCalls - s.samples.size();
    }
    if (data.samples.empty()) {
        return dataError(core::makeError(core::ErrorCode::InvalidArgument,
                                         "no all-reduce call with a message size and a transfer time"),
                         o.fromTrace.front(),
                         "record the trace with record_shapes=True, or calibrate from nccl-tests output (--input)");
    }
    return data;
}

core::Result<CalibrationInput> parseInput(const CalibrateOptions& o, const core::Catalog& catalog) {
    CalibrationInput in;
    core::sim::CalibrationFormat format{};
    TPSCOPE_TRY_ASSIGN(format, parseFormat(o.format));
    if (!o.gpus.empty()) TPSCOPE_TRY_ASSIGN(in.ranks, core::parsePositiveIntList(o.gpus, "--only-gpus"));
    if (o.scope != "intra-node" && o.scope != "inter-node") {
        return core::makeError(core::ErrorCode::InvalidArgument, "use intra-node or inter-node", "--scope");
    }
    const bool inter = o.scope == "inter-node";
    in.target = inter ? core::sim::CalibrationTarget::InterNode : core::sim::CalibrationTarget::IntraNode;
    if (o.statistic != "min" && o.statistic != "median" && o.statistic != "mean") {
        return core::makeError(core::ErrorCode::InvalidArgument, "use min, median or mean", "--statistic");
    }
    const auto statistic = o.statistic == "min" ? core::sim::VidurStatistic::Min
                                                : (o.statistic == "mean" ? core::sim::VidurStatistic::Mean
                                                                         : core::sim::VidurStatistic::Median);
    if (o.check.empty()) {
        if (auto written = checkOutputPath(o.out); !written) return written.error();
        if (core::Catalog probe; !probe.addJson("{\"fabrics\":[{\"id\":\"" + o.id +
                                                    "\",\"link_bytes_per_sec\":1,\"busbw_bytes_per_sec\":1,"
                                                    "\"hop_latency_ns\":0,\"base_latency_ns\":0}]}",
                                                "--id")) {
            return core::makeError(core::ErrorCode::InvalidArgument, "must be lowercase kebab-case", "--id");
        }
    }
    if (inter) TPSCOPE_TRY_ASSIGN(in.intra, catalog.fabric(o.intraFabric));
    if (!o.fromTrace.empty()) {
        TPSCOPE_TRY_ASSIGN(in.data, samplesFromTraces(o));
    } else {
        auto data = core::sim::loadCalibrationFile(o.input, format, statistic);
        if (!data) return fileError(data.error());
        in.data = std::move(*data);
    }
    in.samples = core::sim::selectSamples(in.data.samples, in.target, in.ranks);
    return in;
}

int runCheck(const CalibrateOptions& o, const core::Catalog& catalog, const CalibrationInput& in) {
    auto fabric = catalog.fabric(o.check);
    if (!fabric) return reportError(fabric.error());
    const double launchNs = o.launchIntervalUs * 1e3;
    auto report = in.intra ? core::sim::evaluateFabric(in.samples, *in.intra, *fabric, launchNs)
                           : core::sim::evaluateFabric(in.samples, *fabric, std::nullopt, launchNs);
    if (!report) {
        return reportError(
            dataError(report.error(), o.input, "measure more sizes or GPU counts, or check with another --scope"));
    }
    if (o.json) {
        core::JsonWriter w(std::cout);
        w.beginObject().field("fabric", fabric->id).field("input", o.input).field("samples", in.samples.size());
        if (o.launchIntervalUs > 0) w.field("launch_interval_us", o.launchIntervalUs);
        writeReport(w, *report);
        w.endObject();
    } else {
        std::cout << "error of preset '" << fabric->id << "' against " << o.input << " ("
                  << countText(static_cast<std::int64_t>(in.samples.size()), "sample")
                  << "; error = predicted / measured - 1";
        if (o.launchIntervalUs > 0) {
            std::cout << "; rows launched by one thread on g GPUs: + (g - 1) x "
                      << core::formatFixed(o.launchIntervalUs, 2) << " us";
        }
        std::cout << ")\n\n";
        printReport(*report);
    }
    return kExitOk;
}

core::Status writeFabricFile(const CalibrateOptions& o, const core::sim::CalibrationResult& fit) {
    std::ofstream out(o.out, std::ios::binary | std::ios::trunc);
    if (!out) return core::makeError(core::ErrorCode::IoError, "cannot open for writing", o.out);
    core::JsonWriter w(out);
    w.beginObject().field("schema", 1).key("fabrics").beginArray();
    writeFabricEntry(w, fit.fabric);
    w.key("calibration").beginObject().field("input", o.input).field("samples", fit.samples);
    writeReport(w, fit.report);
    w.endObject().endObject().endArray().endObject();
    out << '\n';
    if (!out) return core::makeError(core::ErrorCode::IoError, "write failed", o.out);
    return core::Ok{};
}

void printFit(const CalibrateOptions& o, const core::sim::CalibrationResult& fit) {
    if (o.json) {
        core::JsonWriter w(std::cout);
        w.beginObject().field("input", o.input).field("samples", fit.samples).field("objective", fit.objective);
        w.key("fabric");
        writeFabricEntry(w, fit.fabric);
        w.endObject();
        writeReport(w, fit.report);
        w.endObject();
        return;
    }
    const auto& f = fit.fabric;
    std::cout << "fitted '" << f.id << "' to " << countText(static_cast<std::int64_t>(fit.samples), "sample") << " of "
              << o.input << "\n";
    std::cout << "  bus bandwidth  " << core::formatFixed(f.busbwBytesPerSec / 1e9, 1) << " GB/s\n";
    for (int i = 0; i < core::kProtocolCount; ++i) {
        const auto& p = f.protocols[static_cast<std::size_t>(i)];
        if (p.bandwidthFraction <= 0) continue;
        std::cout << "  " << core::toString(core::protocolAt(i)) << "  base " << core::formatDurationNs(p.baseLatencyNs)
                  << ", per step " << core::formatDurationNs(p.hopLatencyNs) << ", "
                  << core::formatFixed(100 * p.bandwidthFraction, 1) << " % of busbw\n";
    }
    std::cout << '\n';
    printReport(fit.report);
    if (!o.out.empty()) std::cout << "\nwrote " << o.out << " (load it with --catalog " << o.out << ")\n";
}

int runFit(const CalibrateOptions& o, const core::Catalog& catalog, const CalibrationInput& in) {
    core::sim::CalibrationOptions opts;
    opts.target = in.target;
    opts.intra = in.intra;
    opts.ranks = in.ranks;
    auto start = catalog.fabric(!o.start.empty() ? o.start : (in.intra ? "ib-hdr" : "nvlink4"));
    if (!start) return reportError(start.error());
    opts.start = *start;
    opts.start.id = o.id;
    if (o.nicsPerNode) opts.start.nicsPerNode = *o.nicsPerNode;
    opts.start.name = o.name.empty() ? "calibrated from " + o.input : o.name;
    opts.sourceNote = "tpscope-cli calibrate on " + o.input + " (" +
                      countText(static_cast<std::int64_t>(in.samples.size()), "sample") +
                      (o.gpus.empty() ? "" : ", GPUs " + o.gpus) + ")";
    auto fit = core::sim::calibrateFabric(in.data.samples, opts);
    if (!fit) {
        // The options were checked above: what is left is the data (too few sizes, GPU counts, nodes).
        return reportError(dataError(fit.error(), o.input,
                                     "measure more message sizes or GPU counts (nccl-tests -b 8 -e 1G -f 2 on each "
                                     "count), or --check a preset against what you have"));
    }
    if (!o.out.empty()) {
        if (auto written = writeFabricFile(o, *fit); !written) return reportError(written.error());
    }
    printFit(o, *fit);
    return kExitOk;
}

int run(const CalibrateOptions& given, const CliContext& ctx) {
    auto catalog = ctx.catalog();
    if (!catalog) return reportError(catalog.error());
    if (given.input.empty() == given.fromTrace.empty()) {
        return reportError(core::makeError(core::ErrorCode::InvalidArgument,
                                           "give either --input (measurements) or --from-trace (a trace)",
                                           "calibrate"));
    }
    if (given.kernels) {
        if (given.fromTrace.size() != 1) {
            return reportError(
                core::makeError(core::ErrorCode::InvalidArgument, "--kernels needs one --from-trace", "--kernels"));
        }
        return runKernelCalibration({given.fromTrace.front(), given.model, given.gpu, given.fabric, given.predictTp,
                                     given.json, given.analysis},
                                    *catalog);
    }
    // With --from-trace, `input` names the traces in the report and the fitted preset's sources.
    CalibrateOptions o = given;
    if (!o.fromTrace.empty()) {
        o.input = o.fromTrace.size() == 1
                      ? o.fromTrace.front()
                      : o.fromTrace.front() + " (+" + std::to_string(o.fromTrace.size() - 1) + " more trace(s))";
    }
    if (o.launchIntervalUs > 0 && o.check.empty()) {
        return reportError(core::makeError(core::ErrorCode::InvalidArgument,
                                           "applies to --check only: a fit does not model the host's launches",
                                           "--launch-interval-us"));
    }
    auto input = parseInput(o, *catalog);
    if (!input) return reportError(input.error());
    return o.check.empty() ? runFit(o, *catalog, *input) : runCheck(o, *catalog, *input);
}

}  // namespace

void addCalibrateCommand(CLI::App& app, CliContext& ctx) {
    auto opts = std::make_shared<CalibrateOptions>();
    auto* cmd =
        app.add_subcommand("calibrate", "Fit a fabric's all-reduce model to measurements (Vidur CSV, nccl-tests)");
    cmd->add_option("--input", opts->input,
                    "Measurements: Vidur all_reduce.csv, all_reduce_perf output or its -J JSON");
    cmd->add_option("--from-trace", opts->fromTrace,
                    "Fit to the matched all-reduces of a captured or imported trace instead (repeatable)");
    cmd->add_flag("--kernels", opts->kernels,
                  "With --from-trace: fit the kernel-efficiency factors and launch gap to the trace instead");
    cmd->add_option("--model", opts->model, "--kernels: model preset of the run (default: trace metadata 'model')");
    cmd->add_option("--gpu", opts->gpu, "--kernels: GPU preset (default: trace metadata 'gpu')");
    cmd->add_option("--fabric", opts->fabric,
                    "--kernels: fabric preset (default: trace metadata 'fabric', else nvlink4)");
    cmd->add_option("--predict-tp", opts->predictTp,
                    "--kernels: predict the step latency at these TP degrees, e.g. 1,2,4,8");
    cmd->add_option("--format", opts->format,
                    "auto, vidur, nccl-tests, nccl-tests-json, rows (resources/calibration CSV)")
        ->capture_default_str();
    cmd->add_option("--statistic", opts->statistic, "Vidur CSV: min, median or mean time per size")
        ->capture_default_str();
    cmd->add_option("--only-gpus", opts->gpus, "Use only the all-reduces over these GPU counts, e.g. 4 or 2,4,8");
    cmd->add_option("--scope", opts->scope, "intra-node (single-node rows) or inter-node (multi-node rows)")
        ->capture_default_str();
    cmd->add_option("--intra-fabric", opts->intraFabric, "Inter-node fits: the fabric inside each node")
        ->capture_default_str();
    cmd->add_option("--start", opts->start, "Preset to start from and take link bandwidth, algorithms, max GPUs from");
    cmd->add_option("--nics-per-node", opts->nicsPerNode, "Inter-node fits: network ports per node (0: one per GPU)")
        ->check(nonNegativeNumber());
    cmd->add_option("--check", opts->check, "Do not fit: report this preset's error against the data");
    cmd->add_option("--launch-interval-us", opts->launchIntervalUs,
                    "--check: add (g - 1) x this to rows one thread launched on g GPUs (column gpus_per_thread)")
        ->check(nonNegativeNumber());
    cmd->add_option("--id,--fabric-id", opts->id, "Id of the fitted fabric")->capture_default_str();
    cmd->add_option("--name", opts->name, "Display name of the fitted fabric");
    cmd->add_option("--out", opts->out, "Write the fitted fabric entry (a catalog file)");
    cmd->add_flag("--json", opts->json, "Machine-readable output (docs/cli.md)");
    addAnalysisOptions(*cmd, opts->analysis);
    cmd->callback([opts, &ctx] { ctx.exitCode = run(*opts, ctx); });
}

}  // namespace tpscope::cli
