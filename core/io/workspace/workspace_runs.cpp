// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Opening a workspace and reading its runs (workspace_runs.h).

#include "core/io/workspace/workspace_runs.h"

#include "core/io/workspace/workspace_schema.h"

namespace tpscope::core {

Error damaged(const std::string& path, const std::string& what) {
    return makeError(ErrorCode::ParseError, "damaged workspace: " + what, path);
}

Result<SqliteDb> openWorkspace(const std::string& path) {
    auto db = SqliteDb::open(path, SqliteDb::Mode::ReadOnly);
    if (!db) return db.error();
    if (auto probe = db->prepare("SELECT count(*) FROM sqlite_master"); !probe || probe->step() != SQLITE_ROW) {
        return makeError(ErrorCode::WrongFormat, "not a tpscope workspace (not an SQLite database)", path);
    }
    // Workspaces come from other people too: every table read must be a real one.
    TPSCOPE_TRY(db->requireRealTables(
        {"tpscope_meta", "runs", "run_spec", "trace_tables", "trace_metadata", "ranks", "streams", "event_chunks"}));
    if (!isWorkspaceDatabase(*db)) {
        return makeError(ErrorCode::WrongFormat, "SQLite database that is not a tpscope workspace", path);
    }
    auto stmt = db->prepare("SELECT value FROM tpscope_meta WHERE key = 'schema_version'");
    if (!stmt || stmt->step() != SQLITE_ROW) return damaged(path, "no schema_version");
    const std::int64_t version = stmt->int64(0);
    if (version > kWorkspaceSchemaVersion) {
        return makeError(ErrorCode::Unsupported,
                         "this workspace was written by a newer tpscope (schema version " + std::to_string(version) +
                             "; this build reads up to " + std::to_string(kWorkspaceSchemaVersion) +
                             "). Update tpscope to open it.",
                         path);
    }
    if (version < 1) return damaged(path, "invalid schema_version");
    if (version >= 2) TPSCOPE_TRY(db->requireRealTables({"host_threads"}));
    if (version >= 3) TPSCOPE_TRY(db->requireRealTables({"run_excerpts"}));
    return db;
}

Result<std::vector<RunRow>> readRuns(SqliteDb& db, bool withAnalysisCache) {
    // The cache (a stored analysis: ~0.1 GB at 100 M events) is read only by the one caller that takes it.
    auto stmt = db.prepare(std::string("SELECT run_id, name, model, gpu, fabric, tp, batch, tokens, trace_origin, "
                                       "trace_source, ") +
                           (withAnalysisCache ? "analysis_cache" : "NULL") + " FROM runs ORDER BY run_id");
    if (!stmt) return stmt.error();
    std::vector<RunRow> runs;
    int rc = 0;
    while ((rc = stmt->step()) == SQLITE_ROW) {
        RunRow r;
        r.id = stmt->int64(0);
        r.info.name = std::string(stmt->text(1));
        r.info.model = std::string(stmt->text(2));
        r.info.gpu = std::string(stmt->text(3));
        r.info.fabric = std::string(stmt->text(4));
        r.info.tp = static_cast<int>(stmt->int64(5));
        r.info.batch = static_cast<int>(stmt->int64(6));
        r.info.tokens = stmt->int64(7);
        r.origin = parseTraceOrigin(stmt->text(8)).value_or(TraceOrigin::Unknown);
        r.source = std::string(stmt->text(9));
        if (!stmt->isNull(10)) {
            const auto b = stmt->blob(10);
            r.cache = std::string(reinterpret_cast<const char*>(b.data()), b.size());
        }
        runs.push_back(std::move(r));
    }
    if (rc != SQLITE_DONE) return db.error("cannot read runs");
    auto spec = db.prepare("SELECT run_id, key, value FROM run_spec ORDER BY run_id, position");
    if (!spec) return spec.error();
    while (spec->step() == SQLITE_ROW) {
        for (auto& r : runs) {
            if (r.id == spec->int64(0)) r.info.spec.emplace_back(spec->text(1), spec->text(2));
        }
    }
    return runs;
}

Status requireRun(const std::vector<RunRow>& runs, std::size_t runIndex, const std::string& path) {
    if (runIndex < runs.size()) return Ok{};
    return makeError(ErrorCode::NotFound,
                     "the workspace has " + std::to_string(runs.size()) + " runs; run " + std::to_string(runIndex) +
                         " does not exist",
                     path);
}

bool isWorkspaceDatabase(SqliteDb& db) {
    if (!db.hasTable("tpscope_meta")) return false;
    auto stmt = db.prepare("SELECT value FROM tpscope_meta WHERE key = 'format'");
    return stmt && stmt->step() == SQLITE_ROW && stmt->text(0) == kWorkspaceFormatName;
}

Result<std::vector<RunInfo>> listWorkspaceRuns(const std::string& path) {
    auto db = openWorkspace(path);
    if (!db) return db.error();
    auto runs = readRuns(*db);
    if (!runs) return runs.error();
    std::vector<RunInfo> out;
    for (auto& r : *runs) out.push_back(std::move(r.info));
    return out;
}

}  // namespace tpscope::core
