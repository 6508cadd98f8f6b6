// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Command-line options shared by analyze, scaling and compare: how layers are found in traces
// without NVTX ranges, the matching tolerance, and the batch size when the trace does not say.

#include <CLI/CLI.hpp>

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/analysis/analysis.h"
#include "core/analysis/clock_sync.h"
#include "core/analysis/synced_analysis.h"
#include "core/io/import/import_stats.h"
#include "core/trace/kernel_classifier.h"

namespace tpscope::cli {

struct AnalysisCliOptions {
    int blocksPerLayer = 2;
    bool blocksPerLayerGiven = false;  // chooses the pattern rule over the repeating kernel sequence
    int leadingBlocks = 0;
    int layersPerStep = 0;
    bool allCollectivesCloseBlocks = false;
    std::int64_t matchToleranceNs = 2000;
    int batch = 0;
    std::string clockSync = "auto";
    std::vector<std::string> clockOffsets;  // RANK=NS
    std::string kernelRules;                // --kernel-rules FILE: extra classification rules, tried first

    core::analysis::AnalysisOptions toCore() const;
};

// --clock-sync and --clock-offset alone (info takes these without the analysis options).
void addClockOptions(CLI::App& cmd, std::string& mode, std::vector<std::string>& offsets);
core::Result<core::analysis::ClockSyncOptions> clockSyncOptions(const std::string& mode,
                                                                const std::vector<std::string>& offsets);

// A loaded run on one clock: a corrected copy when a rank is shifted, else the run itself.
core::Result<std::shared_ptr<const core::Trace>> syncRunClocks(const std::shared_ptr<const core::Trace>& trace,
                                                               const std::string& mode,
                                                               const std::vector<std::string>& offsets,
                                                               core::analysis::ClockSyncResult* sync = nullptr);

// Run `runIndex` (0-based) of workspace `file`, its stored analysis where that is exactly what `options`
// compute on `clock` (core::takeStoredAnalysisOnOneClock), said on stderr ("FILE: run N: took the stored
// analysis", or why a damaged one was not taken); nullopt: the caller analyses the run. `analyze`,
// `compare` and `scaling` all (not with --kernel-rules: those classify kernels anew).
std::optional<core::analysis::SyncedAnalysis> takeStoredAnalysisSaid(const std::string& file, std::size_t runIndex,
                                                                     const std::shared_ptr<const core::Trace>& trace,
                                                                     int runBatch,
                                                                     const core::analysis::ClockSyncOptions& clock,
                                                                     const core::analysis::AnalysisOptions& options);

// Loads a trace and puts its ranks on one clock as the options say (core::analysis::synchronizeClocks).
core::Result<std::shared_ptr<const core::Trace>> loadSyncedTrace(const std::string& path, const std::string& mode,
                                                                 const std::vector<std::string>& offsets,
                                                                 core::analysis::ClockSyncResult* sync = nullptr,
                                                                 core::ImportStats* stats = nullptr,
                                                                 const core::KernelClassifier* classifier = nullptr);

// withBatch: scaling takes per-file batches itself.
void addAnalysisOptions(CLI::App& cmd, AnalysisCliOptions& o, bool withBatch = true);

// "--rank 3" names a RankId; the index of that rank in the trace, or an error listing the ranks.
core::Result<std::int64_t> rankIndexOf(const core::Trace& trace, std::int64_t rankId);

std::string percentText(double fraction);

}  // namespace tpscope::cli
