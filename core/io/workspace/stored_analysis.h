// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// A run's analysis stored beside its trace (the `runs.analysis_cache` blob, docs/formats.md), so that
// reopening a large workspace skips the analysis: at 100 M events it is about half the open's time.
//
// Input: the RunAnalysis and the ClockEstimate derived from a run's trace, and the key they hold for.
// Mapping: every field of the result, one after another (LEB128 varints, zigzag for signed values and
// for the differences from the item before, doubles as their 8-byte bit pattern), in six sections
// (the run's summary and small tables; the segmentation; the collective calls; their participants; the
// layer x rank rows; the layer instances), each cut into zstd frames of about 1 MB between items, so
// that the sections are written and read on separate threads and a reader holds one frame at a time.
// A seventh holds what the timeline derives from the trace at the most cost: each rank's
// exposed-communication intervals (exposed_comm.h), as event chunks (stored_exposed_comm.cpp), read
// on their own before the analysis so that the timeline's rows draw sooner.
// The blob opens with "TPSA", the format version, the key and every frame's sizes (docs/formats.md).
// The key: a stored analysis is taken only by the build that wrote it (its version and git commit: the
// analysis of another build may differ; a build from a modified tree neither writes nor takes one,
// since two such builds of one commit may differ too), for the same batch option and the same trace
// (its GPU event and rank counts). Anything else reads as "not stored", and the run is analysed as
// before. Decoding checks every index against the trace (ranks, streams, events, names, rows), so a
// damaged or hostile blob is an error, never a crash.
// Cost: O(result) each way; at 100 M events (10 M layer x rank rows, 2.5 M calls, 20 M exposed
// intervals) 0.39 GB on disk (0.29 GB without the intervals), 0.9-1.3 s to read after the timeline's
// rows on the 2-core VM against 7.6-8.5 s to analyse (docs/PERFORMANCE.md).

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/analysis/analysis.h"
#include "core/analysis/clock_sync.h"
#include "core/io/workspace/workspace.h"
#include "core/trace/trace.h"
#include "core/util/result.h"

namespace tpscope::core {

struct StoredAnalysisKey {
    std::string build;  // storedAnalysisBuild(); empty: nothing is stored or taken
    int batch = 0;      // AnalysisOptions::batch the analysis ran with
};

// This binary's identity for stored analyses: "VERSION COMMIT", empty for a build from a modified tree.
std::string storedAnalysisBuild();

// The options a stored analysis of a run of batch `batch` is computed with: the defaults but the batch.
analysis::AnalysisOptions storedAnalysisOptions(int batch);

struct StoredAnalysis {
    analysis::RunAnalysis analysis;
    analysis::ClockEstimate clock;
};

// A blob above this is not stored (SQLite's default limit is 1e9 bytes a value): the run is analysed
// when it opens, as before.
inline constexpr std::size_t kMaxStoredAnalysisBytes = std::size_t{512} << 20;

// The blob for `trace`'s analysis. threads: 0 = one per hardware thread. exposedComm: each rank's
// exposed-communication columns (analysis::exposedCommColumns) where the caller holds them (the
// timeline's rows); empty: derived from the trace here. A blob that would be above maxBytes is written
// without the exposed communication (loadStoredExposedComm then reads none), and is an error if it is
// still above it.
Result<std::string> encodeStoredAnalysis(const analysis::RunAnalysis& analysis, const analysis::ClockEstimate& clock,
                                         const Trace& trace, const StoredAnalysisKey& key, unsigned threads = 0,
                                         std::span<const EventColumns* const> exposedComm = {},
                                         std::size_t maxBytes = kMaxStoredAnalysisBytes);
// nullopt when the blob was written for another key (build, batch or trace) or in a format this build
// does not read; an error when it claims this key but is damaged.
Result<std::optional<StoredAnalysis>> decodeStoredAnalysis(std::string_view blob, const Trace& trace,
                                                           const StoredAnalysisKey& key, unsigned threads = 0);

// The same, read in place from run `runIndex` (in run_id order) of the workspace at `path`: a frame at a
// time, never the whole blob in memory. nullopt also when the run stores none.
Result<std::optional<StoredAnalysis>> loadStoredAnalysis(const std::string& path, std::size_t runIndex,
                                                         const Trace& trace, const StoredAnalysisKey& key,
                                                         unsigned threads = 0);

// Each rank's exposed-communication intervals as stored with the analysis: analysis::exposedCommColumns
// of each Trace::ranks entry, finalized. Read under the same key as the analysis (nullopt: another
// build's, batch's or trace's, none stored, or left out of a blob too large with it), on one thread:
// 20 M intervals at 100 M events.
using StoredExposedComm = std::vector<EventColumns>;
Result<std::optional<StoredExposedComm>> decodeStoredExposedComm(std::string_view blob, const Trace& trace,
                                                                 const StoredAnalysisKey& key);
Result<std::optional<StoredExposedComm>> loadStoredExposedComm(const std::string& path, std::size_t runIndex,
                                                               const Trace& trace, const StoredAnalysisKey& key);

// Analyses `run`'s trace as the GUI does when it opens the run (the run's batch, the trace's clocks and
// their estimate beside them) and keeps the result in run.analysisCache under {build, run.info.batch},
// for writers that have no analysis at hand (`simulate --out`, `capture --out`, `convert`). Nothing is
// stored, and Ok returned, for a run without a trace or an empty build (a modified tree's).
Status storeAnalysis(Run& run, const std::string& build = storedAnalysisBuild(), unsigned threads = 0);

}  // namespace tpscope::core
