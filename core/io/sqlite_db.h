// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Thin RAII over the SQLite3 C API for the readers and writers of core/io: open (read-only files are
// opened immutable, so a file on a read-only disk or being read by another process is safe), prepared
// statements with typed column access, and errors that carry SQLite's message.
//
// Every file opened read-only is untrusted (nsys exports and workspaces come from other people):
//   - SQLITE_DBCONFIG_DEFENSIVE and PRAGMA trusted_schema=OFF: the schema cannot run functions or
//     virtual tables with side effects;
//   - hasTable() sees only real tables, and requireRealTables() makes a view or virtual table where a
//     reader expects a table an error naming it (a view can compute unbounded rows from a tiny file);
//   - the work is bounded by a progress handler: kOpsPerByte VM steps per byte of the file (plus a
//     floor), far above what a scan of real rows needs, so a crafted file stops with a clear error;
//   - SQLite's own heap is capped (kHeapLimitBytes, process-wide) so it fails with SQLITE_NOMEM
//     instead of exhausting the process.

#include <sqlite3.h>

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <set>
#include <span>
#include <string>
#include <string_view>

#include "core/util/result.h"

namespace tpscope::core {

class SqliteStmt {
  public:
    SqliteStmt() = default;
    SqliteStmt(sqlite3_stmt* stmt, sqlite3* db) : m_stmt(stmt), m_db(db) {}
    ~SqliteStmt();
    SqliteStmt(SqliteStmt&& o) noexcept;
    SqliteStmt& operator=(SqliteStmt&& o) noexcept;
    SqliteStmt(const SqliteStmt&) = delete;
    SqliteStmt& operator=(const SqliteStmt&) = delete;

    // SQLITE_ROW, SQLITE_DONE or an error code.
    int step() { return sqlite3_step(m_stmt); }
    void reset();

    void bind(int index, std::int64_t v) { sqlite3_bind_int64(m_stmt, index, v); }
    void bind(int index, std::string_view v) {
        sqlite3_bind_text64(m_stmt, index, v.data(), v.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
    }
    void bindBlob(int index, std::span<const unsigned char> v) {
        sqlite3_bind_blob64(m_stmt, index, v.data(), v.size(), SQLITE_STATIC);
    }
    void bindNull(int index) { sqlite3_bind_null(m_stmt, index); }

    bool isNull(int col) const { return sqlite3_column_type(m_stmt, col) == SQLITE_NULL; }
    int type(int col) const { return sqlite3_column_type(m_stmt, col); }
    std::int64_t int64(int col) const { return sqlite3_column_int64(m_stmt, col); }
    double real(int col) const { return sqlite3_column_double(m_stmt, col); }
    std::string_view text(int col) const;
    std::span<const unsigned char> blob(int col) const;

    sqlite3_stmt* handle() const { return m_stmt; }

  private:
    sqlite3_stmt* m_stmt = nullptr;
    sqlite3* m_db = nullptr;
};

class SqliteDb {
  public:
    enum class Mode { ReadOnly, ReadWriteCreate };

    static constexpr std::int64_t kOpsPerByte = 200;            // VM steps allowed per byte of an untrusted file
    static constexpr std::int64_t kMinOps = 20'000'000;         // floor for tiny files (~0.1 s of work)
    static constexpr std::int64_t kHeapLimitBytes = 1LL << 30;  // SQLite's heap, all connections together

    static Result<SqliteDb> open(const std::string& path, Mode mode);
    // An in-memory copy of a database image (for fuzzing and tests).
    static Result<SqliteDb> fromBytes(std::span<const unsigned char> image);

    SqliteDb() = default;
    ~SqliteDb();
    SqliteDb(SqliteDb&& o) noexcept;
    SqliteDb& operator=(SqliteDb&& o) noexcept;
    SqliteDb(const SqliteDb&) = delete;
    SqliteDb& operator=(const SqliteDb&) = delete;

    Status exec(const std::string& sql);
    // Closes now, reporting a failure (the destructor cannot).
    Status close();
    Result<SqliteStmt> prepare(std::string_view sql);
    // A real table of that name (not a view or virtual table).
    bool hasTable(std::string_view name);
    // Each of `names` that exists in the schema is a real table; otherwise an error naming it.
    Status requireRealTables(std::initializer_list<std::string_view> names);
    std::set<std::string> columns(std::string_view table);
    Error error(const std::string& what) const;  // includes sqlite3_errmsg
    sqlite3* handle() const { return m_db; }
    const std::string& path() const { return m_path; }

  private:
    void makeUntrusted(std::uint64_t fileBytes);

    sqlite3* m_db = nullptr;
    std::string m_path;
    // Progress-handler calls left before an untrusted read is stopped (a stable address for the handler).
    std::unique_ptr<std::int64_t> m_ticksLeft;
};

}  // namespace tpscope::core
