// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// tpscope-cli analyze | compare: the per-layer breakdown and run summary of one trace, and runs side
// by side aligned by layer. The numbers are core::analysis results, rendered as the GUI's Layers
// and Compare tabs show them; --json prints the same numbers (docs/cli.md).

#include <algorithm>
#include <cmath>
#include <iostream>
#include <map>
#include <optional>
#include <utility>

#include "analysis_options.h"
#include "cli_context.h"
#include "core/analysis/analysis_json.h"
#include "core/analysis/host_idle.h"
#include "core/analysis/synced_analysis.h"
#include "core/util/units.h"
#include "run_output.h"
#include "text_table.h"

namespace tpscope::cli {

namespace {

using core::analysis::TimeBreakdown;

struct AnalyzeOptions {
    std::string file;
    std::string run;  // --run N|NAME of a workspace; empty: every run
    std::optional<std::int64_t> rank;
    bool json = false;
    bool calls = false;
    bool strict = false;  // exit non-zero when a run is not understood (CI pipelines)
    std::string fabric;
    AnalysisCliOptions analysis;
};

std::string ns(double v) {
    return core::formatDurationNs(v);
}

void printLayerTable(const core::analysis::RunAnalysis& a, std::int64_t rankIndex) {
    // Where the segmentation has attention and MLP blocks, each layer's wall splits into the two.
    std::map<std::pair<int, core::analysis::BlockKind>, double> blockWall;
    for (const auto& b : core::analysis::blockTable(a.breakdown, rankIndex)) {
        blockWall[{b.layer, b.block}] = b.mean(&TimeBreakdown::wallNs);
    }
    std::vector<std::string> header{"layer", "wall"};
    if (!blockWall.empty()) header.insert(header.end(), {"attention", "mlp"});
    header.insert(header.end(),
                  {"compute", "overlapped comm", "exposed wait", "exposed transfer", "idle", "imbalance"});
    TextTable t(header);
    for (const auto& l : core::analysis::layerTable(a.breakdown, rankIndex)) {
        std::vector<std::string> row{std::to_string(l.layer), ns(l.mean(&TimeBreakdown::wallNs))};
        if (!blockWall.empty()) {
            for (const auto kind : {core::analysis::BlockKind::Attention, core::analysis::BlockKind::Mlp}) {
                const auto it = blockWall.find({l.layer, kind});
                row.push_back(it == blockWall.end() ? "-" : ns(it->second));
            }
        }
        row.insert(row.end(), {ns(l.mean(&TimeBreakdown::computeNs)), ns(l.mean(&TimeBreakdown::overlappedCommNs)),
                               ns(l.mean(&TimeBreakdown::exposedWaitNs)), ns(l.mean(&TimeBreakdown::exposedTransferNs)),
                               ns(l.mean(&TimeBreakdown::idleNs)), ns(l.meanImbalanceNs())});
        t.addRow(row);
    }
    t.print(std::cout);
    if (blockWall.empty()) return;
    const bool derived = std::any_of(a.segmentation.ranks.begin(), a.segmentation.ranks.end(),
                                     [](const auto& r) { return r.blocksDerived && r.blockCount > 0; });
    std::cout << "  attention / mlp: mean wall of each block, "
              << (derived ? "derived from the kernel sequence (the MLP block starts after the attention output "
                            "projection and its all-reduce)"
                          : "from NVTX block ranges")
              << '\n';
}

void printSummary(const core::Trace& trace, const core::analysis::RunAnalysis& a) {
    const auto& s = a.summary;
    std::cout << "\nSummary\n";
    std::cout << "  token latency   p50 " << ns(s.latencyP50Ns) << ", p90 " << ns(s.latencyP90Ns) << ", max "
              << ns(s.latencyMaxNs) << " over " << s.steps.size() << " step(s)\n";
    std::cout << "  throughput      " << core::formatFixed(s.tokensPerSec, 1) << " tokens/s at batch " << s.batch
              << (s.batchKnown ? "" : " (assumed)") << '\n';
    std::cout << "  time by class  ";
    for (const auto& k : s.kinds) {
        if (k.kernels > 0) std::cout << ' ' << core::toString(k.kind) << ' ' << percentText(k.share);
    }
    // Two different waits: all exposed waiting (exposed wait), and the part of it that compute spread
    // across ranks does not explain (sync wait, a loss next to imbalance). Each keeps its own name.
    std::cout << "\n  exposed comm    " << percentText(s.exposedCommShare) << " of step time, of which exposed wait "
              << percentText(s.exposedWaitShare) << '\n';
    std::cout << "  losses          transfer " << percentText(s.loss.transfer) << ", sync wait "
              << percentText(s.loss.syncWait) << ", imbalance " << percentText(s.loss.imbalance) << ", idle "
              << percentText(s.loss.idle) << " (compute " << percentText(s.loss.compute)
              << "; exposed wait = sync wait + imbalance)\n";
    if (const auto host = core::analysis::attributeIdleToHost(trace); host.hostRows) {
        std::cout << "  idle cause      " << percentText(host.launchWaitShare())
                  << " of the idle gaps wait for the kernel's launch call (host rows: "
                  << countText(static_cast<std::int64_t>(host.launchBoundKernels), "kernel") << " of " << host.kernels
                  << " launched after the GPU was free)\n";
    }
    if (s.slowestRankIndex >= 0) {
        std::cout << "  slowest rank    " << trace.ranks[static_cast<std::size_t>(s.slowestRankIndex)].id.value << " ("
                  << s.slowestRankReason << ")\n";
    }
    if (s.slowestLayer >= 0) {
        std::cout << "  slowest layer   " << s.slowestLayer << " (mean wall " << ns(s.slowestLayerMeanWallNs) << ")\n";
    }
    std::cout << "  collectives     " << countText(static_cast<std::int64_t>(s.collectiveCalls), "call") << ", "
              << s.incompleteCalls << " incomplete\n";
    std::cout << "\nPer rank (all steps)\n";
    TextTable t({"rank", "wall", "compute", "exposed wait", "exposed transfer", "idle", "last arrivals"});
    for (const auto& r : s.rankSummaries) {
        t.addRow({std::to_string(r.rank.value), ns(static_cast<double>(r.time.wallNs)),
                  ns(static_cast<double>(r.time.computeNs)), ns(static_cast<double>(r.time.exposedWaitNs)),
                  ns(static_cast<double>(r.time.exposedTransferNs)), ns(static_cast<double>(r.time.idleNs)),
                  std::to_string(r.lastArrivals)});
    }
    t.print(std::cout);
}

// Said before any number: the numbers below rest on what it could not place.
void printUnderstanding(const core::analysis::Understanding& u) {
    if (u.understood()) return;
    std::cout << "NOT UNDERSTOOD: the numbers below rest on guesses\n";
    for (const auto& g : u.gaps) std::cout << "  - " << g.what << "\n    fix: " << g.fix << '\n';
    if (!u.topOther.empty()) {
        std::cout << "  top unclassified kernels:\n";
        for (const auto& n : u.topOther) {
            std::cout << "    " << ns(static_cast<double>(n.ns)) << "  "
                      << countText(static_cast<std::int64_t>(n.count), "call") << "  " << n.name << '\n';
        }
    }
    std::cout << '\n';
}

void printFindings(const std::vector<core::analysis::TraceFinding>& findings) {
    if (findings.empty()) return;
    std::cout << "\nWhat the trace shows\n";
    for (const auto& f : findings) std::cout << "  - " << f.text << '\n';
}

void printNotes(const std::vector<std::string>& notes) {
    if (notes.empty()) return;
    std::cout << "\nNotes\n";
    for (const auto& n : notes) std::cout << "  - " << n << '\n';
}

// Who is late: per matched collective call, the last arrival, every rank's wait, transfer and busbw.
void printCallTable(const core::Trace& trace, const core::analysis::CollectiveMatching& m) {
    std::cout << "\nCollective calls (wait = last arrival - own start; transfer = median end - last arrival)\n";
    TextTable t(
        {"step", "layer", "op", "size", "ranks", "last rank", "max wait", "transfer", "busbw GB/s", "wait per rank"});
    for (const auto& c : m.calls) {
        std::string waits;
        std::int64_t maxWait = 0;
        for (std::uint32_t i = 0; i < c.participantCount; ++i) {
            const auto& p = m.participants[c.firstParticipant + i];
            waits += (waits.empty() ? "" : " ") + std::to_string(trace.ranks[p.rankIndex].id.value) + ":" +
                     ns(static_cast<double>(m.waitNs(c.firstParticipant + i)));
            maxWait = std::max(maxWait, m.waitNs(c.firstParticipant + i));
        }
        const double busbw = core::analysis::busBandwidth(c);
        t.addRow({c.layer >= 0 ? std::to_string(c.step) : "-", c.layer >= 0 ? std::to_string(c.layer) : "-",
                  std::string(core::toString(c.op)), core::formatBytes(static_cast<double>(c.bytes)),
                  std::to_string(c.participantCount) + "/" + std::to_string(c.expectedParticipants),
                  std::to_string(trace.ranks[c.lastRankIndex].id.value), ns(static_cast<double>(maxWait)),
                  ns(static_cast<double>(c.transferNs())),
                  std::isfinite(busbw) ? core::formatFixed(busbw / 1e9, 2) : "-", waits});
    }
    t.print(std::cout);
}

void printAnalysisText(const AnalyzeOptions& o, const LoadedRun& run, const core::analysis::RunAnalysis& a,
                       std::int64_t rankIndex) {
    const core::Trace& trace = *run.trace;
    if (run.of > 0) {
        std::cout << o.file << ": run " << run.index << " of " << run.of << " '" << run.name << "': ";
    } else {
        std::cout << "trace " << o.file << ": ";
    }
    std::cout << countText(static_cast<std::int64_t>(trace.ranks.size()), "rank") << ", "
              << countText(static_cast<std::int64_t>(a.summary.events), "event") << " (" << core::toString(trace.origin)
              << ")\n\n";
    printUnderstanding(a.understanding);
    std::cout << "Per layer, mean over steps and " << (rankIndex >= 0 ? "rank " + std::to_string(*o.rank) : "ranks")
              << ":\n";
    printLayerTable(a, rankIndex);
    printSummary(trace, a);
    if (o.calls) printCallTable(trace, a.matching);
    printFindings(a.findings);
    printNotes(a.notes);
}

// The fabric whose bound single-rank all-reduces are held against: --fabric, else the trace's.
core::Status setFindingFabric(const AnalyzeOptions& o, const core::Trace& trace, const CliContext& ctx,
                              core::analysis::AnalysisOptions& options) {
    const std::string id = !o.fabric.empty() ? o.fabric : trace.metadataValue("fabric");
    if (id.empty()) return core::Ok{};
    auto catalog = ctx.catalog();
    if (!catalog) return catalog.error();
    auto fabric = catalog->fabric(id);
    if (fabric) {
        options.findings.fabricBusbwBytesPerSec = fabric->busbwBytesPerSec;
        options.findings.fabricId = fabric->id;
    } else if (!o.fabric.empty()) {
        return core::makeError(fabric.error().code, fabric.error().message, "--fabric");
    }
    return core::Ok{};
}

// A run on one clock and analysed: its workspace's stored analysis where it is exactly what these options
// compute (core/io/workspace/stored_analysis_take.h), else analysed. Kernel rules are for classifying
// kernels anew, so with them the stored analysis is not taken. Said on stderr, so that stdout is the same.
// `analyze` and `compare` both.
core::Result<core::analysis::SyncedAnalysis> analyzeRun(const LoadedRun& run, bool kernelRules,
                                                        const core::analysis::ClockSyncOptions& clock,
                                                        const core::analysis::AnalysisOptions& options) {
    if (run.of > 0 && !kernelRules) {
        auto stored = takeStoredAnalysisSaid(run.file, static_cast<std::size_t>(run.index - 1), run.trace, run.batch,
                                             clock, options);
        if (stored) return std::move(*stored);
    }
    return core::analysis::analyzeOnOneClock(run.trace, clock, options);
}

int runAnalyze(const AnalyzeOptions& o, const CliContext& ctx) {
    auto classifier = classifierFor(o.analysis.kernelRules);
    if (!classifier) return reportError(classifier.error());
    auto runs = loadRuns(o.file, o.run, nullptr, *classifier ? &**classifier : nullptr);
    if (!runs) return reportError(runs.error());
    struct Analysed {
        std::int64_t rankIndex = -1;
        core::analysis::RunAnalysis analysis;
    };
    std::vector<Analysed> results;
    auto clock = clockSyncOptions(o.analysis.clockSync, o.analysis.clockOffsets);
    if (!clock) return reportError(clock.error());
    for (auto& run : *runs) {
        Analysed r;
        // Rank ids and metadata are the same before and after the clock sync.
        if (o.rank) {
            auto index = rankIndexOf(*run.trace, *o.rank);
            if (!index) return reportError(index.error());
            r.rankIndex = *index;
        }
        auto options = o.analysis.toCore();
        if (auto status = setFindingFabric(o, *run.trace, ctx, options); !status) return reportError(status.error());
        auto done = analyzeRun(run, !o.analysis.kernelRules.empty(), *clock, options);
        if (!done) return reportError(done.error());
        run.trace = done->trace;
        r.analysis = std::move(done->analysis);
        r.analysis.notes.insert(r.analysis.notes.begin(), done->sync.notes.begin(), done->sync.notes.end());
        results.push_back(std::move(r));
    }
    const bool several = runs->size() > 1;
    const bool understood = std::all_of(results.begin(), results.end(),
                                        [](const Analysed& r) { return r.analysis.understanding.understood(); });
    // --strict: the output is the same; the exit status says a run was not understood.
    const int exitCode = o.strict && !understood ? kExitNotUnderstood : kExitOk;
    if (o.json) {
        core::JsonWriter w(std::cout);
        // One run: the analysis object itself. Several: {"file", "runs": [{"run", "name", "analysis"}]}.
        if (several) w.beginObject().field("file", o.file).key("runs").beginArray();
        for (std::size_t i = 0; i < runs->size(); ++i) {
            if (several) w.beginObject().field("run", (*runs)[i].index).field("name", (*runs)[i].name).key("analysis");
            core::analysis::writeAnalysisJson(w, *(*runs)[i].trace, results[i].analysis,
                                              {.rankIndex = results[i].rankIndex, .includeCalls = o.calls});
            if (several) w.endObject();
        }
        if (several) w.endArray().endObject();
        std::cout << '\n';
        return exitCode;
    }
    for (std::size_t i = 0; i < runs->size(); ++i) {
        if (i > 0) std::cout << "\n\n";
        printAnalysisText(o, (*runs)[i], results[i].analysis, results[i].rankIndex);
    }
    if (exitCode != kExitOk) {
        std::cerr << "tpscope-cli: --strict: the trace was not understood (see NOT UNDERSTOOD above)\n";
    }
    return exitCode;
}

struct CompareOptions {
    std::vector<std::string> files;
    std::vector<std::string> runs;  // --run N|NAME: one per file, or several of one workspace
    std::optional<std::int64_t> rank;
    bool json = false;
    AnalysisCliOptions analysis;
};

// The runs compare sets side by side, each with the label it prints: every run of every file when
// no --run is given (a workspace's runs named "FILE: NAME"); one --run per file; or several --run of
// one workspace. Fewer than two runs is a command-line error.
core::Result<std::vector<std::pair<std::string, LoadedRun>>> compareInputs(const CompareOptions& o,
                                                                           const core::KernelClassifier* classifier) {
    std::vector<std::pair<std::string, LoadedRun>> out;
    if (o.files.size() == 1 && !isWorkspacePath(o.files.front())) {
        return core::makeError(core::ErrorCode::InvalidArgument,
                               "needs two runs or more: two files, or a workspace with several runs", "compare");
    }
    auto add = [&](const std::string& file, const std::string& selector) -> core::Status {
        auto runs = loadRuns(file, selector, nullptr, classifier);
        if (!runs) return runs.error();
        for (auto& r : *runs) out.emplace_back(r.of > 0 ? file + ": " + r.name : file, std::move(r));
        return core::Ok{};
    };
    if (o.runs.empty()) {
        for (const auto& f : o.files) {
            TPSCOPE_TRY(add(f, ""));
        }
    } else if (o.runs.size() == o.files.size()) {
        for (std::size_t i = 0; i < o.files.size(); ++i) {
            TPSCOPE_TRY(add(o.files[i], o.runs[i]));
        }
    } else if (o.files.size() == 1) {
        for (const auto& r : o.runs) {
            TPSCOPE_TRY(add(o.files.front(), r));
        }
    } else {
        return core::makeError(core::ErrorCode::InvalidArgument,
                               "give one --run per file, or several --run of one workspace", "--run");
    }
    if (out.size() < 2) {
        return core::makeError(core::ErrorCode::InvalidArgument,
                               "needs two runs or more: two files, or a workspace with several runs", "compare");
    }
    if (out.size() > 16) {
        return core::makeError(core::ErrorCode::InvalidArgument,
                               "compares at most 16 runs; choose some with --run N|NAME", "compare");
    }
    return out;
}

int runCompare(const CompareOptions& o) {
    std::vector<core::analysis::RunAnalysis> analyses;
    auto classifier = classifierFor(o.analysis.kernelRules);
    if (!classifier) return reportError(classifier.error());
    auto selected = compareInputs(o, *classifier ? &**classifier : nullptr);
    if (!selected) return reportError(selected.error());
    // The rank first (its id is the same before and after the clock sync): a wrong one before any analysis.
    std::vector<std::int64_t> rankIndices(selected->size(), -1);
    for (std::size_t i = 0; i < selected->size() && o.rank; ++i) {
        const auto& [label, run] = (*selected)[i];
        auto index = rankIndexOf(*run.trace, *o.rank);
        if (!index) return reportError(core::makeError(index.error().code, index.error().message, label));
        rankIndices[i] = *index;
    }
    auto clock = clockSyncOptions(o.analysis.clockSync, o.analysis.clockOffsets);
    if (!clock) return reportError(clock.error());
    std::vector<std::string> labels;
    for (auto& [label, run] : *selected) {
        auto done = analyzeRun(run, !o.analysis.kernelRules.empty(), *clock, o.analysis.toCore());
        if (!done) return reportError(done.error());
        analyses.push_back(std::move(done->analysis));
        labels.push_back(label);
    }
    std::vector<core::analysis::CompareInput> inputs;
    for (std::size_t i = 0; i < analyses.size(); ++i) inputs.push_back({labels[i], &analyses[i], rankIndices[i]});
    const auto c = core::analysis::compareRuns(inputs);
    if (o.json) {
        core::JsonWriter w(std::cout);
        core::analysis::writeComparisonJson(w, c);
        std::cout << '\n';
        return kExitOk;
    }
    TextTable runs({"run", "ranks", "step latency", "tokens/s", "exposed comm", "latency vs first"});
    for (const auto& r : c.runs) {
        runs.addRow({r.label, std::to_string(r.ranks), ns(r.stepLatencyNs), core::formatFixed(r.tokensPerSec, 1),
                     percentText(r.exposedCommShare), percentText(r.latencyDeltaFraction)});
    }
    runs.print(std::cout);
    std::vector<std::string> header{"layer"};
    for (std::size_t i = 0; i < c.runs.size(); ++i) header.push_back("wall #" + std::to_string(i + 1));
    for (std::size_t i = 1; i < c.runs.size(); ++i) header.push_back("delta #" + std::to_string(i + 1));
    std::cout << "\nPer layer wall time (mean), deltas vs run #1:\n";
    TextTable layers(header);
    for (const auto& row : c.layers) {
        std::vector<std::string> cells{std::to_string(row.layer)};
        for (const auto& cell : row.runs) cells.push_back(cell.present ? ns(cell.wallNs) : "-");
        for (std::size_t i = 1; i < row.runs.size(); ++i) {
            cells.push_back(std::isnan(row.wallDeltaNs[i])
                                ? "-"
                                : (row.wallDeltaNs[i] >= 0 ? "+" : "-") + ns(std::abs(row.wallDeltaNs[i])) + " (" +
                                      percentText(row.wallDeltaFraction[i]) + ")");
        }
        layers.addRow(cells);
    }
    layers.print(std::cout);
    return kExitOk;
}

}  // namespace

void addAnalyzeCommand(CLI::App& app, CliContext& ctx) {
    auto opts = std::make_shared<AnalyzeOptions>();
    auto* cmd =
        app.add_subcommand("analyze", "Per-layer communication gaps, sync wait vs transfer, and the step summary");
    cmd->add_option("file", opts->file, "Trace file (Kineto/Chrome JSON, nsys SQLite export, workspace)")->required();
    cmd->add_option("--rank", opts->rank, "Per-layer table of this rank only (default: mean over ranks)");
    addRunOption(*cmd, opts->run);
    addJsonFlag(*cmd, opts->json);
    cmd->add_flag("--calls", opts->calls,
                  "Every matched collective call: who arrived last, the wait per rank, transfer and busbw");
    cmd->add_flag("--strict", opts->strict,
                  "Exit with status 3 when a run is not understood: over 20 % of kernel time unclassified, no "
                  "layers, or the batch assumed");
    addAnalysisOptions(*cmd, opts->analysis);
    cmd->add_option("--fabric", opts->fabric,
                    "Fabric preset whose bus bandwidth single-rank all-reduces are held against (default: the "
                    "trace's metadata 'fabric')");
    cmd->callback([opts, &ctx] { ctx.exitCode = runAnalyze(*opts, ctx); });
}

void addCompareCommand(CLI::App& app, CliContext& ctx) {
    auto opts = std::make_shared<CompareOptions>();
    auto* cmd = app.add_subcommand("compare", "Runs side by side: per-layer deltas aligned by layer index");
    cmd->add_option("files", opts->files,
                    "Trace files or workspaces; deltas are against the first run (a workspace gives every run)")
        ->required()
        ->expected(1, 16);
    cmd->add_option("--run", opts->runs,
                    "N|NAME: one per file, or several of one workspace (repeatable; default: every run)")
        ->allow_extra_args(false);
    cmd->add_option("--rank", opts->rank, "Compare this rank only (default: mean over ranks)");
    cmd->add_flag("--json", opts->json, "Machine-readable output (docs/cli.md)");
    addAnalysisOptions(*cmd, opts->analysis);
    cmd->callback([opts, &ctx] { ctx.exitCode = runCompare(*opts); });
}

}  // namespace tpscope::cli
