// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The workspace reader's own parts, shared by its files and by no one else (the public API is
// workspace.h): opening a file as a workspace (schema version checked, every table it reads a real
// one), its run rows, and one run's trace read from the run tables under a run (or excerpt) id.
//   workspace_runs.cpp: opening, the run rows, the run list;
//   workspace_load.cpp: a run's trace (chunks read and decoded on worker threads), whole workspaces;
//   workspace_excerpt.cpp: a run's opening excerpt.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/io/sqlite_db.h"
#include "core/io/workspace/workspace.h"

namespace tpscope::core {

struct RunRow {
    std::int64_t id = 0;
    RunInfo info;
    TraceOrigin origin = TraceOrigin::Unknown;
    std::string source;
    std::optional<std::string> cache;
};

Error damaged(const std::string& path, const std::string& what);
// Read-only (immutable); a newer schema version, a database that is not a workspace or a missing
// table is an error.
Result<SqliteDb> openWorkspace(const std::string& path);
// RunRow::cache is read only withAnalysisCache (left empty otherwise).
Result<std::vector<RunRow>> readRuns(SqliteDb& db, bool withAnalysisCache = false);
// NotFound when runIndex is past the runs.
Status requireRun(const std::vector<RunRow>& runs, std::size_t runIndex, const std::string& path);
// The trace stored under run.id (a run's, or an excerpt's negative id), with run.origin.
Result<std::shared_ptr<Trace>> readTrace(SqliteDb& db, const RunRow& run, const WorkspaceOptions& opt);

}  // namespace tpscope::core
