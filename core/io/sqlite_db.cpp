// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/io/sqlite_db.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <mutex>

namespace tpscope::core {

namespace {

// file: URI for a path: '%', '?' and '#' are escaped so any file name works.
std::string fileUri(const std::string& path, std::string_view query) {
    std::string uri = "file:";
    for (const char c : path) {
        if (c == '%' || c == '?' || c == '#') {
            static constexpr std::string_view kHex = "0123456789ABCDEF";
            uri += '%';
            uri += kHex[(static_cast<unsigned char>(c) >> 4) & 0xF];
            uri += kHex[static_cast<unsigned char>(c) & 0xF];
        } else {
            uri += c;
        }
    }
    uri += query;
    return uri;
}

constexpr int kOpsPerTick = 10000;  // VM steps between progress-handler calls

int onProgress(void* budget) {
    auto* b = static_cast<std::int64_t*>(budget);
    return --*b < 0 ? 1 : 0;  // non-zero interrupts the statement (SQLITE_INTERRUPT)
}

void capSqliteHeap() {
    static std::once_flag once;
    std::call_once(once, [] { sqlite3_hard_heap_limit64(SqliteDb::kHeapLimitBytes); });
}

}  // namespace

SqliteStmt::~SqliteStmt() {
    if (m_stmt != nullptr) sqlite3_finalize(m_stmt);
}

SqliteStmt::SqliteStmt(SqliteStmt&& o) noexcept : m_stmt(o.m_stmt), m_db(o.m_db) {
    o.m_stmt = nullptr;
}

SqliteStmt& SqliteStmt::operator=(SqliteStmt&& o) noexcept {
    if (this != &o) {
        if (m_stmt != nullptr) sqlite3_finalize(m_stmt);
        m_stmt = o.m_stmt;
        m_db = o.m_db;
        o.m_stmt = nullptr;
    }
    return *this;
}

void SqliteStmt::reset() {
    sqlite3_reset(m_stmt);
    sqlite3_clear_bindings(m_stmt);
}

std::string_view SqliteStmt::text(int col) const {
    const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(m_stmt, col));
    if (p == nullptr) return {};
    return {p, static_cast<std::size_t>(sqlite3_column_bytes(m_stmt, col))};
}

std::span<const unsigned char> SqliteStmt::blob(int col) const {
    const auto* p = static_cast<const unsigned char*>(sqlite3_column_blob(m_stmt, col));
    if (p == nullptr) return {};
    return {p, static_cast<std::size_t>(sqlite3_column_bytes(m_stmt, col))};
}

SqliteDb::~SqliteDb() {
    if (m_db != nullptr) sqlite3_close_v2(m_db);
}

SqliteDb::SqliteDb(SqliteDb&& o) noexcept
    : m_db(o.m_db), m_path(std::move(o.m_path)), m_ticksLeft(std::move(o.m_ticksLeft)) {
    o.m_db = nullptr;
}

SqliteDb& SqliteDb::operator=(SqliteDb&& o) noexcept {
    if (this != &o) {
        if (m_db != nullptr) sqlite3_close_v2(m_db);
        m_db = o.m_db;
        m_path = std::move(o.m_path);
        m_ticksLeft = std::move(o.m_ticksLeft);
        o.m_db = nullptr;
    }
    return *this;
}

Result<SqliteDb> SqliteDb::open(const std::string& path, Mode mode) {
    SqliteDb db;
    db.m_path = path;
    int rc = 0;
    if (mode == Mode::ReadOnly) {
        // immutable: no locks, no journal: safe on read-only media; our own saves replace files by
        // rename, so the file being read never changes underneath.
        rc = sqlite3_open_v2(fileUri(path, "?immutable=1").c_str(), &db.m_db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI,
                             nullptr);
    } else {
        rc = sqlite3_open_v2(path.c_str(), &db.m_db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
    }
    if (rc != SQLITE_OK) {
        Error e = db.error("cannot open database");
        return e;
    }
    sqlite3_extended_result_codes(db.m_db, 1);
    // Defence against corrupt files: check cell sizes as pages are read.
    (void)db.exec("PRAGMA cell_size_check=ON");
    if (mode == Mode::ReadOnly) {
        std::error_code ec;
        const auto bytes = std::filesystem::file_size(path, ec);
        db.makeUntrusted(ec ? 0 : bytes);
    }
    return db;
}

void SqliteDb::makeUntrusted(std::uint64_t fileBytes) {
    capSqliteHeap();
    sqlite3_db_config(m_db, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
    sqlite3_db_config(m_db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, nullptr);
    (void)exec("PRAGMA trusted_schema=OFF");
    const double ops = std::max(static_cast<double>(kMinOps), static_cast<double>(fileBytes) * kOpsPerByte);
    m_ticksLeft = std::make_unique<std::int64_t>(static_cast<std::int64_t>(std::min(ops / kOpsPerTick, 1e15)));
    sqlite3_progress_handler(m_db, kOpsPerTick, onProgress, m_ticksLeft.get());
}

Result<SqliteDb> SqliteDb::fromBytes(std::span<const unsigned char> image) {
    SqliteDb db;
    db.m_path = "<memory>";
    if (sqlite3_open_v2(":memory:", &db.m_db, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK) {
        return db.error("cannot open in-memory database");
    }
    auto* copy = static_cast<unsigned char*>(sqlite3_malloc64(image.size() == 0 ? 1 : image.size()));
    if (copy == nullptr) return makeError(ErrorCode::Internal, "out of memory");
    if (!image.empty()) std::memcpy(copy, image.data(), image.size());
    const int rc = sqlite3_deserialize(db.m_db, "main", copy, static_cast<sqlite3_int64>(image.size()),
                                       static_cast<sqlite3_int64>(image.size()),
                                       SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_READONLY);
    if (rc != SQLITE_OK) return db.error("cannot load database image");
    (void)db.exec("PRAGMA cell_size_check=ON");
    db.makeUntrusted(image.size());
    return db;
}

Status SqliteDb::close() {
    if (m_db == nullptr) return Ok{};
    if (sqlite3_close(m_db) != SQLITE_OK) return error("cannot close the database");
    m_db = nullptr;
    return Ok{};
}

Error SqliteDb::error(const std::string& what) const {
    const char* msg = m_db != nullptr ? sqlite3_errmsg(m_db) : "out of memory";
    const int code = m_db != nullptr ? sqlite3_errcode(m_db) & 0xFF : SQLITE_NOMEM;
    ErrorCode ec = ErrorCode::IoError;
    if (code == SQLITE_NOTADB || code == SQLITE_CORRUPT) ec = ErrorCode::WrongFormat;
    if (code == SQLITE_CANTOPEN) ec = ErrorCode::NotFound;
    if (code == SQLITE_INTERRUPT && m_ticksLeft != nullptr && *m_ticksLeft < 0) {
        return makeError(ErrorCode::ParseError,
                         what +
                             ": the database needs far more work than a file of its size can hold "
                             "(crafted or damaged file); reading stopped",
                         m_path);
    }
    if (code == SQLITE_NOMEM) {
        return makeError(ErrorCode::IoError,
                         what + ": SQLite ran out of memory (its limit is " + std::to_string(kHeapLimitBytes >> 20) +
                             " MiB); the file is damaged or crafted",
                         m_path);
    }
    return makeError(ec, what + ": " + msg, m_path);
}

Status SqliteDb::exec(const std::string& sql) {
    char* msg = nullptr;
    if (sqlite3_exec(m_db, sql.c_str(), nullptr, nullptr, &msg) != SQLITE_OK) {
        std::string text = msg != nullptr ? msg : "unknown error";
        sqlite3_free(msg);
        Error e = error("SQL failed");
        e.message = "SQL failed: " + text;
        return e;
    }
    return Ok{};
}

Result<SqliteStmt> SqliteDb::prepare(std::string_view sql) {
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(m_db, sql.data(), static_cast<int>(sql.size()), &stmt, nullptr) != SQLITE_OK) {
        return error("cannot prepare \"" + std::string(sql.substr(0, 80)) + "\"");
    }
    return SqliteStmt(stmt, m_db);
}

bool SqliteDb::hasTable(std::string_view name) {
    auto stmt =
        prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1 AND sql NOT LIKE 'CREATE VIRTUAL%'");
    if (!stmt) return false;
    stmt->bind(1, name);
    return stmt->step() == SQLITE_ROW;
}

Status SqliteDb::requireRealTables(std::initializer_list<std::string_view> names) {
    auto stmt = prepare("SELECT type, sql LIKE 'CREATE VIRTUAL%' FROM sqlite_master WHERE name = ?1 COLLATE NOCASE");
    if (!stmt) return stmt.error();
    for (const std::string_view name : names) {
        stmt->reset();
        stmt->bind(1, name);
        int rc = 0;
        while ((rc = stmt->step()) == SQLITE_ROW) {
            const std::string_view type = stmt->text(0);
            if (type == "table" && stmt->int64(1) == 0) continue;
            if (type != "table" && type != "view") continue;  // an index or trigger of that name is harmless
            const char* what = type == "view" ? "a view" : "a virtual table";
            return makeError(ErrorCode::WrongFormat,
                             std::string(name) + " is " + what +
                                 ", not a table: refusing a database whose expected tables are computed",
                             m_path);
        }
        if (rc != SQLITE_DONE) return error("cannot read the schema");
    }
    return Ok{};
}

std::set<std::string> SqliteDb::columns(std::string_view table) {
    std::set<std::string> out;
    auto stmt = prepare("SELECT name FROM pragma_table_info(?1)");
    if (!stmt) return out;
    stmt->bind(1, table);
    while (stmt->step() == SQLITE_ROW) out.emplace(stmt->text(0));
    return out;
}

}  // namespace tpscope::core
