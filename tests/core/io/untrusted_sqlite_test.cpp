// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// SQLite files are untrusted (nsys exports and workspaces come from other people): a view or virtual
// table in place of an expected table is an error naming it, the work of a read is bounded relative
// to the file's size, SQLite's heap is capped, and allocation failures are errors.

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <new>

#include "core/io/import/trace_reader.h"
#include "core/io/sqlite_db.h"
#include "core/io/workspace/workspace.h"
#include "core/util/out_of_memory.h"
#include "io_test_util.h"
#include "synthetic_trace.h"

namespace tpscope::test {
namespace {

TEST(UntrustedSqlite, NsysViewInPlaceOfTheKernelTableIsAnErrorNamingIt) {
    TempDir dir;
    // A 1000-row recursive view: 1000 kernels from a file that holds none (unbounded with a larger limit).
    const auto path = makeDb(dir, "view.sqlite", R"sql(
      CREATE VIEW CUPTI_ACTIVITY_KIND_KERNEL AS
        WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 999)
        SELECT i * 10 AS start, i * 10 + 5 AS end, 0 AS deviceId, 7 AS streamId, 'k' AS shortName FROM n;)sql");
    auto trace = core::readTrace(path.string());
    ASSERT_FALSE(trace);
    EXPECT_EQ(trace.error().code, core::ErrorCode::WrongFormat);
    EXPECT_NE(trace.error().message.find("CUPTI_ACTIVITY_KIND_KERNEL is a view"), std::string::npos)
        << trace.error().describe();
}

TEST(UntrustedSqlite, WorkspaceWithAViewInPlaceOfRunsIsAnErrorNamingIt) {
    TempDir dir;
    const auto path = dir / "ws.tpscope";
    core::Workspace ws;
    ws.runs.push_back(core::Run{{"tp2", "m", "g", "f", 2, 1, 16, {}}, makeSyntheticTrace({2, 1, 3, 5}), std::nullopt});
    ASSERT_TRUE(core::saveWorkspace(ws, path.string()));
    ASSERT_TRUE(core::loadWorkspace(path.string()));
    execSql(path, "ALTER TABLE runs RENAME TO runs_real; CREATE VIEW runs AS SELECT * FROM runs_real;");
    auto loaded = core::loadWorkspace(path.string());
    ASSERT_FALSE(loaded);
    EXPECT_NE(loaded.error().message.find("runs is a view"), std::string::npos) << loaded.error().describe();
}

TEST(UntrustedSqlite, ReadOnlyDatabasesAreDefensiveWithAnUntrustedSchemaAndACappedHeap) {
    TempDir dir;
    const auto path = makeDb(dir, "t.sqlite", "CREATE TABLE t(x);");
    auto db = core::SqliteDb::open(path.string(), core::SqliteDb::Mode::ReadOnly);
    ASSERT_TRUE(db) << db.error().describe();
    int defensive = -1, trusted = -1;
    sqlite3_db_config(db->handle(), SQLITE_DBCONFIG_DEFENSIVE, -1, &defensive);
    sqlite3_db_config(db->handle(), SQLITE_DBCONFIG_TRUSTED_SCHEMA, -1, &trusted);
    EXPECT_EQ(defensive, 1);
    EXPECT_EQ(trusted, 0);
    EXPECT_EQ(sqlite3_hard_heap_limit64(-1), core::SqliteDb::kHeapLimitBytes);  // -1 only reads it
}

TEST(UntrustedSqlite, WorkFarBeyondTheFileSizeStopsWithAClearError) {
    TempDir dir;
    const auto path = makeDb(dir, "tiny.sqlite", "CREATE TABLE t(x);");
    auto db = core::SqliteDb::open(path.string(), core::SqliteDb::Mode::ReadOnly);
    ASSERT_TRUE(db);
    // A few KB of file allow kMinOps VM steps; this query needs about 30 per row for 1e9 rows.
    auto stmt = db->prepare(
        "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 1000000000) SELECT count(*) FROM n");
    ASSERT_TRUE(stmt);
    EXPECT_EQ(stmt->step() & 0xFF, SQLITE_INTERRUPT);
    const auto e = db->error("cannot count");
    EXPECT_EQ(e.code, core::ErrorCode::ParseError);
    EXPECT_NE(e.message.find("far more work than a file of its size"), std::string::npos) << e.describe();
}

TEST(UntrustedSqlite, OrdinaryReadsStayWellInsideTheBudget) {
    TempDir dir;
    const auto path = dir / "ws.tpscope";
    core::Workspace ws;
    ws.runs.push_back(
        core::Run{{"tp4", "m", "g", "f", 4, 8, 64, {}}, makeSyntheticTrace({4, 3, 200, 9}), std::nullopt});
    ASSERT_TRUE(core::saveWorkspace(ws, path.string()));
    auto loaded = core::loadWorkspace(path.string());
    ASSERT_TRUE(loaded) << loaded.error().describe();
    EXPECT_EQ(loaded->runs.at(0).trace->eventCount(), ws.runs[0].trace->eventCount());
}

TEST(UntrustedSqlite, AllocationFailureIsAnErrorNamingTheFile) {
    const core::Status s = core::withAllocationErrors([]() -> core::Status { throw std::bad_alloc(); }, "big.sqlite");
    ASSERT_FALSE(s);
    EXPECT_EQ(s.error().context, "big.sqlite");
    EXPECT_NE(s.error().message.find("out of memory"), std::string::npos);
}

}  // namespace
}  // namespace tpscope::test
