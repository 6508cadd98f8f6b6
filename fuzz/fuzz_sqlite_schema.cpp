// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// libFuzzer target: the SQLite readers (nsys export, workspace) on databases whose *schema* is
// fuzzed, not only their contents. The input is a small program: each step creates a table (columns
// and types drawn from the names the readers look up), a view or a recursive view in place of a
// table, a trigger, a virtual table, an index, inserts rows of any type (NULL, huge integers, text,
// blobs) or renames/drops a table. The resulting database is read as an nsys export (first byte
// even) or saved to tmpfs and opened as a workspace (odd). Views and virtual tables must be errors
// naming the table; every read must end (the work budget) within libFuzzer's -timeout.

#include <sqlite3.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <span>
#include <string>

#include "core/io/import/nsys_reader.h"
#include "core/io/workspace/workspace.h"

namespace {

constexpr const char* kNsysTables[] = {"StringIds",
                                       "TARGET_INFO_GPU",
                                       "TARGET_INFO_SESSION_START_TIME",
                                       "CUPTI_ACTIVITY_KIND_KERNEL",
                                       "CUPTI_ACTIVITY_KIND_MEMCPY",
                                       "CUPTI_ACTIVITY_KIND_MEMSET",
                                       "CUPTI_ACTIVITY_KIND_RUNTIME",
                                       "NVTX_EVENTS",
                                       "META_DATA_EXPORT"};
constexpr const char* kWorkspaceTables[] = {"tpscope_meta",   "runs",  "run_spec", "trace_tables",
                                            "trace_metadata", "ranks", "streams",  "event_chunks"};
constexpr const char* kColumns[] = {"id",        "value",     "name",          "start",         "end",
                                    "deviceId",  "streamId",  "correlationId", "demangledName", "shortName",
                                    "globalPid", "globalTid", "bytes",         "copyKind",      "utcEpochNs",
                                    "text",      "textId",    "eventType",     "key",           "run_id",
                                    "position",  "rank_id",   "host",          "chunk",         "event_count",
                                    "raw_bytes", "data",      "names"};
constexpr const char* kTypes[] = {"INTEGER", "TEXT", "BLOB", "REAL", "", "ANY", "INTEGER PRIMARY KEY"};

class Program {
  public:
    Program(const std::uint8_t* data, std::size_t size) : m_data(data), m_size(size) {}
    bool more() const { return m_pos < m_size; }
    std::uint8_t byte() { return m_pos < m_size ? m_data[m_pos++] : 0; }
    template <std::size_t N>
    const char* pick(const char* const (&list)[N]) {
        return list[byte() % N];
    }
    std::string value() {
        switch (byte() % 6) {
            case 0:
                return "NULL";
            case 1:
                return std::to_string(static_cast<std::int8_t>(byte()));
            case 2:
                return byte() % 2 ? "9223372036854775807" : "-9223372036854775808";
            case 3:
                return "'" + std::string(byte() % 16, 'a' + byte() % 26) + "'";
            case 4:
                return "zeroblob(" + std::to_string(byte() * 16) + ")";
            default:
                return std::to_string(byte()) + ".5e" + std::to_string(byte() % 40);
        }
    }

  private:
    const std::uint8_t* m_data;
    std::size_t m_size;
    std::size_t m_pos = 0;
};

std::string step(Program& p, const char* const* tables, std::size_t tableCount) {
    const std::string table = tables[p.byte() % tableCount];
    std::string cols;
    const int n = 1 + p.byte() % 6;
    for (int i = 0; i < n; ++i) {
        if (i > 0) cols += ", ";
        cols += std::string(p.pick(kColumns)) + " " + p.pick(kTypes);
    }
    switch (p.byte() % 9) {
        case 0:
        case 1:
            return "CREATE TABLE " + table + "(" + cols + ")";
        case 2:
            return "CREATE VIEW " + table + " AS SELECT " + p.value() + " AS " + p.pick(kColumns);
        case 3:
            return "CREATE VIEW " + table + " AS WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n) " +
                   "SELECT i AS " + p.pick(kColumns) + ", i AS " + p.pick(kColumns) + " FROM n";
        case 4:
            return "CREATE TRIGGER t" + std::to_string(p.byte()) + " AFTER INSERT ON " + table + " BEGIN DELETE FROM " +
                   table + "; END";
        case 5:
            return "CREATE VIRTUAL TABLE " + table + " USING fts5(" + p.pick(kColumns) + ")";
        case 6:
            return "CREATE INDEX i" + std::to_string(p.byte()) + " ON " + table + "(" + p.pick(kColumns) + ")";
        case 7: {
            std::string sql = "INSERT INTO " + table + " VALUES(" + p.value();
            const int values = p.byte() % 6;
            for (int i = 0; i < values; ++i) sql += ", " + p.value();
            return sql + ")";
        }
        default:
            return p.byte() % 2 ? "ALTER TABLE " + table + " RENAME TO " + tables[p.byte() % tableCount]
                                : "DROP TABLE " + table;
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace tpscope::core;
    Program p(data, size);
    const bool workspace = p.byte() % 2 == 1;
    sqlite3* raw = nullptr;
    if (sqlite3_open(":memory:", &raw) != SQLITE_OK) return 0;
    if (workspace) {
        sqlite3_exec(raw,
                     "CREATE TABLE tpscope_meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);"
                     "INSERT INTO tpscope_meta VALUES('format','tpscope-workspace'),('schema_version','1');",
                     nullptr, nullptr, nullptr);
    }
    for (int steps = 0; p.more() && steps < 64; ++steps) {
        const std::string sql = workspace ? step(p, kWorkspaceTables, std::size(kWorkspaceTables))
                                          : step(p, kNsysTables, std::size(kNsysTables));
        sqlite3_exec(raw, sql.c_str(), nullptr, nullptr, nullptr);  // invalid steps just fail
    }
    sqlite3_int64 bytes = 0;
    unsigned char* image = sqlite3_serialize(raw, "main", &bytes, 0);
    sqlite3_close(raw);
    if (image == nullptr) return 0;
    const std::span<const unsigned char> view(image, static_cast<std::size_t>(bytes));
    if (!workspace) {
        if (auto db = SqliteDb::fromBytes(view))
            (void)readNsysDatabase(*db, KernelClassifier::builtin(), TaskControl{});
    } else {
        const std::string path = "/dev/shm/tpscope-fuzz-schema-" + std::to_string(::getpid()) + ".tpscope";
        if (std::FILE* f = std::fopen(path.c_str(), "wb")) {
            std::fwrite(image, 1, view.size(), f);
            std::fclose(f);
            (void)loadWorkspace(path);
            std::remove(path.c_str());
        }
    }
    sqlite3_free(image);
    return 0;
}
