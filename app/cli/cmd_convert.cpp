// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// tpscope-cli convert IN OUT: any trace format tpscope reads -> workspace, Chrome JSON (Perfetto),
// CSV or a row-per-event SQLite database (format from OUT's extension or --to).
// tpscope-cli info FILE: ranks, streams, event counts per kind, time span and import statistics.
// --json output is documented in docs/cli.md.

#include <filesystem>
#include <iostream>
#include <map>

#include "analysis_options.h"
#include "cli_context.h"
#include "core/io/export/chrome_writer.h"
#include "core/io/export/csv_writer.h"
#include "core/io/export/sqlite_export.h"
#include "core/io/workspace/workspace.h"
#include "core/trace/kernel_time.h"
#include "core/util/json_writer.h"
#include "core/util/units.h"
#include "run_output.h"
#include "text_table.h"

namespace tpscope::cli {

namespace {

struct ConvertOptions {
    std::string input;
    std::string output;
    std::string to;
    std::string rules;
    std::string name;
    std::string run;  // --run N|NAME of a workspace with several runs
    bool json = false;
};

struct InfoOptions {
    std::string input;
    std::string rules;
    std::string run;  // --run N|NAME of a workspace; empty: every run
    bool json = false;
    std::string clockSync = "auto";
    std::vector<std::string> clockOffsets;
};

core::Result<std::string> outputFormat(const std::string& path, const std::string& to) {
    if (!to.empty()) {
        for (const char* f : {"tpscope", "json", "json.gz", "csv", "sqlite"}) {
            if (to == f) return to;
        }
        return core::makeError(core::ErrorCode::InvalidArgument,
                               "unknown format '" + to + "' (tpscope, json, json.gz, csv, sqlite)", "--to");
    }
    for (const char* f : {"tpscope", "json.gz", "json", "csv", "sqlite"}) {
        if (path.ends_with(std::string(".") + f)) return std::string(f);
    }
    if (path.ends_with(".db")) return std::string("sqlite");
    return core::makeError(core::ErrorCode::InvalidArgument,
                           "cannot tell the output format from the name; use .tpscope, .json, .json.gz, .csv, "
                           ".sqlite or --to",
                           path);
}

// "rank.csv" -> "rank.ranges.csv"
std::string rangesPath(const std::string& eventsPath) {
    const std::filesystem::path p(eventsPath);
    return (p.parent_path() / (p.stem().string() + ".ranges.csv")).string();
}

int runConvert(const ConvertOptions& o) {
    auto format = outputFormat(o.output, o.to);
    if (!format) return reportError(format.error());
    if (auto writable = checkOutputPath(o.output, "output"); !writable) return reportError(writable.error());
    auto classifier = classifierFor(o.rules);
    if (!classifier) return reportError(classifier.error());
    core::ImportStats stats;
    auto run = loadOneRun(o.input, o.run, &stats, *classifier ? &**classifier : nullptr);
    if (!run) return reportError(run.error());
    const auto& trace = run->trace;
    const core::Trace& t = *trace;
    core::Status written = core::Ok{};
    if (*format == "tpscope") {
        core::Workspace ws;
        core::RunInfo info;
        info.name = !o.name.empty()      ? o.name
                    : !run->name.empty() ? run->name
                                         : std::filesystem::path(o.input).filename().string();
        ws.runs.push_back(core::Run{info, trace, std::nullopt});
        storeAnalyses(ws);
        written = core::saveWorkspace(ws, o.output);
    } else if (*format == "json" || *format == "json.gz") {
        std::string path = o.output;
        if (*format == "json.gz" && !path.ends_with(".gz")) path += ".gz";
        written = core::writeChromeJson(t, path);
    } else if (*format == "csv") {
        written = core::writeEventsCsv(t, o.output);
        if (written) written = core::writeRangesCsv(t, rangesPath(o.output));
    } else {
        written = core::writeSqliteExport(t, o.output);
    }
    if (!written) return reportError(written.error());
    if (o.json) {
        core::JsonWriter w(std::cout);
        w.beginObject().field("input", o.input).field("output", o.output).field("format", *format);
        w.field("run", run->index).field("run_name", run->name);
        w.field("event_count", static_cast<std::uint64_t>(t.eventCount()));
        w.field("ranks", static_cast<std::uint64_t>(t.ranks.size()));
        w.field("ranges_file", *format == "csv" ? rangesPath(o.output) : std::string());
        w.key("import_stats");
        stats.writeJson(w);
        w.endObject();
        std::cout << '\n';
        return kExitOk;
    }
    std::cout << "wrote " << o.output << " from " << runLabel(o.input, *run) << ": "
              << countText(static_cast<std::int64_t>(t.eventCount()), "event") << " on "
              << countText(static_cast<std::int64_t>(t.ranks.size()), "rank");
    if (*format == "csv") std::cout << " (ranges in " << rangesPath(o.output) << ")";
    std::cout << '\n';
    return kExitOk;
}

constexpr std::size_t kTopUnclassified = 10;

std::map<core::EventKind, std::size_t> countByKind(const core::Trace& t) {
    std::map<core::EventKind, std::size_t> n;
    for (int k = 0; k < core::kEventKindCount; ++k) n[static_cast<core::EventKind>(k)] = 0;
    for (const auto& r : t.ranks) {
        for (const auto& s : r.streams) {
            for (const auto k : s.events.kinds()) ++n[static_cast<core::EventKind>(k)];
        }
    }
    return n;
}

// "12.3 us +- 0.8 us (24 calls)", or why there is no estimate.
std::string estimateText(const core::analysis::RankClockEstimate& e) {
    if (!e.known) return "unknown: " + e.reason;
    return core::formatDurationNs(static_cast<double>(e.offsetNs)) + " +- " + core::formatDurationNs(e.residualNs) +
           " (" + std::to_string(e.calls) + " calls)";
}

// A workspace keeps no import statistics (they belong to the import that made it): null / a line
// saying so, never a block of zeros that reads as "nothing went wrong".
void printInfoJson(core::JsonWriter& w, const core::Trace& t, const core::ImportStats* stats, const std::string& path,
                   const core::analysis::ClockSyncResult& sync) {
    w.beginObject();
    w.field("file", path).field("source", t.source).field("origin", core::toString(t.origin));
    w.field("event_count", static_cast<std::uint64_t>(t.eventCount()));
    w.field("start_ns", t.startNs()).field("end_ns", t.endNs()).field("duration_ns", t.endNs() - t.startNs());
    w.key("events_by_kind").beginObject();
    for (const auto& [kind, n] : countByKind(t)) w.field(core::toString(kind), static_cast<std::uint64_t>(n));
    w.endObject();
    const core::KernelTime time = core::kernelTime(t);
    w.key("kernel_time_by_kind").beginObject();
    for (int k = 0; k < core::kEventKindCount; ++k) {
        w.field(core::toString(static_cast<core::EventKind>(k)), time.nsByKind[static_cast<std::size_t>(k)]);
    }
    w.endObject();
    w.field("kernel_time_ns", time.kernelNs).field("other_share", time.share(core::EventKind::Other));
    w.key("top_unclassified").beginArray();
    for (const auto& n : core::topKernelNames(t, core::EventKind::Other, kTopUnclassified)) {
        w.beginObject().field("name", n.name).field("time_ns", n.ns).field("count", n.count).endObject();
    }
    w.endArray();
    w.key("ranks").beginArray();
    for (const auto& r : t.ranks) {
        w.beginObject();
        w.field("rank", static_cast<std::uint64_t>(r.id.value)).field("host", r.host);
        w.field("device_index", r.deviceIndex).field("device_name", r.deviceName);
        w.field("clock_offset_ns", r.clockOffsetNs).field("event_count", static_cast<std::uint64_t>(r.eventCount()));
        w.field("range_count", static_cast<std::uint64_t>(r.ranges.size()));
        const auto index = static_cast<std::size_t>(&r - t.ranks.data());
        const auto& e = sync.estimate.ranks[index];
        w.key("clock_estimate").beginObject().field("known", e.known);
        if (e.known) {
            w.field("offset_ns", e.offsetNs).field("residual_ns", e.residualNs);
        } else {
            w.key("offset_ns").null().key("residual_ns").null();
        }
        w.field("calls", static_cast<std::uint64_t>(e.calls)).field("reason", e.reason);
        w.field("applied_ns", sync.appliedNs[index]).field("overridden", static_cast<bool>(sync.overridden[index]));
        w.endObject();
        w.key("streams").beginArray();
        for (const auto& s : r.streams) {
            w.beginObject().field("id", s.id.value).field("label", s.label);
            w.field("event_count", static_cast<std::uint64_t>(s.events.size())).endObject();
        }
        w.endArray();
        w.endObject();
    }
    w.endArray();
    w.key("metadata").beginObject();
    for (const auto& [k, v] : t.metadata) w.field(k, v);
    w.endObject();
    w.key("clock_sync").beginObject().field("estimate_applied", sync.estimateApplied);
    w.field("reference_rank", sync.estimate.referenceRankIndex >= 0
                                  ? static_cast<std::int64_t>(
                                        t.ranks[static_cast<std::size_t>(sync.estimate.referenceRankIndex)].id.value)
                                  : -1);
    w.field("calls_used", static_cast<std::uint64_t>(sync.estimate.callsUsed));
    w.key("notes").beginArray();
    for (const auto& n : sync.notes) w.value(n);
    w.endArray().endObject();
    w.key("import_stats");
    if (stats != nullptr) {
        stats->writeJson(w);
    } else {
        w.null();
    }
    w.endObject();
}

void printInfoText(const core::Trace& t, const core::ImportStats* stats, const std::string& path,
                   const core::analysis::ClockSyncResult& sync) {
    std::cout << path << ": " << countText(static_cast<std::int64_t>(t.eventCount()), "event") << " on "
              << countText(static_cast<std::int64_t>(t.ranks.size()), "rank") << ", " << core::toString(t.origin)
              << ", span " << core::formatDurationNs(static_cast<double>(t.endNs() - t.startNs())) << '\n';
    if (!t.source.empty() && t.source != path) std::cout << "source: " << t.source << '\n';
    std::cout << '\n';
    TextTable ranks({"rank", "host", "GPU", "device", "streams", "events", "ranges", "clock offset",
                     "estimated offset +- residual"});
    for (std::size_t i = 0; i < t.ranks.size(); ++i) {
        const auto& r = t.ranks[i];
        ranks.addRow({std::to_string(r.id.value), r.host.empty() ? "-" : r.host, std::to_string(r.deviceIndex),
                      r.deviceName.empty() ? "-" : r.deviceName, std::to_string(r.streams.size()),
                      std::to_string(r.eventCount()), std::to_string(r.ranges.size()),
                      core::formatDurationNs(static_cast<double>(r.clockOffsetNs)) +
                          (sync.overridden[i] ? " (--clock-offset)" : ""),
                      estimateText(sync.estimate.ranks[i])});
    }
    ranks.print(std::cout);
    std::cout << (sync.estimateApplied ? "clock offsets estimated from the collectives were applied\n"
                                       : "clock offsets estimated from the collectives: not applied (all within "
                                         "20 us: the ranks share a clock; --clock-sync on applies them)\n");
    for (const auto& n : sync.notes) std::cout << "note: " << n << '\n';
    std::cout << '\n';
    TextTable streams({"rank", "stream", "label", "events"});
    for (const auto& r : t.ranks) {
        for (const auto& s : r.streams) {
            streams.addRow(
                {std::to_string(r.id.value), std::to_string(s.id.value), s.label, std::to_string(s.events.size())});
        }
    }
    streams.print(std::cout);
    std::cout << '\n';
    const core::KernelTime time = core::kernelTime(t);
    TextTable kinds({"kind", "events", "time", "share of kernel time"});
    for (const auto& [kind, n] : countByKind(t)) {
        const auto ns = static_cast<double>(time.nsByKind[static_cast<std::size_t>(kind)]);
        const bool copy = kind == core::EventKind::Memcpy || kind == core::EventKind::Memset;
        kinds.addRow({std::string(core::toString(kind)), std::to_string(n), core::formatDurationNs(ns),
                      copy ? "-" : core::formatPercent(time.share(kind))});
    }
    kinds.print(std::cout);
    // What the classifier could not place, by time: the names a user would write a --kernel-rules rule for.
    const auto unclassified = core::topKernelNames(t, core::EventKind::Other, kTopUnclassified);
    if (!unclassified.empty()) {
        std::cout << "\ntop unclassified kernels (" << core::formatPercent(time.share(core::EventKind::Other))
                  << " of kernel time; classify them with --kernel-rules)\n";
        TextTable names({"time", "count", "name"});
        for (const auto& n : unclassified) {
            names.addRow({core::formatDurationNs(static_cast<double>(n.ns)), std::to_string(n.count), n.name});
        }
        names.print(std::cout);
    }
    if (stats == nullptr) {
        std::cout << "\nimport statistics: not kept in a workspace (run 'tpscope-cli info' on the original trace)\n";
        return;
    }
    std::cout << "\nimport statistics\n";
    TextTable counters({"counter", "value"});
    for (const auto& c : stats->counters()) {
        if (c.value == 0 && c.problem) continue;
        counters.addRow({std::string(c.label) + (c.problem ? " (!)" : ""), std::to_string(c.value)});
    }
    counters.print(std::cout);
    if (stats->problemCount() == 0) std::cout << "no problems found\n";
    for (const auto& n : stats->notes) std::cout << "note: " << n << '\n';
}

int runInfo(const InfoOptions& o) {
    auto classifier = classifierFor(o.rules);
    if (!classifier) return reportError(classifier.error());
    core::ImportStats stats;
    auto runs = loadRuns(o.input, o.run, &stats, *classifier ? &**classifier : nullptr);
    if (!runs) return reportError(runs.error());
    // Each run on one clock, as analyze would see it (--clock-sync, --clock-offset).
    std::vector<core::analysis::ClockSyncResult> syncs(runs->size());
    for (std::size_t i = 0; i < runs->size(); ++i) {
        auto synced = syncRunClocks((*runs)[i].trace, o.clockSync, o.clockOffsets, &syncs[i]);
        if (!synced) return reportError(synced.error());
        (*runs)[i].trace = *synced;
    }
    const bool several = runs->size() > 1;
    if (o.json) {
        // One run: the info object itself. Several: {"file", "runs": [{"run", "name", "info"}]}.
        core::JsonWriter w(std::cout);
        if (several) w.beginObject().field("file", o.input).key("runs").beginArray();
        for (std::size_t i = 0; i < runs->size(); ++i) {
            const auto& run = (*runs)[i];
            if (several) w.beginObject().field("run", run.index).field("name", run.name).key("info");
            printInfoJson(w, *run.trace, run.of > 0 ? nullptr : &stats, o.input, syncs[i]);
            if (several) w.endObject();
        }
        if (several) w.endArray().endObject();
        std::cout << '\n';
        return kExitOk;
    }
    for (std::size_t i = 0; i < runs->size(); ++i) {
        const auto& run = (*runs)[i];
        if (i > 0) std::cout << "\n\n";
        if (run.of > 0) std::cout << "run " << run.index << " of " << run.of << " '" << run.name << "'\n";
        printInfoText(*run.trace, run.of > 0 ? nullptr : &stats, o.input, syncs[i]);
    }
    return kExitOk;
}

}  // namespace

void addConvertCommands(CLI::App& app, CliContext& ctx) {
    auto convert = std::make_shared<ConvertOptions>();
    auto* c = app.add_subcommand("convert",
                                 "Convert a trace: Kineto/Chrome JSON, .json.gz, a folder of ranks, an "
                                 "Nsight Systems SQLite export or a workspace -> .tpscope, .json(.gz), "
                                 ".csv, .sqlite");
    c->add_option("input", convert->input, "Trace file or folder of per-rank traces")->required();
    c->add_option("output", convert->output, "Output file; the format follows the extension")->required();
    c->add_option("--to", convert->to, "Output format: tpscope, json, json.gz, csv, sqlite");
    addKernelRulesOption(*c, convert->rules);
    c->add_option("--name", convert->name,
                  "Run name in the workspace (default: the run's name, else the input's file name)");
    addRunOption(*c, convert->run,
                 "Workspace with several runs: the run to convert, N (1-based) or its name (required then)");
    addJsonFlag(*c, convert->json);
    c->callback([&ctx, convert] { ctx.exitCode = runConvert(*convert); });

    auto info = std::make_shared<InfoOptions>();
    auto* i = app.add_subcommand("info",
                                 "Summarise a trace: ranks, streams, events per kind, time span, import "
                                 "statistics");
    i->add_option("input", info->input, "Trace file or folder of per-rank traces")->required();
    addKernelRulesOption(*i, info->rules);
    addRunOption(*i, info->run);
    addJsonFlag(*i, info->json);
    addClockOptions(*i, info->clockSync, info->clockOffsets);
    i->callback([&ctx, info] { ctx.exitCode = runInfo(*info); });
}

}  // namespace tpscope::cli
