// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "analysis_options.h"

#include <algorithm>
#include <iostream>

#include "cli_context.h"
#include "core/io/workspace/stored_analysis_take.h"
#include "core/util/units.h"

namespace tpscope::cli {

core::analysis::AnalysisOptions AnalysisCliOptions::toCore() const {
    core::analysis::AnalysisOptions o;
    o.segmentation.blocksPerLayer = blocksPerLayer;
    o.segmentation.leadingBlocks = leadingBlocks;
    o.segmentation.layersPerStep = layersPerStep;
    o.segmentation.allCollectivesCloseBlocks = allCollectivesCloseBlocks;
    o.segmentation.patternOnly = blocksPerLayerGiven;
    o.matching.toleranceNs = matchToleranceNs;
    o.batch = batch;
    return o;
}

void addAnalysisOptions(CLI::App& cmd, AnalysisCliOptions& o, bool withBatch) {
    if (withBatch) cmd.add_option("--batch", o.batch, "Batch size (default: trace metadata 'batch', else 1)");
    cmd.add_option_function<int>(
           "--blocks-per-layer",
           [&o](const int& blocks) {
               o.blocksPerLayer = blocks;
               o.blocksPerLayerGiven = true;
           },
           "Traces without NVTX layer ranges: collective-closed blocks per layer (given: the pattern rule, not "
           "the repeating kernel sequence)")
        ->check(positiveNumber())
        ->default_str(std::to_string(o.blocksPerLayer));
    cmd.add_option("--leading-blocks", o.leadingBlocks,
                   "Traces without NVTX layer ranges: blocks before layer 0 in each step (e.g. 1 for an embedding "
                   "all-reduce)")
        ->check(nonNegativeNumber())
        ->capture_default_str();
    cmd.add_option("--layers-per-step", o.layersPerStep,
                   "Traces without NVTX step ranges: layers per decode step (0: the whole trace is one step)")
        ->check(nonNegativeNumber())
        ->capture_default_str();
    cmd.add_flag("--all-collectives-close-blocks", o.allCollectivesCloseBlocks,
                 "Every collective ends a block, not only all-reduces");
    cmd.add_option("--match-tolerance-ns", o.matchToleranceNs,
                   "Clock-skew allowance when matching collectives across ranks; negative: call order only")
        ->capture_default_str();
    addKernelRulesOption(cmd, o.kernelRules);
    addClockOptions(cmd, o.clockSync, o.clockOffsets);
}

void addClockOptions(CLI::App& cmd, std::string& mode, std::vector<std::string>& offsets) {
    cmd.add_option("--clock-sync", mode,
                   "Ranks on unrelated clocks: auto (apply the offsets estimated from matched collectives when one "
                   "exceeds 20 us), on, off")
        ->check(CLI::IsMember({"auto", "on", "off"}))
        ->capture_default_str();
    cmd.add_option("--clock-offset", offsets,
                   "RANK=NS: add NS to that rank's timestamps instead of the estimate (repeatable)");
}

core::Result<core::analysis::ClockSyncOptions> clockSyncOptions(const std::string& mode,
                                                                const std::vector<std::string>& offsets) {
    core::analysis::ClockSyncOptions o;
    o.mode = mode == "on"    ? core::analysis::ClockSyncMode::On
             : mode == "off" ? core::analysis::ClockSyncMode::Off
                             : core::analysis::ClockSyncMode::Auto;
    for (const auto& text : offsets) {
        auto parsed = core::analysis::parseClockOverride(text);
        if (!parsed) return parsed.error();
        o.overrides.push_back(*parsed);
    }
    return o;
}

core::Result<std::shared_ptr<const core::Trace>> loadSyncedTrace(const std::string& path, const std::string& mode,
                                                                 const std::vector<std::string>& offsets,
                                                                 core::analysis::ClockSyncResult* sync,
                                                                 core::ImportStats* stats,
                                                                 const core::KernelClassifier* classifier) {
    auto options = clockSyncOptions(mode, offsets);
    if (!options) return options.error();
    auto trace = loadMutableTraceFile(path, stats, classifier);
    if (!trace) return trace.error();
    auto result = core::analysis::synchronizeClocks(**trace, *options);
    if (!result) return result.error();
    if (sync != nullptr) *sync = std::move(*result);
    return std::shared_ptr<const core::Trace>(std::move(*trace));
}

core::Result<std::shared_ptr<const core::Trace>> syncRunClocks(const std::shared_ptr<const core::Trace>& trace,
                                                               const std::string& mode,
                                                               const std::vector<std::string>& offsets,
                                                               core::analysis::ClockSyncResult* sync) {
    auto options = clockSyncOptions(mode, offsets);
    if (!options) return options.error();
    auto plan = core::analysis::planClockSync(*trace, *options);
    if (!plan) return plan.error();
    // The trace is shared and immutable: copied (gigabytes at 100 M events) only when a rank moves.
    std::shared_ptr<const core::Trace> synced = trace;
    if (plan->shiftsAnyRank()) {
        auto copy = std::make_shared<core::Trace>(*trace);
        core::analysis::applyClockSync(*copy, *plan);
        synced = std::move(copy);
    }
    if (sync != nullptr) *sync = std::move(*plan);
    return synced;
}

std::optional<core::analysis::SyncedAnalysis> takeStoredAnalysisSaid(const std::string& file, std::size_t runIndex,
                                                                     const std::shared_ptr<const core::Trace>& trace,
                                                                     int runBatch,
                                                                     const core::analysis::ClockSyncOptions& clock,
                                                                     const core::analysis::AnalysisOptions& options) {
    const std::string which = file + ": run " + std::to_string(runIndex + 1);
    auto stored = core::takeStoredAnalysisOnOneClock(file, runIndex, trace, runBatch, clock, options);
    if (!stored) {
        std::cerr << "tpscope-cli: note: " << which << ": stored analysis not taken (" << stored.error().describe()
                  << "); analysing the run\n";
        return std::nullopt;
    }
    if (stored->has_value()) std::cerr << "tpscope-cli: note: " << which << ": took the stored analysis\n";
    return std::move(*stored);
}

core::Result<std::int64_t> rankIndexOf(const core::Trace& trace, std::int64_t rankId) {
    std::string known;
    for (std::size_t i = 0; i < trace.ranks.size(); ++i) {
        if (static_cast<std::int64_t>(trace.ranks[i].id.value) == rankId) return static_cast<std::int64_t>(i);
        known += (known.empty() ? "" : ", ") + std::to_string(trace.ranks[i].id.value);
    }
    return core::makeError(core::ErrorCode::InvalidArgument,
                           "no rank " + std::to_string(rankId) + " in the trace (ranks: " + known + ")", "--rank");
}

std::string percentText(double fraction) {
    return core::formatFixed(fraction * 100.0, 1) + " %";
}

}  // namespace tpscope::cli
