// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Loading a workspace: the file is opened read-only (immutable), its schema version checked, then
// each run's tables are read and its event chunks inflated and decoded, one stream per task on
// worker threads, chunk by chunk as they are read (reading and decoding overlap; the reader stays a
// bounded number of compressed bytes ahead); each rank's NVTX ranges are a task too.
// Every count and id is validated (codec/event_codec.h), so a damaged file is an error.

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

#include "core/io/codec/event_codec.h"
#include "core/io/sqlite_db.h"
#include "core/io/workspace/workspace.h"
#include "core/io/workspace/workspace_runs.h"
#include "core/io/workspace/workspace_schema.h"
#include "core/util/out_of_memory.h"
#include "core/util/parallel_for.h"

namespace tpscope::core {

namespace {

struct ChunkRow {
    std::size_t count = 0;
    std::uint64_t rawBytes = 0;
    std::vector<unsigned char> blob;
};

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
    rank.ranges.finalize();  // here, on a decoder thread, rather than in Trace::finalize
    return Ok{};
}

// Chunk rows on their way from the reader (the thread that steps through the event_chunks table) to
// the decoder threads. A stream becomes a task when its first chunk row is read; the decoder that
// takes it decodes its chunks in order as they come, so reading and decoding overlap chunk by chunk.
// The reader stays at most `readAhead` bytes of compressed chunks ahead of the decoders (it is faster
// than they are; unbounded, it held most of the file's blobs at once on top of the decoded columns),
// unless every decoder is waiting for a chunk it has not read yet. Blob buffers are handed back and
// reused, so they cost no fresh pages per chunk. Tasks [0, streams) are streams, the rest the ranks'
// NVTX ranges. close(): no more rows; waiting decoders then get what is left, then nothing.
class ChunkQueue {
  public:
    ChunkQueue(std::size_t streams, unsigned decoders, std::size_t readAhead)
        : m_chunks(streams), m_dropped(streams), m_decoders(decoders), m_readAhead(readAhead) {}

    // Reader side.
    void pushTask(std::size_t task) {
        {
            std::lock_guard lock(m_mutex);
            m_tasks.push_back(task);
        }
        m_forDecoders.notify_all();
    }
    // Queues a chunk of `stream`; its first one makes the stream a task.
    void pushChunk(std::size_t stream, bool first, ChunkRow row) {
        {
            std::lock_guard lock(m_mutex);
            if (first) m_tasks.push_back(stream);
            if (m_dropped[stream]) {
                m_spare.push_back(std::move(row.blob));
            } else {
                m_queuedBytes += row.blob.size();
                m_chunks[stream].push_back(std::move(row));
            }
        }
        m_forDecoders.notify_all();
    }
    // A buffer for the next blob: one a decoder is done with, or a new one.
    std::vector<unsigned char> spareBuffer() {
        std::lock_guard lock(m_mutex);
        if (m_spare.empty()) return {};
        std::vector<unsigned char> buffer = std::move(m_spare.back());
        m_spare.pop_back();
        return buffer;
    }
    void waitForRoom() {
        std::unique_lock lock(m_mutex);
        m_forReader.wait(lock, [this] { return m_queuedBytes < m_readAhead || m_waiting == m_decoders; });
    }
    void close() {
        {
            std::lock_guard lock(m_mutex);
            m_closed = true;
        }
        m_forDecoders.notify_all();
    }

    // Decoder side. False when the queue is closed and no task is left.
    bool popTask(std::size_t& task) {
        std::unique_lock lock(m_mutex);
        waitLocked(lock, [this] { return m_closed || !m_tasks.empty(); });
        if (m_tasks.empty()) return false;
        task = m_tasks.front();
        m_tasks.pop_front();
        return true;
    }
    // The stream's next chunk; false when the reader stopped before reading it.
    bool popChunk(std::size_t stream, ChunkRow& row) {
        std::unique_lock lock(m_mutex);
        auto& chunks = m_chunks[stream];
        waitLocked(lock, [&] { return m_closed || !chunks.empty(); });
        if (chunks.empty()) return false;
        row = std::move(chunks.front());
        chunks.pop_front();
        m_queuedBytes -= row.blob.size();
        lock.unlock();
        m_forReader.notify_one();
        return true;
    }
    void recycle(std::vector<unsigned char> buffer) {
        buffer.clear();
        std::lock_guard lock(m_mutex);
        m_spare.push_back(std::move(buffer));
    }
    // A stream that failed: its queued chunks and those still to come are dropped.
    void drop(std::size_t stream) {
        std::lock_guard lock(m_mutex);
        m_dropped[stream] = true;
        for (auto& row : m_chunks[stream]) {
            m_queuedBytes -= row.blob.size();
            m_spare.push_back(std::move(row.blob));
        }
        m_chunks[stream].clear();
        m_forReader.notify_one();
    }

  private:
    // Waits for `ready`, counted as a waiting decoder meanwhile (the reader does not wait for room
    // while every decoder waits for it).
    template <typename Ready>
    void waitLocked(std::unique_lock<std::mutex>& lock, Ready ready) {
        if (ready()) return;
        ++m_waiting;
        m_forReader.notify_one();
        m_forDecoders.wait(lock, ready);
        --m_waiting;
    }

    std::mutex m_mutex;
    std::condition_variable m_forDecoders, m_forReader;
    std::deque<std::size_t> m_tasks;
    std::vector<std::deque<ChunkRow>> m_chunks;  // per stream, read and not yet decoded
    std::vector<bool> m_dropped;                 // per stream
    std::vector<std::vector<unsigned char>> m_spare;
    std::size_t m_queuedBytes = 0;
    unsigned m_waiting = 0;
    const unsigned m_decoders;
    const std::size_t m_readAhead;
    bool m_closed = false;
};

// Decodes the stream's chunks as the reader queues them, then finalizes it here, on the decoder
// thread, rather than in Trace::finalize on the reading thread afterwards: the streams finalize in
// parallel.
Status decodeStream(ChunkQueue& queue, std::size_t task, std::size_t expected, const Trace& trace, EventColumns& events,
                    codec::EventChunkScratch& scratch, const TaskControl& control, const std::string& path) {
    events.reserve(expected);
    ChunkRow chunk;
    for (std::size_t decoded = 0; decoded < expected; decoded += chunk.count) {
        if (control.cancelled()) return makeError(ErrorCode::Cancelled, "load cancelled");
        if (!queue.popChunk(task, chunk)) return damaged(path, "event count of a stream");
        TPSCOPE_TRY(codec::decompressInto(chunk.blob, chunk.rawBytes, "event chunk", scratch.raw));
        TPSCOPE_TRY(
            codec::decodeEvents(scratch.raw, chunk.count, trace.names.size(), trace.payloads.size(), events, scratch));
        queue.recycle(std::move(chunk.blob));
    }
    events.finalize();
    return Ok{};
}

// One (rank, stream): what the reader has counted of its chunk rows.
struct StreamLoad {
    std::size_t rank = 0, stream = 0;
    std::size_t expected = 0;  // events, from the streams table
    std::size_t rows = 0;      // chunk rows read
    std::size_t events = 0;    // events in them
    Status result = Ok{};
};

}  // namespace

Result<std::shared_ptr<Trace>> readTrace(SqliteDb& db, const RunRow& run, const WorkspaceOptions& opt) {
    auto trace = std::make_shared<Trace>();
    trace->origin = run.origin;
    trace->source = run.source;
    TPSCOPE_TRY(readTables(db, run.id, *trace));
    std::vector<std::vector<std::size_t>> counts;
    std::vector<RangeBlob> rangeBlobs;
    TPSCOPE_TRY(readLayout(db, run.id, *trace, rangeBlobs, counts));

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
    const unsigned threads = resolveThreadCount(opt.threads, loads.size());
    ChunkQueue queue(loads.size(), threads, opt.readAheadBytes);
    auto decoder = [&] {
        codec::EventChunkScratch scratch;
        std::size_t i = 0;
        while (queue.popTask(i)) {
            const bool isStream = i < loads.size();
            Status& result = isStream ? loads[i].result : rangeResults[i - loads.size()];
            if (opt.control.cancelled()) {
                result = makeError(ErrorCode::Cancelled, "load cancelled");
            } else if (isStream) {
                StreamLoad& load = loads[i];
                // A worker thread must not let bad_alloc escape (std::terminate): it becomes this task's error.
                result = withAllocationErrors(
                    [&] {
                        return decodeStream(queue, i, load.expected, *trace,
                                            slotColumns(trace->ranks[load.rank], load.stream), scratch, opt.control,
                                            db.path());
                    },
                    db.path());
            } else {
                const std::size_t r = i - loads.size();
                result = withAllocationErrors(
                    [&] { return decodeRankRanges(rangeBlobs[r], *trace, trace->ranks[r], scratch, db.path()); },
                    db.path());
            }
            if (isStream && !result) queue.drop(i);
            if (!isStream) std::vector<unsigned char>().swap(rangeBlobs[i - loads.size()].blob);
        }
    };
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t) pool.emplace_back(decoder);
    // The decoders are joined on every way out of the reading below.
    struct Joiner {
        ChunkQueue& queue;
        std::vector<std::thread>& pool;
        ~Joiner() {
            queue.close();
            for (auto& t : pool) t.join();
        }
    } joiner{queue, pool};
    // Each rank's ranges first; then a stream as soon as its first chunk row is read (an empty one now).
    for (std::size_t r = 0; r < rangeBlobs.size(); ++r) queue.pushTask(loads.size() + r);
    for (std::size_t i = 0; i < loads.size(); ++i) {
        if (loads[i].expected == 0) queue.pushTask(i);
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
        const std::size_t task = taskOf[r][s];
        StreamLoad& load = loads[task];
        const std::int64_t n = stmt->int64(3);
        if (stmt->int64(2) != static_cast<std::int64_t>(load.rows) || n <= 0 ||
            n > static_cast<std::int64_t>(codec::kChunkEvents) || stmt->int64(4) < 0) {
            return damaged(db.path(), "event chunk index");
        }
        if (load.events + static_cast<std::size_t>(n) > load.expected) {
            return damaged(db.path(), "event count of a stream");
        }
        const auto blob = stmt->blob(5);
        queue.waitForRoom();
        ChunkRow row{static_cast<std::size_t>(n), static_cast<std::uint64_t>(stmt->int64(4)), queue.spareBuffer()};
        row.blob.assign(blob.begin(), blob.end());
        queue.pushChunk(task, load.rows == 0, std::move(row));
        ++load.rows;
        load.events += static_cast<std::size_t>(n);
    }
    if (rc != SQLITE_DONE) return db.error("cannot read event chunks");
    for (const auto& load : loads) {
        if (load.events != load.expected) return damaged(db.path(), "event count of a stream");
    }
    opt.control.report(0.3);
    queue.close();
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

namespace {

// The workspace's own settings (tpscope_meta rows "setting.KEY"), in key order.
Result<std::vector<std::pair<std::string, std::string>>> readSettings(SqliteDb& db) {
    auto stmt = db.prepare("SELECT key, value FROM tpscope_meta WHERE substr(key, 1, ?2) = ?1 ORDER BY key");
    if (!stmt) return stmt.error();
    stmt->bind(1, std::string(kWorkspaceSettingPrefix));
    stmt->bind(2, static_cast<std::int64_t>(kWorkspaceSettingPrefix.size()));
    std::vector<std::pair<std::string, std::string>> settings;
    while (stmt->step() == SQLITE_ROW) {
        settings.emplace_back(std::string(stmt->text(0).substr(kWorkspaceSettingPrefix.size())),
                              std::string(stmt->text(1)));
    }
    return settings;
}

Result<Workspace> loadWorkspaceRuns(const std::string& path, const WorkspaceOptions& opt) {
    auto db = openWorkspace(path);
    if (!db) return db.error();
    std::vector<RunRow> runs;
    TPSCOPE_TRY_ASSIGN(runs, readRuns(*db, opt.readAnalysisCache));
    Workspace ws;
    for (auto& row : runs) {
        auto trace = readTrace(*db, row, opt);
        if (!trace) return trace.error();
        ws.runs.push_back(Run{std::move(row.info), std::move(*trace), std::move(row.cache)});
    }
    TPSCOPE_TRY_ASSIGN(ws.settings, readSettings(*db));
    opt.control.report(1.0);
    return ws;
}

Result<std::shared_ptr<Trace>> loadOneRun(const std::string& path, std::size_t runIndex, const WorkspaceOptions& opt) {
    auto db = openWorkspace(path);
    if (!db) return db.error();
    std::vector<RunRow> runs;
    TPSCOPE_TRY_ASSIGN(runs, readRuns(*db));
    TPSCOPE_TRY(requireRun(runs, runIndex, path));
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
