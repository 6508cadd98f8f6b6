// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The .tpscope workspace: one SQLite file holding many runs, each with its RunSpec-like description,
// its trace and an optional analysis cache. Format and tables: docs/formats.md.
//
// Events are stored per (rank, stream or host thread) in compressed columnar chunks of up to 65536 events
// (codec/event_codec.h): ~3-6 bytes per kernel event on disk. Saving writes a temporary file in the target
// folder and renames it over the target only after a successful commit and fsync, so a crash or a
// full disk mid-save leaves the previous file intact. Loading opens the file read-only (immutable),
// checks the schema version (a newer one is a clear error), then decodes chunks.
// Cost: O(events) both ways; chunks are independent (compressed/decoded on up to `threads` threads).

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/analysis/opening_excerpt.h"
#include "core/trace/trace.h"
#include "core/util/result.h"
#include "core/util/task_control.h"

namespace tpscope::core {

// 2: host threads (Rank::hostThreads) in `host_threads`, their chunks after the rank's streams.
// 3: blobs are zstd frames (codec/zstd.h): a reader of version 2 would take them for damaged zlib
// streams, so it is told the file is newer instead (blobs of older files stay zlib streams); and
// each large run's opening excerpt (`run_excerpts`, workspace_excerpt.h).
// 4: event chunks of streams whose columns are all narrow are in block form (codec::encodeEventBlocks):
// a reader of version 3 would take them for damaged chunks, so it is told the file is newer instead.
inline constexpr int kWorkspaceSchemaVersion = 4;

struct RunInfo {
    std::string name;
    std::string model;  // preset id or "custom"
    std::string gpu;
    std::string fabric;
    int tp = 0;
    int batch = 0;
    std::int64_t tokens = 0;                                // context length / tokens per request
    std::vector<std::pair<std::string, std::string>> spec;  // every other RunSpec field, as text
    bool operator==(const RunInfo&) const = default;
};

struct Run {
    RunInfo info;
    std::shared_ptr<const Trace> trace;
    std::optional<std::string> analysisCache;  // the stored analysis (stored_analysis.h); binary
};

// A workspace's own settings (what its reader showed: the price, the Compare set, the current run),
// as text, in `tpscope_meta` under keys "setting.KEY". Readers that do not know a key ignore it.
inline constexpr std::string_view kWorkspaceSettingPrefix = "setting.";

struct Workspace {
    std::vector<Run> runs;
    std::vector<std::pair<std::string, std::string>> settings;  // KEY (without the prefix), value
};

struct WorkspaceOptions {
    TaskControl control;
    unsigned threads = 0;  // 0: hardware threads
    // Event chunks and NVTX ranges are zstd frames at this level (1-19). Level 1 on decode traces: as
    // small as libdeflate's zlib level 1 (which wrote versions 1-2), and four times as fast to read.
    int compressionLevel = 1;
    // Loading: how far (compressed bytes) the reader may run ahead of the decoders.
    std::size_t readAheadBytes = std::size_t{32} << 20;
    // Saving: each run of at least this many GPU events gets its opening excerpt, which a reader shows
    // before the events are read (loadWorkspaceExcerpt). SIZE_MAX: none.
    std::size_t excerptMinEvents = analysis::kExcerptMinEvents;
    // Loading: whether Run::analysisCache is read (false: left empty, for a reader that takes the stored
    // analysis in place with loadStoredAnalysis, stored_analysis.h).
    bool readAnalysisCache = true;
    // Saving over an existing file: keep the previous one as NAME~ (a second link to it, else a copy),
    // made before the new file is renamed into place.
    bool keepBackup = false;
};

Status saveWorkspace(const Workspace& workspace, const std::string& path, const WorkspaceOptions& options = {});
Result<Workspace> loadWorkspace(const std::string& path, const WorkspaceOptions& options = {});
// The runs' descriptions only (fast: no events decoded).
Result<std::vector<RunInfo>> listWorkspaceRuns(const std::string& path);
// One run's opening excerpt (analysis/opening_excerpt.h) without reading the run's events: nullopt
// when the run has none (a small run, a trace without NVTX steps, a file older than schema 3). A few
// milliseconds. A damaged excerpt is an error, as a damaged run is.
Result<std::optional<analysis::OpeningExcerpt>> loadWorkspaceExcerpt(const std::string& path, std::size_t runIndex,
                                                                     const WorkspaceOptions& options = {});
// One run's trace, decoded into a fresh, mutable Trace.
Result<std::shared_ptr<Trace>> loadWorkspaceTrace(const std::string& path, std::size_t runIndex,
                                                  const WorkspaceOptions& options = {});

}  // namespace tpscope::core
