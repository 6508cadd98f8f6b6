// tpscope-cli calibrate: fits a fabric's collective-model parameters to measured all-reduce times
// (Vidur all_reduce.csv, nccl-tests all_reduce_perf text or -J JSON) and writes a fabric entry that
// --catalog (or TPSCOPE_CATALOG) loads; with --check, reports a preset's error against the data.

#include <fstream>
#include <iostream>

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
    std::string id = "calibrated";
    std::string name;
    int nicsPerNode = -1;
    std::string out;
    bool json = false;
};

core::Result<core::sim::CalibrationFormat> parseFormat(const std::string& s) {
    if (s == "auto") return core::sim::CalibrationFormat::Auto;
    if (s == "vidur") return core::sim::CalibrationFormat::VidurCsv;
    if (s == "nccl-tests") return core::sim::CalibrationFormat::NcclTestsText;
    if (s == "nccl-tests-json") return core::sim::CalibrationFormat::NcclTestsJson;
    return core::makeError(core::ErrorCode::InvalidArgument, "use auto, vidur, nccl-tests or nccl-tests-json",
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

// Samples of every matched all-reduce with a size in the traces (calibrate --from-trace).
core::Result<core::sim::CalibrationData> samplesFromTraces(const CalibrateOptions& o) {
    core::sim::CalibrationData data;
    for (const auto& file : o.fromTrace) {
        auto trace = loadSyncedTrace(file, o.analysis.clockSync, o.analysis.clockOffsets);
        if (!trace) return trace.error();
        const auto a = core::analysis::analyzeTrace(**trace, o.analysis.toCore());
        const auto s = core::sim::allReduceSamples(**trace, a.matching);
        for (const auto& n : s.notes) std::cerr << "tpscope-cli: note: " << file << ": " << n << '\n';
        data.samples.insert(data.samples.end(), s.samples.begin(), s.samples.end());
        data.skippedRows += s.allReduceCalls - s.samples.size();
    }
    if (data.samples.empty()) {
        return core::makeError(core::ErrorCode::InvalidArgument,
                               "no all-reduce call with a message size and a transfer time in the trace(s)",
                               "--from-trace");
    }
    return data;
}

int run(const CalibrateOptions& o, const CliContext& ctx) {
    auto catalog = ctx.catalog();
    if (!catalog) return reportError(catalog.error());
    if (o.input.empty() == o.fromTrace.empty()) {
        return reportError(core::makeError(core::ErrorCode::InvalidArgument,
                                           "give either --input (measurements) or --from-trace (a trace)",
                                           "calibrate"));
    }
    if (o.kernels) {
        if (o.fromTrace.size() != 1) {
            return reportError(
                core::makeError(core::ErrorCode::InvalidArgument, "--kernels needs one --from-trace", "--kernels"));
        }
        return runKernelCalibration({o.fromTrace.front(), o.model, o.gpu, o.fabric, o.predictTp, o.json, o.analysis},
                                    *catalog);
    }
    const std::string input =
        !o.input.empty() ? o.input
        : o.fromTrace.size() == 1
            ? o.fromTrace.front()
            : o.fromTrace.front() + " (+" + std::to_string(o.fromTrace.size() - 1) + " more trace(s))";
    auto format = parseFormat(o.format);
    if (!format) return reportError(format.error());
    std::vector<int> ranks;
    if (!o.gpus.empty()) {
        auto list = core::parsePositiveIntList(o.gpus, "--gpus");
        if (!list) return reportError(list.error());
        ranks = *list;
    }
    if (o.scope != "intra-node" && o.scope != "inter-node") {
        return reportError(
            core::makeError(core::ErrorCode::InvalidArgument, "use intra-node or inter-node", "--scope"));
    }
    const bool inter = o.scope == "inter-node";
    const auto target = inter ? core::sim::CalibrationTarget::InterNode : core::sim::CalibrationTarget::IntraNode;
    if (o.statistic != "min" && o.statistic != "median" && o.statistic != "mean") {
        return reportError(core::makeError(core::ErrorCode::InvalidArgument, "use min, median or mean", "--statistic"));
    }
    const auto statistic = o.statistic == "min" ? core::sim::VidurStatistic::Min
                                                : (o.statistic == "mean" ? core::sim::VidurStatistic::Mean
                                                                         : core::sim::VidurStatistic::Median);
    auto data = o.input.empty() ? samplesFromTraces(o) : core::sim::loadCalibrationFile(input, *format, statistic);
    if (!data) return reportError(data.error());
    std::optional<core::FabricSpec> intra;
    if (inter) {
        auto f = catalog->fabric(o.intraFabric);
        if (!f) return reportError(f.error());
        intra = *f;
    }
    const auto samples = core::sim::selectSamples(data->samples, target, ranks);

    if (!o.check.empty()) {
        auto fabric = catalog->fabric(o.check);
        if (!fabric) return reportError(fabric.error());
        auto report = inter ? core::sim::evaluateFabric(samples, *intra, *fabric)
                            : core::sim::evaluateFabric(samples, *fabric, std::nullopt);
        if (!report) return reportError(report.error());
        if (o.json) {
            core::JsonWriter w(std::cout);
            w.beginObject().field("fabric", fabric->id).field("input", input).field("samples", samples.size());
            writeReport(w, *report);
            w.endObject();
        } else {
            std::cout << "error of preset '" << fabric->id << "' against " << input << " (" << samples.size()
                      << " samples; error = predicted / measured - 1)\n\n";
            printReport(*report);
        }
        return kExitOk;
    }

    core::sim::CalibrationOptions opts;
    opts.target = target;
    opts.intra = intra;
    opts.ranks = ranks;
    auto start = catalog->fabric(!o.start.empty() ? o.start : (inter ? "ib-hdr" : "nvlink4"));
    if (!start) return reportError(start.error());
    opts.start = *start;
    opts.start.id = o.id;
    if (o.nicsPerNode >= 0) opts.start.nicsPerNode = o.nicsPerNode;
    opts.start.name = o.name.empty() ? "calibrated from " + input : o.name;
    opts.sourceNote = "tpscope-cli calibrate on " + input + " (" + std::to_string(samples.size()) + " samples" +
                      (o.gpus.empty() ? "" : ", GPUs " + o.gpus) + ")";
    if (core::Catalog probe; !probe.addJson("{\"fabrics\":[{\"id\":\"" + o.id +
                                                "\",\"link_bytes_per_sec\":1,\"busbw_bytes_per_sec\":1,"
                                                "\"hop_latency_ns\":0,\"base_latency_ns\":0}]}",
                                            "--id")) {
        return reportError(core::makeError(core::ErrorCode::InvalidArgument, "must be lowercase kebab-case", "--id"));
    }
    auto fit = core::sim::calibrateFabric(data->samples, opts);
    if (!fit) return reportError(fit.error());
    if (!o.out.empty()) {
        std::ofstream out(o.out, std::ios::binary | std::ios::trunc);
        if (!out) return reportError(core::makeError(core::ErrorCode::IoError, "cannot open for writing", o.out));
        core::JsonWriter w(out);
        w.beginObject().field("schema", 1).key("fabrics").beginArray();
        writeFabricEntry(w, fit->fabric);
        w.key("calibration").beginObject().field("input", input).field("samples", fit->samples);
        writeReport(w, fit->report);
        w.endObject().endObject().endArray().endObject();
        out << '\n';
        if (!out) return reportError(core::makeError(core::ErrorCode::IoError, "write failed", o.out));
    }
    if (o.json) {
        core::JsonWriter w(std::cout);
        w.beginObject().field("input", input).field("samples", fit->samples).field("objective", fit->objective);
        w.key("fabric");
        writeFabricEntry(w, fit->fabric);
        w.endObject();
        writeReport(w, fit->report);
        w.endObject();
        return kExitOk;
    }
    const auto& f = fit->fabric;
    std::cout << "fitted '" << f.id << "' to " << fit->samples << " samples of " << input << "\n";
    std::cout << "  bus bandwidth  " << core::formatFixed(f.busbwBytesPerSec / 1e9, 1) << " GB/s\n";
    for (int i = 0; i < core::kProtocolCount; ++i) {
        const auto& p = f.protocols[static_cast<std::size_t>(i)];
        if (p.bandwidthFraction <= 0) continue;
        std::cout << "  " << core::toString(core::protocolAt(i)) << "  base " << core::formatDurationNs(p.baseLatencyNs)
                  << ", per step " << core::formatDurationNs(p.hopLatencyNs) << ", "
                  << core::formatFixed(100 * p.bandwidthFraction, 1) << " % of busbw\n";
    }
    std::cout << '\n';
    printReport(fit->report);
    if (!o.out.empty()) std::cout << "\nwrote " << o.out << " (load it with --catalog " << o.out << ")\n";
    return kExitOk;
}

}  // namespace

void addCalibrateCommand(CLI::App& app, CliContext& ctx) {
    auto opts = std::make_shared<CalibrateOptions>();
    auto* cmd =
        app.add_subcommand("calibrate", "Fit a fabric's all-reduce model to measurements (Vidur CSV, nccl-tests)");
    cmd->add_option("--input", opts->input, "Measurements: Vidur all_reduce.csv, all_reduce_perf output or its -J JSON")
        ->check(CLI::ExistingFile);
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
    cmd->add_option("--format", opts->format, "auto, vidur, nccl-tests, nccl-tests-json")->capture_default_str();
    cmd->add_option("--statistic", opts->statistic, "Vidur CSV: min, median or mean time per size")
        ->capture_default_str();
    cmd->add_option("--gpus", opts->gpus, "Use only all-reduces over these GPU counts, e.g. 4 or 2,4,8");
    cmd->add_option("--scope", opts->scope, "intra-node (single-node rows) or inter-node (multi-node rows)")
        ->capture_default_str();
    cmd->add_option("--intra-fabric", opts->intraFabric, "Inter-node fits: the fabric inside each node")
        ->capture_default_str();
    cmd->add_option("--start", opts->start, "Preset to start from and take link bandwidth, algorithms, max GPUs from");
    cmd->add_option("--nics-per-node", opts->nicsPerNode, "Inter-node fits: network ports per node (0: one per GPU)");
    cmd->add_option("--check", opts->check, "Do not fit: report this preset's error against the data");
    cmd->add_option("--id,--fabric-id", opts->id, "Id of the fitted fabric")->capture_default_str();
    cmd->add_option("--name", opts->name, "Display name of the fitted fabric");
    cmd->add_option("--out", opts->out, "Write the fitted fabric entry (a catalog file)");
    cmd->add_flag("--json", opts->json, "Machine-readable output (docs/cli.md)");
    addAnalysisOptions(*cmd, opts->analysis);
    cmd->callback([opts, &ctx] { ctx.exitCode = run(*opts, ctx); });
}

}  // namespace tpscope::cli
