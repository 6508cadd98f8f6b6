// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Saving a workspace: chunks are encoded and compressed on worker threads, then written into a
// temporary SQLite file in the target's folder in one transaction, fsynced, and renamed over the
// target. The rename is the commit point: until it happens the previous file is untouched.

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <new>
#include <optional>

#include "core/io/codec/event_codec.h"
#include "core/io/sqlite_db.h"
#include "core/io/workspace/workspace.h"
#include "core/io/workspace/workspace_excerpt.h"
#include "core/io/workspace/workspace_schema.h"
#include "core/util/parallel_for.h"

namespace tpscope::core {

namespace {

// A trace written to the event tables under `id`: a run's (its run_id) or a run's opening excerpt
// (run_excerpts.excerpt_id, negative).
struct StoredTrace {
    std::int64_t id = 0;
    const Trace* trace = nullptr;
};

struct ChunkJob {
    std::size_t run = 0, rank = 0, stream = 0, chunk = 0, first = 0, last = 0;  // run: into the StoredTraces
    bool blockForm = false;
    std::size_t labelsFrom = 0, labelsTo = 0;  // block form: the labels this chunk carries
    std::size_t rawBytes = 0;
    std::string blob;
};

// Removes the temporary file unless the save reached the rename.
class TempFile {
  public:
    explicit TempFile(std::string path) : m_path(std::move(path)) {}
    ~TempFile() {
        if (!m_kept) std::filesystem::remove(m_path, m_ec);
    }
    TempFile(const TempFile&) = delete;
    TempFile& operator=(const TempFile&) = delete;
    void keep() { m_kept = true; }
    const std::string& path() const { return m_path; }

  private:
    std::string m_path;
    bool m_kept = false;
    std::error_code m_ec;
};

Status fsyncPath(const std::string& path, bool directory) {
    const int fd = ::open(path.c_str(), directory ? O_RDONLY | O_DIRECTORY : O_RDWR);
    if (fd < 0)
        return makeError(ErrorCode::IoError, std::string("cannot open for sync: ") + std::strerror(errno), path);
    const int rc = ::fsync(fd);
    const int err = errno;
    ::close(fd);
    if (rc != 0 && !directory)
        return makeError(ErrorCode::IoError, std::string("fsync failed: ") + std::strerror(err), path);
    return Ok{};
}

std::vector<ChunkJob> planChunks(const std::vector<StoredTrace>& stored) {
    std::vector<ChunkJob> jobs;
    for (std::size_t run = 0; run < stored.size(); ++run) {
        const auto& ranks = stored[run].trace->ranks;
        for (std::size_t r = 0; r < ranks.size(); ++r) {
            for (std::size_t s = 0; s < slotCount(ranks[r]); ++s) {
                const EventColumns& events = slotEvents(ranks[r], s);
                const std::size_t n = events.size();
                // Block form where the stream has one; each chunk carries the labels first reached in it.
                const bool blockForm = events.hasBlockForm();
                std::size_t labels = 0;
                for (std::size_t first = 0, c = 0; first < n; first += codec::kChunkEvents, ++c) {
                    ChunkJob& job = jobs.emplace_back();
                    job = {run,       r,      s,      c, first, std::min(n, first + codec::kChunkEvents),
                           blockForm, labels, labels, 0, {}};
                    if (blockForm) job.labelsTo = labels = std::max(labels, events.labelsReached(job.first, job.last));
                }
            }
        }
    }
    return jobs;
}

Status compressChunks(const std::vector<StoredTrace>& stored, std::vector<ChunkJob>& jobs,
                      const WorkspaceOptions& opt) {
    // parallelFor rethrows a worker's exception (std::bad_alloc) on this thread after every worker has
    // joined: a bare std::thread let it reach std::terminate, with the temporary file left behind.
    std::atomic<bool> cancelled{false};
    std::atomic<bool> failed{false};
    std::mutex errorMutex;
    std::optional<Error> error;
    parallelFor(jobs.size(), opt.threads, [&](std::size_t i) {
        if (cancelled.load() || failed.load()) return;
        if (opt.control.cancelled()) {
            cancelled = true;
            return;
        }
        auto& j = jobs[i];
        const auto& events = slotEvents(stored[j.run].trace->ranks[j.rank], j.stream);
        const std::string raw = j.blockForm
                                    ? codec::encodeEventBlocks(events, j.first, j.last, j.labelsFrom, j.labelsTo)
                                    : codec::encodeEvents(events, j.first, j.last);
        j.rawBytes = raw.size();
        auto blob = codec::compressBlob(raw, opt.compressionLevel);
        if (!blob) {
            const std::lock_guard lock(errorMutex);
            if (!error) error = blob.error();
            failed = true;
            return;
        }
        j.blob = std::move(*blob);
    });
    if (error) return *error;
    if (cancelled) return makeError(ErrorCode::Cancelled, "save cancelled");
    opt.control.report(0.7);
    return Ok{};
}

Status insertBlob(SqliteDb& db, SqliteStmt& stmt, const std::string& what) {
    if (stmt.step() != SQLITE_DONE) return db.error("cannot write " + what);
    stmt.reset();
    return Ok{};
}

std::span<const unsigned char> bytesOf(const std::string& s) {
    return {reinterpret_cast<const unsigned char*>(s.data()), s.size()};
}

Status writeRunRow(SqliteDb& db, const Run& run, const Trace& trace, std::int64_t runId) {
    auto stmt = db.prepare(
        "INSERT INTO runs(run_id, name, model, gpu, fabric, tp, batch, tokens, trace_origin, trace_source, "
        "event_count, analysis_cache) VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12)");
    if (!stmt) return stmt.error();
    const RunInfo& i = run.info;
    stmt->bind(1, runId);
    stmt->bind(2, i.name);
    stmt->bind(3, i.model);
    stmt->bind(4, i.gpu);
    stmt->bind(5, i.fabric);
    stmt->bind(6, std::int64_t{i.tp});
    stmt->bind(7, std::int64_t{i.batch});
    stmt->bind(8, i.tokens);
    stmt->bind(9, toString(trace.origin));
    stmt->bind(10, trace.source);
    stmt->bind(11, static_cast<std::int64_t>(trace.eventCount()));
    if (run.analysisCache) {
        stmt->bindBlob(12, bytesOf(*run.analysisCache));
    } else {
        stmt->bindNull(12);
    }
    return insertBlob(db, *stmt, "run");
}

// run_spec and trace_metadata: ordered key/value pairs.
Status writeKeyValues(SqliteDb& db, const Run& run, const Trace& trace, std::int64_t runId) {
    for (const auto& [table, pairs] :
         {std::pair{"run_spec", &run.info.spec}, std::pair{"trace_metadata", &trace.metadata}}) {
        auto kv =
            db.prepare(std::string("INSERT INTO ") + table + "(run_id, position, key, value) VALUES(?1,?2,?3,?4)");
        if (!kv) return kv.error();
        for (std::size_t p = 0; p < pairs->size(); ++p) {
            kv->bind(1, runId);
            kv->bind(2, static_cast<std::int64_t>(p));
            kv->bind(3, (*pairs)[p].first);
            kv->bind(4, (*pairs)[p].second);
            TPSCOPE_TRY(insertBlob(db, *kv, table));
        }
    }
    return Ok{};
}

// The name and payload tables, compressed. They are small and read once: a higher level costs nothing.
constexpr int kTableLevel = 9;

Status writeTraceTables(SqliteDb& db, const Trace& trace, std::int64_t runId) {
    auto tables = db.prepare("INSERT INTO trace_tables VALUES(?1,?2,?3,?4,?5)");
    if (!tables) return tables.error();
    const std::string names = codec::encodeNames(trace.names);
    const std::string payloads = codec::encodePayloads(trace.payloads);
    std::string namesZ, payloadsZ;
    TPSCOPE_TRY_ASSIGN(namesZ, codec::compressBlob(names, kTableLevel));
    TPSCOPE_TRY_ASSIGN(payloadsZ, codec::compressBlob(payloads, kTableLevel));
    tables->bind(1, runId);
    tables->bindBlob(2, bytesOf(namesZ));
    tables->bind(3, static_cast<std::int64_t>(names.size()));
    tables->bindBlob(4, bytesOf(payloadsZ));
    tables->bind(5, static_cast<std::int64_t>(payloads.size()));
    return insertBlob(db, *tables, "name and payload tables");
}

// One row per rank (with its compressed ranges), per stream and per host thread (their layout;
// events go in chunks).
Status writeRanksAndStreams(SqliteDb& db, const Trace& trace, std::int64_t runId, const WorkspaceOptions& opt) {
    auto ranks = db.prepare("INSERT INTO ranks VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10)");
    auto streams = db.prepare("INSERT INTO streams VALUES(?1,?2,?3,?4,?5,?6)");
    auto threads = db.prepare("INSERT INTO host_threads VALUES(?1,?2,?3,?4,?5,?6)");
    if (!ranks) return ranks.error();
    if (!streams) return streams.error();
    if (!threads) return threads.error();
    for (std::size_t r = 0; r < trace.ranks.size(); ++r) {
        const Rank& rank = trace.ranks[r];
        const std::string ranges = codec::encodeRanges(rank.ranges);
        std::string rangesZ;
        TPSCOPE_TRY_ASSIGN(rangesZ, codec::compressBlob(ranges, opt.compressionLevel));
        ranks->bind(1, runId);
        ranks->bind(2, static_cast<std::int64_t>(r));
        ranks->bind(3, std::int64_t{rank.id.value});
        ranks->bind(4, rank.host);
        ranks->bind(5, std::int64_t{rank.deviceIndex});
        ranks->bind(6, rank.deviceName);
        ranks->bind(7, rank.clockOffsetNs);
        ranks->bind(8, static_cast<std::int64_t>(rank.ranges.size()));
        ranks->bindBlob(9, bytesOf(rangesZ));
        ranks->bind(10, static_cast<std::int64_t>(ranges.size()));
        TPSCOPE_TRY(insertBlob(db, *ranks, "rank"));
        for (std::size_t s = 0; s < rank.streams.size(); ++s) {
            streams->bind(1, runId);
            streams->bind(2, static_cast<std::int64_t>(r));
            streams->bind(3, static_cast<std::int64_t>(s));
            streams->bind(4, static_cast<std::int64_t>(rank.streams[s].id.value));  // bit pattern of the uint64
            streams->bind(5, rank.streams[s].label);
            streams->bind(6, static_cast<std::int64_t>(rank.streams[s].events.size()));
            TPSCOPE_TRY(insertBlob(db, *streams, "stream"));
        }
        for (std::size_t h = 0; h < rank.hostThreads.size(); ++h) {
            threads->bind(1, runId);
            threads->bind(2, static_cast<std::int64_t>(r));
            threads->bind(3, static_cast<std::int64_t>(h));
            threads->bind(4, static_cast<std::int64_t>(rank.hostThreads[h].threadId));  // bit pattern of the uint64
            threads->bind(5, rank.hostThreads[h].label);
            threads->bind(6, static_cast<std::int64_t>(rank.hostThreads[h].events.size()));
            TPSCOPE_TRY(insertBlob(db, *threads, "host thread"));
        }
    }
    return Ok{};
}

// The run_excerpts row of run `runId`; the excerpt's events go under `excerptId` like a run's.
Status writeExcerptRow(SqliteDb& db, const analysis::OpeningExcerpt& excerpt, std::int64_t runId,
                       std::int64_t excerptId) {
    auto stmt = db.prepare("INSERT INTO run_excerpts VALUES(?1,?2,?3,?4,?5,?6,?7,?8)");
    if (!stmt) return stmt.error();
    const std::string totals = encodeExcerptTotals(excerpt.ranks);
    stmt->bind(1, runId);
    stmt->bind(2, excerptId);
    stmt->bind(3, excerpt.windowStartNs);
    stmt->bind(4, excerpt.windowEndNs);
    stmt->bind(5, excerpt.traceStartNs);
    stmt->bind(6, excerpt.traceEndNs);
    stmt->bind(7, static_cast<std::int64_t>(excerpt.traceEventCount));
    stmt->bindBlob(8, bytesOf(totals));
    return insertBlob(db, *stmt, "opening excerpt");
}

// Everything of one run except its event chunks.
Status writeRun(SqliteDb& db, const Run& run, std::int64_t runId, const WorkspaceOptions& opt) {
    const Trace empty;
    const Trace& trace = run.trace ? *run.trace : empty;
    TPSCOPE_TRY(writeRunRow(db, run, trace, runId));
    TPSCOPE_TRY(writeKeyValues(db, run, trace, runId));
    TPSCOPE_TRY(writeTraceTables(db, trace, runId));
    return writeRanksAndStreams(db, trace, runId, opt);
}

// Statements are finalized when this returns, so the database can then be closed.
Status fillDatabase(SqliteDb* db, const Workspace& ws, const std::vector<StoredTrace>& stored,
                    const std::vector<std::optional<analysis::OpeningExcerpt>>& excerpts,
                    const std::vector<ChunkJob>& jobs, const WorkspaceOptions& opt) {
    TPSCOPE_TRY(db->exec("BEGIN"));
    TPSCOPE_TRY(db->exec(kWorkspaceDdl));
    auto meta = db->prepare("INSERT INTO tpscope_meta VALUES(?1, ?2)");
    if (!meta) return meta.error();
    for (const auto& [k, v] : {std::pair<std::string, std::string>{"format", kWorkspaceFormatName},
                               {"schema_version", std::to_string(kWorkspaceSchemaVersion)},
                               {"writer", "tpscope"}}) {
        meta->bind(1, k);
        meta->bind(2, v);
        TPSCOPE_TRY(insertBlob(*db, *meta, "metadata"));
    }
    for (const auto& [k, v] : ws.settings) {
        meta->bind(1, std::string(kWorkspaceSettingPrefix) + k);
        meta->bind(2, v);
        TPSCOPE_TRY(insertBlob(*db, *meta, "workspace setting"));
    }
    for (std::size_t r = 0; r < ws.runs.size(); ++r)
        TPSCOPE_TRY(writeRun(*db, ws.runs[r], static_cast<std::int64_t>(r), opt));
    for (std::size_t r = 0; r < excerpts.size(); ++r) {
        if (!excerpts[r]) continue;
        const std::int64_t id = excerptIdOf(static_cast<std::int64_t>(r));
        TPSCOPE_TRY(writeExcerptRow(*db, *excerpts[r], static_cast<std::int64_t>(r), id));
        TPSCOPE_TRY(writeKeyValues(*db, Run{}, *excerpts[r]->events, id));
        TPSCOPE_TRY(writeTraceTables(*db, *excerpts[r]->events, id));
        TPSCOPE_TRY(writeRanksAndStreams(*db, *excerpts[r]->events, id, opt));
    }
    auto chunk = db->prepare("INSERT INTO event_chunks VALUES(?1,?2,?3,?4,?5,?6,?7)");
    if (!chunk) return chunk.error();
    for (std::size_t i = 0; i < jobs.size(); ++i) {
        const auto& j = jobs[i];
        chunk->bind(1, stored[j.run].id);
        chunk->bind(2, static_cast<std::int64_t>(j.rank));
        chunk->bind(3, static_cast<std::int64_t>(j.stream));
        chunk->bind(4, static_cast<std::int64_t>(j.chunk));
        chunk->bind(5, static_cast<std::int64_t>(j.last - j.first));
        chunk->bind(6, static_cast<std::int64_t>(j.rawBytes));
        chunk->bindBlob(7, bytesOf(j.blob));
        TPSCOPE_TRY(insertBlob(*db, *chunk, "event chunk"));
        if ((i & 63) == 0) {
            if (opt.control.cancelled()) return makeError(ErrorCode::Cancelled, "save cancelled");
            opt.control.report(0.7 + 0.25 * static_cast<double>(i) / static_cast<double>(jobs.size()));
        }
    }
    return db->exec("COMMIT");
}

Status writeDatabase(const Workspace& ws, const std::vector<StoredTrace>& stored,
                     const std::vector<std::optional<analysis::OpeningExcerpt>>& excerpts,
                     const std::vector<ChunkJob>& jobs, const std::string& tmp, const WorkspaceOptions& opt) {
    auto db = SqliteDb::open(tmp, SqliteDb::Mode::ReadWriteCreate);
    if (!db) return db.error();
    // The temporary file is private until the rename: no journal, durability by one fsync at the end.
    // Big pages suit big blobs; small workspaces keep the default so they stay small.
    std::size_t blobBytes = 0;
    for (const auto& j : jobs) blobBytes += j.blob.size();
    const char* pageSize = blobBytes > (std::size_t{8} << 20) ? "65536" : "4096";
    TPSCOPE_TRY(
        db->exec(std::string("PRAGMA page_size=") + pageSize + "; PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;"));
    TPSCOPE_TRY(fillDatabase(&*db, ws, stored, excerpts, jobs, opt));
    return db->close();
}

// The file a save writes: a symbolic link is followed to the file it names (as QSaveFile does), so
// that the link stays a link; a chain of links is followed to its end.
std::filesystem::path resolveSaveTarget(const std::filesystem::path& path) {
    namespace fs = std::filesystem;
    fs::path target = path;
    std::error_code ec;
    for (int hops = 0; hops < 40 && fs::is_symlink(target, ec); ++hops) {
        const fs::path next = fs::read_symlink(target, ec);
        if (ec) break;
        target = next.is_absolute() ? next : target.parent_path() / next;
    }
    return target.lexically_normal();
}

Status saveWorkspaceTo(const Workspace& ws, const std::string& path, const WorkspaceOptions& opt) {
    namespace fs = std::filesystem;
    const fs::path target = resolveSaveTarget(fs::absolute(path));
    std::error_code ec;
    if (fs::is_directory(target, ec)) return makeError(ErrorCode::InvalidArgument, "is a folder", path);
    const fs::path dir = target.parent_path();
    if (!fs::is_directory(dir, ec)) return makeError(ErrorCode::NotFound, "the folder does not exist", dir.string());
    static std::atomic<unsigned> counter{0};
    TempFile tmp((dir / ("." + target.filename().string() + ".tmp-" + std::to_string(::getpid()) + "-" +
                         std::to_string(counter++)))
                     .string());
    fs::remove(tmp.path(), ec);

    // Each large run's opening excerpt (analysis/opening_excerpt.h), written after the runs.
    std::vector<std::optional<analysis::OpeningExcerpt>> excerpts(ws.runs.size());
    std::vector<StoredTrace> stored;
    for (std::size_t r = 0; r < ws.runs.size(); ++r) {
        const auto& trace = ws.runs[r].trace;
        if (!trace) continue;
        stored.push_back({static_cast<std::int64_t>(r), trace.get()});
        if (trace->eventCount() >= opt.excerptMinEvents) {
            excerpts[r] = analysis::makeOpeningExcerpt(*trace, opt.threads);
        }
    }
    for (std::size_t r = 0; r < excerpts.size(); ++r) {
        if (excerpts[r]) stored.push_back({excerptIdOf(static_cast<std::int64_t>(r)), excerpts[r]->events.get()});
    }
    std::vector<ChunkJob> jobs = planChunks(stored);
    TPSCOPE_TRY(compressChunks(stored, jobs, opt));
    if (Status s = writeDatabase(ws, stored, excerpts, jobs, tmp.path(), opt); !s) {
        Error e = s.error();
        e.context = path;
        return e;
    }
    // The replaced file's permissions stay (a workspace shared read-only with a group stays so).
    const fs::file_status previous = fs::status(target, ec);
    const bool replacing = !ec && fs::is_regular_file(previous);
    if (replacing) {
        fs::permissions(tmp.path(), previous.permissions(), fs::perm_options::replace, ec);
        if (ec) return makeError(ErrorCode::IoError, "cannot keep the file's permissions: " + ec.message(), path);
    }
    TPSCOPE_TRY(fsyncPath(tmp.path(), false));
    if (replacing && opt.keepBackup) {
        // NAME~ holds the previous file (a second name for it, or a copy where links are not possible).
        const fs::path backup = fs::path(target.string() + "~");
        fs::remove(backup, ec);
        fs::create_hard_link(target, backup, ec);
        if (ec) fs::copy_file(target, backup, fs::copy_options::overwrite_existing, ec);
        if (ec)
            return makeError(ErrorCode::IoError,
                             "cannot keep the previous file as " + backup.string() + ": " + ec.message(), path);
    }
    if (std::rename(tmp.path().c_str(), target.c_str()) != 0) {
        return makeError(ErrorCode::IoError, std::string("cannot replace the file: ") + std::strerror(errno), path);
    }
    tmp.keep();
    (void)fsyncPath(dir.string(), true);
    opt.control.report(1.0);
    return Ok{};
}

}  // namespace

Status saveWorkspace(const Workspace& ws, const std::string& path, const WorkspaceOptions& opt) {
    // Out of memory while encoding (on any of the compression threads) is this save's error; the
    // temporary file goes with the unwinding, the previous file is untouched.
    try {
        return saveWorkspaceTo(ws, path, opt);
    } catch (const std::bad_alloc&) {
        return makeError(ErrorCode::IoError,
                         "out of memory: saving needs more memory than is available; the file was not changed", path);
    }
}

}  // namespace tpscope::core
