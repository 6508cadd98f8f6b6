// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Loading a workspace: the file is opened read-only (immutable), its schema version checked, then
// each run's tables are read and its event chunks inflated and decoded, one stream per task on
// worker threads, each stream as soon as its chunks are read (reading and decoding overlap, and the
// compressed bytes of a stream are freed once it is decoded); each rank's NVTX ranges are a task too.
// Every count and id is validated (codec/event_codec.h), so a damaged file is an error.

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

#include "core/io/codec/event_codec.h"
#include "core/io/sqlite_db.h"
#include "core/io/workspace/workspace.h"
#include "core/io/workspace/workspace_schema.h"
#include "core/util/out_of_memory.h"
#include "core/util/parallel_for.h"

namespace tpscope::core {

namespace {

struct RunRow {
    std::int64_t id = 0;
    RunInfo info;
    TraceOrigin origin = TraceOrigin::Unknown;
    std::string source;
    std::optional<std::string> cache;
};

struct ChunkRow {
    std::size_t count = 0;
    std::uint64_t rawBytes = 0;
    std::vector<unsigned char> blob;
};

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
    return db;
}

Result<std::vector<RunRow>> readRuns(SqliteDb& db) {
    auto stmt = db.prepare(
        "SELECT run_id, name, model, gpu, fabric, tp, batch, tokens, trace_origin, trace_source, analysis_cache "
        "FROM runs ORDER BY run_id");
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

Result<std::string> inflateColumn(SqliteStmt& stmt, int blobCol, int rawCol, const std::string& what) {
    return codec::decompress(stmt.blob(blobCol), static_cast<std::uint64_t>(stmt.int64(rawCol)), what);
}

Status readTables(SqliteDb& db, std::int64_t runId, Trace& trace) {
    auto stmt =
        db.prepare("SELECT names, names_raw_bytes, payloads, payloads_raw_bytes FROM trace_tables WHERE run_id = ?1");
    if (!stmt) return stmt.error();
    stmt->bind(1, runId);
    if (stmt->step() != SQLITE_ROW) return damaged(db.path(), "run without name table");
    std::string names, payloads;
    TPSCOPE_TRY_ASSIGN(names, inflateColumn(*stmt, 0, 1, "names"));
    TPSCOPE_TRY_ASSIGN(payloads, inflateColumn(*stmt, 2, 3, "payloads"));
    trace.names = StringTable{};
    trace.payloads = PayloadTable{};
    TPSCOPE_TRY(codec::decodeNames(names, trace.names));
    TPSCOPE_TRY(codec::decodePayloads(payloads, trace.names.size(), trace.payloads));
    auto meta = db.prepare("SELECT key, value FROM trace_metadata WHERE run_id = ?1 ORDER BY position");
    if (!meta) return meta.error();
    meta->bind(1, runId);
    while (meta->step() == SQLITE_ROW) trace.metadata.emplace_back(meta->text(0), meta->text(1));
    return Ok{};
}

// A rank's NVTX ranges as stored: decoded on a worker thread with the event chunks.
struct RangeBlob {
    std::size_t count = 0;
    std::uint64_t rawBytes = 0;
    std::vector<unsigned char> blob;
};

// Ranks (their ranges still compressed, in `ranges`) and streams (empty), and the expected event count
// of every stream. The ranks are read in storage order and placed by position: ordered by SQL, their
// range blobs (a quarter of a 100 M-event workspace) went through SQLite's sorter and a temporary file.
Status readLayout(SqliteDb& db, std::int64_t runId, Trace& trace, std::vector<RangeBlob>& ranges,
                  std::vector<std::vector<std::size_t>>& counts) {
    auto rows = db.prepare(
        "SELECT position, rank_id, host, device_index, device_name, clock_offset_ns, range_count, ranges, "
        "ranges_raw_bytes FROM ranks WHERE run_id = ?1");
    if (!rows) return rows.error();
    rows->bind(1, runId);
    std::vector<std::pair<std::int64_t, std::size_t>> byPosition;  // (position, index read)
    std::vector<Rank> read;
    int rc = 0;
    while ((rc = rows->step()) == SQLITE_ROW) {
        const std::int64_t id = rows->int64(1), count = rows->int64(6), rawBytes = rows->int64(8);
        if (id < 0 || id > UINT32_MAX) return damaged(db.path(), "bad rank id");
        if (count < 0 || rawBytes < 0) return damaged(db.path(), "range count");
        byPosition.emplace_back(rows->int64(0), read.size());
        Rank& rank = read.emplace_back();
        rank.id = RankId{static_cast<std::uint32_t>(id)};
        rank.host = std::string(rows->text(2));
        rank.deviceIndex = static_cast<int>(rows->int64(3));
        rank.deviceName = std::string(rows->text(4));
        rank.clockOffsetNs = rows->int64(5);
        const auto blob = rows->blob(7);
        ranges.push_back({static_cast<std::size_t>(count), static_cast<std::uint64_t>(rawBytes),
                          std::vector<unsigned char>(blob.begin(), blob.end())});
    }
    if (rc != SQLITE_DONE) return db.error("cannot read ranks");
    std::sort(byPosition.begin(), byPosition.end());
    std::vector<RangeBlob> rangesByPosition;
    for (const auto& [position, index] : byPosition) {
        // Positions 0, 1, 2, ... and rank ids increasing with them, as written.
        if (position != static_cast<std::int64_t>(trace.ranks.size())) return damaged(db.path(), "rank positions");
        if (!trace.ranks.empty() && trace.ranks.back().id.value >= read[index].id.value) {
            return damaged(db.path(), "bad rank id");
        }
        trace.ranks.push_back(std::move(read[index]));
        rangesByPosition.push_back(std::move(ranges[index]));
    }
    ranges = std::move(rangesByPosition);
    counts.assign(trace.ranks.size(), {});
    auto streams = db.prepare(
        "SELECT rank_position, position, stream_id, label, event_count FROM streams WHERE run_id = ?1 "
        "ORDER BY rank_position, position");
    if (!streams) return streams.error();
    streams->bind(1, runId);
    while (streams->step() == SQLITE_ROW) {
        const std::int64_t r = streams->int64(0);
        if (r < 0 || static_cast<std::size_t>(r) >= trace.ranks.size() ||
            streams->int64(1) != static_cast<std::int64_t>(counts[r].size()) || streams->int64(4) < 0) {
            return damaged(db.path(), "stream layout");
        }
        Stream& s = trace.ranks[r].streams.emplace_back();
        s.id = StreamId{static_cast<std::uint64_t>(streams->int64(2))};
        s.label = std::string(streams->text(3));
        counts[r].push_back(static_cast<std::size_t>(streams->int64(4)));
    }
    // Version 1 files have no host threads.
    if (!db.hasTable("host_threads")) return Ok{};
    auto threads = db.prepare(
        "SELECT rank_position, position, thread_id, label, event_count FROM host_threads WHERE run_id = ?1 "
        "ORDER BY rank_position, position");
    if (!threads) return threads.error();
    threads->bind(1, runId);
    while (threads->step() == SQLITE_ROW) {
        const std::int64_t r = threads->int64(0);
        if (r < 0 || static_cast<std::size_t>(r) >= trace.ranks.size() ||
            threads->int64(1) != static_cast<std::int64_t>(trace.ranks[r].hostThreads.size()) ||
            threads->int64(4) < 0) {
            return damaged(db.path(), "host thread layout");
        }
        HostThread& h = trace.ranks[r].hostThreads.emplace_back();
        h.threadId = static_cast<std::uint64_t>(threads->int64(2));
        h.label = std::string(threads->text(3));
        counts[r].push_back(static_cast<std::size_t>(threads->int64(4)));
    }
    return Ok{};
}

// The events of slot `position` of a rank as it is being filled (streams, then host threads).
EventColumns& slotColumns(Rank& rank, std::size_t position) {
    return position < rank.streams.size() ? rank.streams[position].events
                                          : rank.hostThreads[position - rank.streams.size()].events;
}

Status decodeRankRanges(const RangeBlob& stored, const Trace& trace, Rank& rank, codec::EventChunkScratch& scratch,
                        const std::string& path) {
    TPSCOPE_TRY(codec::decompressInto(stored.blob, stored.rawBytes, "ranges", scratch.raw));
    TPSCOPE_TRY(codec::decodeRanges(scratch.raw, trace.names.size(), rank.ranges));
    if (rank.ranges.size() != stored.count) return damaged(path, "range count");
    return Ok{};
}

Status decodeStream(const std::vector<ChunkRow>& chunks, std::size_t expected, const Trace& trace, EventColumns& events,
                    codec::EventChunkScratch& scratch, const std::string& path) {
    std::size_t total = 0;
    for (const auto& c : chunks) total += c.count;
    if (total != expected) return damaged(path, "event count of a stream");
    events.reserve(total);
    for (const auto& c : chunks) {
        TPSCOPE_TRY(codec::decompressInto(c.blob, c.rawBytes, "event chunk", scratch.raw));
        TPSCOPE_TRY(
            codec::decodeEvents(scratch.raw, c.count, trace.names.size(), trace.payloads.size(), events, scratch));
    }
    // Here, on the decoder thread, rather than in Trace::finalize on the reading thread afterwards:
    // the streams narrow in parallel, and each one's wide correlation ids are freed as it ends.
    events.finalize();
    return Ok{};
}

// Tasks ready for a decoder thread: a rank's ranges, or a stream whose chunk rows have all been read.
// Closed when the reader has read every row (or stopped on an error); pop() then drains what is left
// and returns false.
class ReadyTasks {
  public:
    void push(std::size_t task) {
        {
            std::lock_guard lock(m_mutex);
            m_ready.push_back(task);
        }
        m_cv.notify_one();
    }
    void close() {
        {
            std::lock_guard lock(m_mutex);
            m_closed = true;
        }
        m_cv.notify_all();
    }
    bool pop(std::size_t& task) {
        std::unique_lock lock(m_mutex);
        m_cv.wait(lock, [this] { return m_closed || !m_ready.empty(); });
        if (m_ready.empty()) return false;
        task = m_ready.front();
        m_ready.pop_front();
        return true;
    }

  private:
    std::mutex m_mutex;
    std::condition_variable m_cv;
    std::deque<std::size_t> m_ready;
    bool m_closed = false;
};

// One (rank, stream): its compressed chunks as read, and what the reader has counted of them. The
// reader thread owns `rows` and `events` until the stream is handed over; a decoder owns `chunks`
// from then on and frees them once decoded.
struct StreamLoad {
    std::size_t rank = 0, stream = 0;
    std::size_t expected = 0;  // events, from the streams table
    std::size_t rows = 0;      // chunk rows read
    std::size_t events = 0;    // events in them
    bool handedOver = false;
    std::vector<ChunkRow> chunks;
    Status result = Ok{};
};

Result<std::shared_ptr<Trace>> readTrace(SqliteDb& db, const RunRow& run, const WorkspaceOptions& opt) {
    auto trace = std::make_shared<Trace>();
    trace->origin = run.origin;
    trace->source = run.source;
    TPSCOPE_TRY(readTables(db, run.id, *trace));
    std::vector<std::vector<std::size_t>> counts;
    std::vector<RangeBlob> rangeBlobs;
    TPSCOPE_TRY(readLayout(db, run.id, *trace, rangeBlobs, counts));

    // Each stream is decoded by one task as soon as its last chunk row is read (a stream is complete
    // when its rows hold the event count of the streams table), and its compressed bytes are freed
    // once decoded: reading and decoding overlap, and the file's blobs are never all held at once.
    // Each rank's ranges are one task more, queued first: tasks [0, streams) are streams, the rest ranks.
    std::vector<StreamLoad> loads;
    std::vector<std::vector<std::size_t>> taskOf(trace->ranks.size());
    for (std::size_t r = 0; r < counts.size(); ++r) {
        for (std::size_t s = 0; s < counts[r].size(); ++s) {
            taskOf[r].push_back(loads.size());
            StreamLoad& load = loads.emplace_back();
            load.rank = r;
            load.stream = s;
            load.expected = counts[r][s];
        }
    }
    std::vector<Status> rangeResults(rangeBlobs.size(), Ok{});
    ReadyTasks ready;
    auto decoder = [&] {
        codec::EventChunkScratch scratch;
        std::size_t i = 0;
        while (ready.pop(i)) {
            const bool isStream = i < loads.size();
            Status& result = isStream ? loads[i].result : rangeResults[i - loads.size()];
            if (opt.control.cancelled()) {
                result = makeError(ErrorCode::Cancelled, "load cancelled");
            } else if (isStream) {
                StreamLoad& load = loads[i];
                // A worker thread must not let bad_alloc escape (std::terminate): it becomes this task's error.
                result = withAllocationErrors(
                    [&] {
                        return decodeStream(load.chunks, load.expected, *trace,
                                            slotColumns(trace->ranks[load.rank], load.stream), scratch, db.path());
                    },
                    db.path());
            } else {
                const std::size_t r = i - loads.size();
                result = withAllocationErrors(
                    [&] { return decodeRankRanges(rangeBlobs[r], *trace, trace->ranks[r], scratch, db.path()); },
                    db.path());
            }
            if (isStream) {
                std::vector<ChunkRow>().swap(loads[i].chunks);
            } else {
                std::vector<unsigned char>().swap(rangeBlobs[i - loads.size()].blob);
            }
        }
    };
    const unsigned threads = resolveThreadCount(opt.threads, loads.size());
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t) pool.emplace_back(decoder);
    // The decoders are joined on every way out of the reading below.
    struct Joiner {
        ReadyTasks& ready;
        std::vector<std::thread>& pool;
        ~Joiner() {
            ready.close();
            for (auto& t : pool) t.join();
        }
    } joiner{ready, pool};
    auto handOver = [&](StreamLoad& load) {
        load.handedOver = true;
        ready.push(static_cast<std::size_t>(&load - loads.data()));
    };
    for (std::size_t r = 0; r < rangeBlobs.size(); ++r) ready.push(loads.size() + r);
    for (auto& load : loads) {
        if (load.expected == 0) handOver(load);
    }

    auto stmt = db.prepare(
        "SELECT rank_position, stream_position, chunk, event_count, raw_bytes, data FROM event_chunks "
        "WHERE run_id = ?1 ORDER BY rowid");
    if (!stmt) return stmt.error();
    stmt->bind(1, run.id);
    int rc = 0;
    while ((rc = stmt->step()) == SQLITE_ROW) {
        const std::int64_t r = stmt->int64(0), s = stmt->int64(1);
        if (r < 0 || static_cast<std::size_t>(r) >= taskOf.size() || s < 0 ||
            static_cast<std::size_t>(s) >= taskOf[r].size()) {
            return damaged(db.path(), "event chunk index");
        }
        StreamLoad& load = loads[taskOf[r][s]];
        const std::int64_t n = stmt->int64(3);
        if (load.handedOver || stmt->int64(2) != static_cast<std::int64_t>(load.rows) || n <= 0 ||
            n > static_cast<std::int64_t>(codec::kChunkEvents) || stmt->int64(4) < 0) {
            return damaged(db.path(), "event chunk index");
        }
        if (load.events + static_cast<std::size_t>(n) > load.expected) {
            return damaged(db.path(), "event count of a stream");
        }
        const auto blob = stmt->blob(5);
        load.chunks.push_back({static_cast<std::size_t>(n), static_cast<std::uint64_t>(stmt->int64(4)),
                               std::vector<unsigned char>(blob.begin(), blob.end())});
        ++load.rows;
        load.events += static_cast<std::size_t>(n);
        if (load.events == load.expected) handOver(load);
    }
    if (rc != SQLITE_DONE) return db.error("cannot read event chunks");
    for (const auto& load : loads) {
        if (!load.handedOver) return damaged(db.path(), "event count of a stream");
    }
    opt.control.report(0.3);
    ready.close();
    for (auto& t : pool) t.join();
    pool.clear();
    for (const auto& load : loads) {
        if (!load.result) return load.result.error();
    }
    for (const auto& result : rangeResults) {
        if (!result) return result.error();
    }
    trace->finalize();
    return trace;
}

}  // namespace

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

namespace {

Result<Workspace> loadWorkspaceRuns(const std::string& path, const WorkspaceOptions& opt) {
    auto db = openWorkspace(path);
    if (!db) return db.error();
    std::vector<RunRow> runs;
    TPSCOPE_TRY_ASSIGN(runs, readRuns(*db));
    Workspace ws;
    for (auto& row : runs) {
        auto trace = readTrace(*db, row, opt);
        if (!trace) return trace.error();
        ws.runs.push_back(Run{std::move(row.info), std::move(*trace), std::move(row.cache)});
    }
    opt.control.report(1.0);
    return ws;
}

Result<std::shared_ptr<Trace>> loadOneRun(const std::string& path, std::size_t runIndex, const WorkspaceOptions& opt) {
    auto db = openWorkspace(path);
    if (!db) return db.error();
    std::vector<RunRow> runs;
    TPSCOPE_TRY_ASSIGN(runs, readRuns(*db));
    if (runIndex >= runs.size()) {
        return makeError(ErrorCode::NotFound,
                         "the workspace has " + std::to_string(runs.size()) + " runs; run " + std::to_string(runIndex) +
                             " does not exist",
                         path);
    }
    return readTrace(*db, runs[runIndex], opt);
}

}  // namespace

Result<Workspace> loadWorkspace(const std::string& path, const WorkspaceOptions& opt) {
    return withAllocationErrors([&] { return loadWorkspaceRuns(path, opt); }, path);
}

Result<std::shared_ptr<Trace>> loadWorkspaceTrace(const std::string& path, std::size_t runIndex,
                                                  const WorkspaceOptions& opt) {
    return withAllocationErrors([&] { return loadOneRun(path, runIndex, opt); }, path);
}

}  // namespace tpscope::core
