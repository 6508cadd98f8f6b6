// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Tables of the .tpscope workspace, schema version kWorkspaceSchemaVersion (docs/formats.md has the
// full description). Versioning rule: a reader accepts any schema_version <= its own and refuses a
// newer one with a clear message; new optional columns/tables bump the version. Chunks are inserted
// in (rank, stream, chunk) order and read back in rowid order. A rank's host threads (version 2)
// take the stream positions after its streams: host thread h of a rank with S streams is S + h.
// A run's opening excerpt (version 3) is stored in the same tables under a negative id
// (run_excerpts.excerpt_id, workspace_excerpt.h), which no run has.

#include "core/io/sqlite_db.h"
#include "core/trace/trace.h"

namespace tpscope::core {

inline constexpr const char* kWorkspaceFormatName = "tpscope-workspace";

inline constexpr const char* kWorkspaceDdl = R"sql(
CREATE TABLE tpscope_meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE runs(
  run_id INTEGER PRIMARY KEY, name TEXT NOT NULL, model TEXT NOT NULL, gpu TEXT NOT NULL, fabric TEXT NOT NULL,
  tp INTEGER NOT NULL, batch INTEGER NOT NULL, tokens INTEGER NOT NULL,
  trace_origin TEXT, trace_source TEXT, event_count INTEGER NOT NULL, analysis_cache BLOB);
CREATE TABLE run_spec(run_id INTEGER NOT NULL, position INTEGER NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL);
CREATE TABLE trace_metadata(run_id INTEGER NOT NULL, position INTEGER NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL);
CREATE TABLE trace_tables(run_id INTEGER PRIMARY KEY, names BLOB NOT NULL, names_raw_bytes INTEGER NOT NULL,
  payloads BLOB NOT NULL, payloads_raw_bytes INTEGER NOT NULL);
CREATE TABLE ranks(run_id INTEGER NOT NULL, position INTEGER NOT NULL, rank_id INTEGER NOT NULL, host TEXT NOT NULL,
  device_index INTEGER NOT NULL, device_name TEXT NOT NULL, clock_offset_ns INTEGER NOT NULL,
  range_count INTEGER NOT NULL, ranges BLOB NOT NULL, ranges_raw_bytes INTEGER NOT NULL);
CREATE TABLE streams(run_id INTEGER NOT NULL, rank_position INTEGER NOT NULL, position INTEGER NOT NULL,
  stream_id INTEGER NOT NULL, label TEXT NOT NULL, event_count INTEGER NOT NULL);
CREATE TABLE host_threads(run_id INTEGER NOT NULL, rank_position INTEGER NOT NULL, position INTEGER NOT NULL,
  thread_id INTEGER NOT NULL, label TEXT NOT NULL, event_count INTEGER NOT NULL);
CREATE TABLE event_chunks(run_id INTEGER NOT NULL, rank_position INTEGER NOT NULL, stream_position INTEGER NOT NULL,
  chunk INTEGER NOT NULL, event_count INTEGER NOT NULL, raw_bytes INTEGER NOT NULL, data BLOB NOT NULL);
CREATE INDEX event_chunks_by_run ON event_chunks(run_id);
CREATE TABLE run_excerpts(run_id INTEGER PRIMARY KEY, excerpt_id INTEGER NOT NULL, window_start_ns INTEGER NOT NULL,
  window_end_ns INTEGER NOT NULL, trace_start_ns INTEGER NOT NULL, trace_end_ns INTEGER NOT NULL,
  trace_event_count INTEGER NOT NULL, totals BLOB NOT NULL);
)sql";

// The events of slot `position` of a rank: its streams first, then its host threads.
inline const EventColumns& slotEvents(const Rank& rank, std::size_t position) {
    return position < rank.streams.size() ? rank.streams[position].events
                                          : rank.hostThreads[position - rank.streams.size()].events;
}
inline std::size_t slotCount(const Rank& rank) {
    return rank.streams.size() + rank.hostThreads.size();
}

// True when db has the tpscope_meta table naming the workspace format (any version).
bool isWorkspaceDatabase(SqliteDb& db);

}  // namespace tpscope::core
