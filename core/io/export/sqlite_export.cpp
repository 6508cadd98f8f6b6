// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/io/export/sqlite_export.h"

#include "core/io/export/output_file.h"
#include "core/io/sqlite_db.h"

namespace tpscope::core {

namespace {

constexpr const char* kSchema = R"sql(
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE trace_metadata(key TEXT NOT NULL, value TEXT NOT NULL);
CREATE TABLE ranks(rank_id INTEGER PRIMARY KEY, host TEXT, device_index INTEGER, device_name TEXT,
  clock_offset_ns INTEGER);
CREATE TABLE streams(rank_id INTEGER NOT NULL, stream_id INTEGER NOT NULL, label TEXT, event_count INTEGER);
CREATE TABLE names(name_id INTEGER PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE events(rank_id INTEGER NOT NULL, stream_id INTEGER NOT NULL, start_ns INTEGER NOT NULL,
  dur_ns INTEGER NOT NULL, end_ns INTEGER NOT NULL, kind TEXT NOT NULL, name_id INTEGER NOT NULL,
  correlation_id INTEGER, payload TEXT, collective_op TEXT, algorithm TEXT, protocol TEXT, dtype TEXT,
  group_size INTEGER, communicator TEXT, bytes INTEGER, gemm_m INTEGER, gemm_n INTEGER, gemm_k INTEGER,
  copy_kind TEXT);
CREATE TABLE ranges(rank_id INTEGER NOT NULL, start_ns INTEGER NOT NULL, end_ns INTEGER NOT NULL,
  depth INTEGER NOT NULL, name_id INTEGER NOT NULL);
CREATE VIEW events_named AS SELECT e.*, n.name AS name FROM events e JOIN names n USING(name_id);
CREATE VIEW kernel_summary AS SELECT n.name AS name, e.kind AS kind, count(*) AS calls,
  sum(e.dur_ns) AS total_ns, avg(e.dur_ns) AS mean_ns FROM events e JOIN names n USING(name_id)
  GROUP BY e.name_id ORDER BY total_ns DESC;
)sql";

Status step(SqliteDb& db, SqliteStmt& stmt) {
    if (stmt.step() != SQLITE_DONE) return db.error("write failed");
    stmt.reset();
    return Ok{};
}

void bindPayload(SqliteStmt& s, const Trace& trace, const Payload& p) {
    for (int col = 9; col <= 20; ++col) s.bindNull(col);
    switch (p.kind) {
        case PayloadKind::Collective:
            s.bind(9, std::string_view("collective"));
            s.bind(10, toString(p.collective.op));
            s.bind(11, toString(p.collective.algo));
            s.bind(12, toString(p.collective.proto));
            s.bind(13, toString(p.collective.dtype));
            s.bind(14, std::int64_t{p.collective.groupSize});
            s.bind(15, trace.name(p.collective.communicator));
            s.bind(16, static_cast<std::int64_t>(p.collective.bytes));
            break;
        case PayloadKind::Gemm:
            s.bind(9, std::string_view("gemm"));
            s.bind(13, toString(p.gemm.dtype));
            s.bind(17, std::int64_t{p.gemm.m});
            s.bind(18, std::int64_t{p.gemm.n});
            s.bind(19, std::int64_t{p.gemm.k});
            break;
        case PayloadKind::Copy:
            s.bind(9, std::string_view("copy"));
            s.bind(16, static_cast<std::int64_t>(p.copy.bytes));
            s.bind(20, toString(p.copy.kind));
            break;
        case PayloadKind::None:
            break;
    }
}

// meta, trace_metadata and names.
Status writeTables(SqliteDb& db, const Trace& trace) {
    auto kv = db.prepare("INSERT INTO meta VALUES(?1, ?2)");
    if (!kv) return kv.error();
    for (const auto& [k, v] :
         std::initializer_list<std::pair<std::string_view, std::string_view>>{{"format", "tpscope-events"},
                                                                              {"version", "1"},
                                                                              {"origin", toString(trace.origin)},
                                                                              {"source", trace.source}}) {
        kv->bind(1, k);
        kv->bind(2, v);
        TPSCOPE_TRY(step(db, *kv));
    }
    auto md = db.prepare("INSERT INTO trace_metadata VALUES(?1, ?2)");
    if (!md) return md.error();
    for (const auto& [k, v] : trace.metadata) {
        md->bind(1, k);
        md->bind(2, v);
        TPSCOPE_TRY(step(db, *md));
    }
    auto names = db.prepare("INSERT INTO names VALUES(?1, ?2)");
    if (!names) return names.error();
    for (std::uint32_t i = 0; i < trace.names.size(); ++i) {
        names->bind(1, std::int64_t{i});
        names->bind(2, trace.name(NameId{i}));
        TPSCOPE_TRY(step(db, *names));
    }
    return Ok{};
}

// The prepared inserts of the per-rank tables and a running event count for progress.
struct RankWriter {
    SqliteStmt ranks, streams, ranges, events;
    double total = 1;
    std::size_t written = 0;
};

Status writeRank(SqliteDb& db, const Trace& trace, const Rank& r, RankWriter& w, const TaskControl& control) {
    const auto rankId = std::int64_t{r.id.value};
    w.ranks.bind(1, rankId);
    w.ranks.bind(2, r.host);
    w.ranks.bind(3, std::int64_t{r.deviceIndex});
    w.ranks.bind(4, r.deviceName);
    w.ranks.bind(5, r.clockOffsetNs);
    TPSCOPE_TRY(step(db, w.ranks));
    for (const auto& range : r.ranges) {
        w.ranges.bind(1, rankId);
        w.ranges.bind(2, range.startNs);
        w.ranges.bind(3, range.endNs);
        w.ranges.bind(4, std::int64_t{range.depth});
        w.ranges.bind(5, std::int64_t{range.name.value});
        TPSCOPE_TRY(step(db, w.ranges));
    }
    for (const auto& s : r.streams) {
        const auto streamId = static_cast<std::int64_t>(s.id.value);
        w.streams.bind(1, rankId);
        w.streams.bind(2, streamId);
        w.streams.bind(3, s.label);
        w.streams.bind(4, static_cast<std::int64_t>(s.events.size()));
        TPSCOPE_TRY(step(db, w.streams));
        for (std::size_t i = 0; i < s.events.size(); ++i) {
            auto& e = w.events;
            e.bind(1, rankId);
            e.bind(2, streamId);
            e.bind(3, s.events.startNs(i));
            e.bind(4, s.events.durNs(i));
            e.bind(5, s.events.endNs(i));
            e.bind(6, toString(s.events.kind(i)));
            e.bind(7, std::int64_t{s.events.name(i).value});
            e.bind(8, std::int64_t{s.events.correlationId(i)});
            bindPayload(e, trace, trace.payload(s.events.payload(i)));
            TPSCOPE_TRY(step(db, e));
            if ((++w.written & 0xFFFF) == 0) {
                if (control.cancelled()) return makeError(ErrorCode::Cancelled, "export cancelled");
                control.report(0.95 * static_cast<double>(w.written) / w.total);
            }
        }
    }
    return Ok{};
}

Status fill(SqliteDb& db, const Trace& trace, const TaskControl& control) {
    TPSCOPE_TRY(db.exec("BEGIN"));
    TPSCOPE_TRY(db.exec(kSchema));
    TPSCOPE_TRY(writeTables(db, trace));
    RankWriter w;
    TPSCOPE_TRY_ASSIGN(w.ranks, db.prepare("INSERT INTO ranks VALUES(?1, ?2, ?3, ?4, ?5)"));
    TPSCOPE_TRY_ASSIGN(w.streams, db.prepare("INSERT INTO streams VALUES(?1, ?2, ?3, ?4)"));
    TPSCOPE_TRY_ASSIGN(w.ranges, db.prepare("INSERT INTO ranges VALUES(?1, ?2, ?3, ?4, ?5)"));
    TPSCOPE_TRY_ASSIGN(w.events,
                       db.prepare("INSERT INTO events VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,"
                                  "?16,?17,?18,?19,?20)"));
    w.total = static_cast<double>(std::max<std::size_t>(1, trace.eventCount()));
    for (const auto& r : trace.ranks) TPSCOPE_TRY(writeRank(db, trace, r, w, control));
    TPSCOPE_TRY(db.exec("CREATE INDEX events_by_rank_time ON events(rank_id, start_ns)"));
    return db.exec("COMMIT");
}

}  // namespace

Status writeSqliteExport(const Trace& trace, const std::string& path, const TaskControl& control) {
    auto file = OutputFile::create(path);
    if (!file) return file.error();
    file->releaseHandle();
    {
        auto db = SqliteDb::open(file->temporaryPath(), SqliteDb::Mode::ReadWriteCreate);
        if (!db) return db.error();
        TPSCOPE_TRY(db->exec("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;"));
        if (Status s = fill(*db, trace, control); !s) {
            Error e = s.error();
            e.context = path;
            return e;
        }
        TPSCOPE_TRY(db->close());
    }
    TPSCOPE_TRY(file->commit());
    control.report(1.0);
    return Ok{};
}

}  // namespace tpscope::core
