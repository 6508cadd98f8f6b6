// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// CSV and row-per-event SQLite exports of a trace.

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "core/io/export/csv_writer.h"
#include "core/io/export/sqlite_export.h"
#include "io_test_util.h"
#include "synthetic_trace.h"

namespace tpscope::test {
namespace {

std::vector<std::string> lines(const std::filesystem::path& p) {
    std::ifstream in(p);
    std::vector<std::string> out;
    for (std::string l; std::getline(in, l);) out.push_back(l);
    return out;
}

TEST(CsvExport, OneRowPerEventWithAHeader) {
    TempDir dir;
    const auto trace = makeSyntheticTrace({2, 1, 3, 4});
    ASSERT_TRUE(core::writeEventsCsv(*trace, (dir / "e.csv").string()));
    const auto rows = lines(dir / "e.csv");
    ASSERT_EQ(rows.size(), trace->eventCount() + 1);
    EXPECT_EQ(rows[0].substr(0, 40), "rank,host,device_index,stream_id,stream_");
    const auto columns = std::count(rows[0].begin(), rows[0].end(), ',') + 1;
    EXPECT_EQ(columns, 23);
    // Rows follow rank, then stream order: rank 0 on node0, device 0 first.
    EXPECT_EQ(rows[1].substr(0, 9), "0,node0,0");
    ASSERT_TRUE(core::writeRangesCsv(*trace, (dir / "r.csv").string()));
    std::size_t ranges = 0;
    for (const auto& r : trace->ranks) ranges += r.ranges.size();
    EXPECT_EQ(lines(dir / "r.csv").size(), ranges + 1);
}

TEST(CsvExport, FieldsWithCommasQuotesAndNewlinesAreQuoted) {
    std::string out;
    core::appendCsvRow(out, {"plain", "a,b", "say \"hi\"", "two\nlines", ""});
    EXPECT_EQ(out, "plain,\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\",\n");
}

TEST(SqliteExport, EventsAreQueryableWithSql) {
    TempDir dir;
    const auto trace = makeSyntheticTrace({3, 2, 4, 9});
    const auto path = (dir / "events.sqlite").string();
    ASSERT_TRUE(core::writeSqliteExport(*trace, path));
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
    auto scalar = [&](const char* sql) {
        sqlite3_stmt* s = nullptr;
        EXPECT_EQ(sqlite3_prepare_v2(db, sql, -1, &s, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
        std::int64_t v = -1;
        if (sqlite3_step(s) == SQLITE_ROW) v = sqlite3_column_int64(s, 0);
        sqlite3_finalize(s);
        return v;
    };
    EXPECT_EQ(scalar("SELECT count(*) FROM events"), static_cast<std::int64_t>(trace->eventCount()));
    std::int64_t collectiveNs = 0, collectives = 0;
    for (const auto& r : trace->ranks) {
        for (const auto& s : r.streams) {
            for (std::size_t i = 0; i < s.events.size(); ++i) {
                if (s.events.kind(i) != core::EventKind::Collective) continue;
                collectiveNs += s.events.durNs(i);
                ++collectives;
            }
        }
    }
    EXPECT_EQ(scalar("SELECT sum(dur_ns) FROM events WHERE kind = 'collective'"), collectiveNs);
    EXPECT_EQ(scalar("SELECT count(*) FROM events_named WHERE name LIKE 'ncclDevKernel_AllReduce%' AND bytes = 16384"),
              collectives);
    EXPECT_EQ(scalar("SELECT count(*) FROM ranks"), 3);
    EXPECT_EQ(scalar("SELECT sum(calls) FROM kernel_summary"), static_cast<std::int64_t>(trace->eventCount()));
    EXPECT_EQ(scalar("SELECT count(*) FROM ranges WHERE depth = 0"), 3 * 2);  // one step range per rank and step
    sqlite3_close(db);
}

}  // namespace
}  // namespace tpscope::test
