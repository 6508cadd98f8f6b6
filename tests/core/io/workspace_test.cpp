// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/resource.h>

#include <csignal>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include "core/io/codec/event_codec.h"
#include "core/io/import/trace_reader.h"
#include "core/io/workspace/workspace.h"
#include "io_test_util.h"
#include "support/trace_equality.h"
#include "synthetic_trace.h"

namespace tpscope::test {
namespace {

std::string fileBytes(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

core::Workspace twoRuns() {
    core::Workspace ws;
    ws.runs.push_back(
        core::Run{{"tp4", "llama3-70b", "h100-sxm", "nvlink4", 4, 8, 2048, {{"dtype", "bf16"}, {"steps", "3"}}},
                  makeSyntheticTrace({4, 3, 5, 11}),
                  std::string("cache\0with zero", 15)});
    ws.runs.push_back(core::Run{
        {"tp8", "llama3-70b", "h100-sxm", "nvlink4", 8, 8, 2048, {}}, makeSyntheticTrace({8, 2, 3, 12}), std::nullopt});
    return ws;
}

TEST(Workspace, SimulatedTracesRoundTripUnchanged) {
    TempDir dir;
    const auto path = (dir / "runs.tpscope").string();
    const core::Workspace ws = twoRuns();
    ASSERT_TRUE(core::saveWorkspace(ws, path));
    auto loaded = core::loadWorkspace(path);
    ASSERT_TRUE(loaded) << loaded.error().describe();
    ASSERT_EQ(loaded->runs.size(), 2u);
    for (std::size_t i = 0; i < 2; ++i) {
        EXPECT_EQ(loaded->runs[i].info, ws.runs[i].info);
        EXPECT_EQ(loaded->runs[i].analysisCache, ws.runs[i].analysisCache);
        expectSameTrace(*ws.runs[i].trace, *loaded->runs[i].trace);
    }
    auto infos = core::listWorkspaceRuns(path);
    ASSERT_TRUE(infos);
    EXPECT_EQ((*infos)[1].name, "tp8");
    // readTrace opens a workspace too (run 0 by default, runIndex for others).
    core::ReadOptions opts;
    opts.runIndex = 1;
    auto one = core::readTrace(path, opts);
    ASSERT_TRUE(one) << one.error().describe();
    expectSameTrace(*ws.runs[1].trace, **one);
}

TEST(Workspace, StreamsLongerThanOneChunkRoundTrip) {
    TempDir dir;
    const auto path = (dir / "big.tpscope").string();
    core::Workspace ws;
    ws.runs.push_back(core::Run{{"long"}, makeSyntheticTrace({1, 1, 9000, 5}), std::nullopt});
    ASSERT_GT(ws.runs[0].trace->ranks[0].streams[0].events.size(), 65536u);  // more than one chunk
    ASSERT_TRUE(core::saveWorkspace(ws, path));
    auto loaded = core::loadWorkspace(path);
    ASSERT_TRUE(loaded) << loaded.error().describe();
    expectSameTrace(*ws.runs[0].trace, *loaded->runs[0].trace);
    // The format's size target: at most 16 bytes per event on disk, whole file included.
    const double bytesPerEvent =
        static_cast<double>(std::filesystem::file_size(path)) / static_cast<double>(ws.runs[0].trace->eventCount());
    EXPECT_LE(bytesPerEvent, 16.0);
}

// Streams whose columns are all narrow are stored in block form (schema 4), the others as varints, in
// one file; both load back to the same trace. Block form: each inflated chunk opens with the byte 0.
TEST(Workspace, NarrowStreamsAreStoredInBlockFormTheOthersAsVarints) {
    TempDir dir;
    const auto path = (dir / "forms.tpscope").string();
    const auto made = makeSyntheticTrace({2, 1, 9000, 5});
    core::Trace& trace = *made;
    // Rank 1's first stream gets a label met with a second kind: a byte of kind an event, no block form.
    core::EventColumns& mixed = trace.ranks[1].streams[0].events;
    core::EventColumns rebuilt;
    for (std::size_t i = 0; i < mixed.size(); ++i) {
        core::EventRecord e = mixed.at(i);
        if (i == 5) e.kind = e.kind == core::EventKind::Other ? core::EventKind::Gemm : core::EventKind::Other;
        rebuilt.append(e);
    }
    rebuilt.finalize();
    mixed = std::move(rebuilt);
    ASSERT_TRUE(trace.ranks[0].streams[0].events.hasBlockForm());
    ASSERT_FALSE(mixed.hasBlockForm());
    core::Workspace ws;
    ws.runs.push_back(core::Run{{"forms"}, made, std::nullopt});
    ASSERT_TRUE(core::saveWorkspace(ws, path));
    std::map<std::pair<int, int>, std::set<char>> firstBytes;  // (rank, stream) -> first bytes of its chunks
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    sqlite3_stmt* read = nullptr;
    ASSERT_EQ(sqlite3_prepare_v2(db, "SELECT rank_position, stream_position, data, raw_bytes FROM event_chunks", -1,
                                 &read, nullptr),
              SQLITE_OK);
    while (sqlite3_step(read) == SQLITE_ROW) {
        const auto* data = static_cast<const unsigned char*>(sqlite3_column_blob(read, 2));
        auto raw = core::codec::decompress(
            std::span<const unsigned char>(data, static_cast<std::size_t>(sqlite3_column_bytes(read, 2))),
            static_cast<std::uint64_t>(sqlite3_column_int64(read, 3)), "chunk");
        ASSERT_TRUE(raw) << raw.error().describe();
        firstBytes[{sqlite3_column_int(read, 0), sqlite3_column_int(read, 1)}].insert(raw->front());
    }
    sqlite3_finalize(read);
    sqlite3_close(db);
    EXPECT_EQ(firstBytes[std::make_pair(0, 0)], std::set<char>{'\0'});
    EXPECT_EQ(firstBytes[std::make_pair(1, 1)], std::set<char>{'\0'});
    ASSERT_FALSE(firstBytes[std::make_pair(1, 0)].empty());
    EXPECT_EQ(firstBytes[std::make_pair(1, 0)].count('\0'), 0u);  // a varint chunk opens with its event count
    auto loaded = core::loadWorkspace(path);
    ASSERT_TRUE(loaded) << loaded.error().describe();
    expectSameTrace(trace, *loaded->runs[0].trace);
    EXPECT_TRUE(loaded->runs[0].trace->ranks[0].streams[0].events.hasBlockForm());
}

// The loader decodes each stream as soon as its chunk rows are all read (by event count, not by row
// order): chunk rows of different streams interleaved in the file load the same trace.
TEST(Workspace, InterleavedChunkRowsOfDifferentStreamsLoadTheSameTrace) {
    TempDir dir;
    const auto path = (dir / "interleaved.tpscope").string();
    core::Workspace ws;
    ws.runs.push_back(core::Run{{"long"}, makeSyntheticTrace({2, 1, 9000, 5}), std::nullopt});
    ASSERT_GT(ws.runs[0].trace->ranks[1].streams[0].events.size(), 65536u);  // more than one chunk
    ASSERT_TRUE(core::saveWorkspace(ws, path));
    execSql(path,
            "CREATE TABLE reordered AS SELECT * FROM event_chunks ORDER BY chunk, rank_position, stream_position; "
            "DELETE FROM event_chunks; INSERT INTO event_chunks SELECT * FROM reordered; DROP TABLE reordered;");
    auto loaded = core::loadWorkspace(path);
    ASSERT_TRUE(loaded) << loaded.error().describe();
    expectSameTrace(*ws.runs[0].trace, *loaded->runs[0].trace);
}

// The reader runs at most readAheadBytes ahead of the decoders unless every decoder waits for a chunk
// it has not read yet: with chunk rows of the streams interleaved, a read-ahead of one byte and one to
// three decoders, the trace loads the same (no decoder waits forever for a row behind the one the
// reader holds), and a damaged chunk is still one error.
TEST(Workspace, ATinyReadAheadLoadsTheSameTraceWithAnyNumberOfDecoders) {
    TempDir dir;
    const auto path = (dir / "interleaved.tpscope").string();
    core::Workspace ws;
    ws.runs.push_back(core::Run{{"long"}, makeSyntheticTrace({3, 1, 9000, 5}), std::nullopt});
    ASSERT_TRUE(core::saveWorkspace(ws, path));
    execSql(path,
            "CREATE TABLE reordered AS SELECT * FROM event_chunks ORDER BY chunk, rank_position DESC, stream_position; "
            "DELETE FROM event_chunks; INSERT INTO event_chunks SELECT * FROM reordered; DROP TABLE reordered;");
    for (const unsigned threads : {1u, 2u, 3u}) {
        core::WorkspaceOptions options;
        options.threads = threads;
        options.readAheadBytes = 1;
        auto loaded = core::loadWorkspace(path, options);
        ASSERT_TRUE(loaded) << loaded.error().describe();
        expectSameTrace(*ws.runs[0].trace, *loaded->runs[0].trace);
    }
    execSql(path, "UPDATE event_chunks SET data = randomblob(length(data)) WHERE rowid = 2");
    for (const unsigned threads : {1u, 2u}) {
        core::WorkspaceOptions options;
        options.threads = threads;
        options.readAheadBytes = 1;
        auto loaded = core::loadWorkspace(path, options);
        ASSERT_FALSE(loaded);
        EXPECT_EQ(loaded.error().code, core::ErrorCode::ParseError);
        EXPECT_NE(loaded.error().message.find("corrupt"), std::string::npos) << loaded.error().message;
    }
}

// A stream whose last chunk row is missing is never complete: an error naming the stream's count,
// with the decoders of the other streams wound down (no hang, no crash).
TEST(Workspace, AMissingChunkRowIsAnErrorNotAHang) {
    TempDir dir;
    const auto path = (dir / "short.tpscope").string();
    core::Workspace ws;
    ws.runs.push_back(core::Run{{"long"}, makeSyntheticTrace({2, 1, 9000, 5}), std::nullopt});
    ASSERT_TRUE(core::saveWorkspace(ws, path));
    execSql(path, "DELETE FROM event_chunks WHERE rowid = (SELECT max(rowid) FROM event_chunks)");
    auto loaded = core::loadWorkspace(path);
    ASSERT_FALSE(loaded);
    EXPECT_EQ(loaded.error().code, core::ErrorCode::ParseError);
    EXPECT_NE(loaded.error().message.find("event count of a stream"), std::string::npos) << loaded.error().message;
}

TEST(Workspace, SavingReplacesTheFileAndLeavesNoTemporaryFiles) {
    TempDir dir;
    const auto path = (dir / "w.tpscope").string();
    core::Workspace a;
    a.runs.push_back(core::Run{{"a"}, makeSyntheticTrace({1, 1, 2, 1}), std::nullopt});
    ASSERT_TRUE(core::saveWorkspace(a, path));
    const core::Workspace b = twoRuns();
    ASSERT_TRUE(core::saveWorkspace(b, path));
    auto loaded = core::loadWorkspace(path);
    ASSERT_TRUE(loaded);
    EXPECT_EQ(loaded->runs.size(), 2u);
    std::size_t files = 0;
    for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir.path())) ++files;
    EXPECT_EQ(files, 1u);
}

TEST(Workspace, AFailedSaveLeavesThePreviousFileIntact) {
    TempDir dir;
    const auto path = (dir / "w.tpscope").string();
    core::Workspace small;
    small.runs.push_back(core::Run{{"small"}, makeSyntheticTrace({1, 1, 2, 1}), std::nullopt});
    ASSERT_TRUE(core::saveWorkspace(small, path));
    const std::string before = fileBytes(path);

    // Simulate a full disk: files may not grow past 64 KiB while the big save runs.
    rlimit old{};
    ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &old), 0);
    auto* previousHandler = std::signal(SIGXFSZ, SIG_IGN);
    rlimit tiny = old;
    tiny.rlim_cur = rlim_t{64} * 1024;
    ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &tiny), 0);
    core::Workspace big;
    big.runs.push_back(core::Run{{"big"}, makeSyntheticTrace({8, 4, 80, 2}), std::nullopt});
    const core::Status saved = core::saveWorkspace(big, path);
    setrlimit(RLIMIT_FSIZE, &old);
    std::signal(SIGXFSZ, previousHandler);

    ASSERT_FALSE(saved);
    EXPECT_EQ(saved.error().context, path);
    EXPECT_EQ(fileBytes(path), before);
    auto loaded = core::loadWorkspace(path);
    ASSERT_TRUE(loaded) << loaded.error().describe();
    EXPECT_EQ(loaded->runs.at(0).info.name, "small");
    std::size_t files = 0;
    for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir.path())) ++files;
    EXPECT_EQ(files, 1u);  // the temporary file is gone
}

void execSql(const std::string& path, const char* sql) {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db, sql, nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
    sqlite3_close(db);
}

TEST(Workspace, ANewerSchemaIsAClearError) {
    TempDir dir;
    const auto path = (dir / "new.tpscope").string();
    ASSERT_TRUE(core::saveWorkspace(twoRuns(), path));
    execSql(path, "UPDATE tpscope_meta SET value = '99' WHERE key = 'schema_version'");
    auto loaded = core::loadWorkspace(path);
    ASSERT_FALSE(loaded);
    EXPECT_EQ(loaded.error().code, core::ErrorCode::Unsupported);
    EXPECT_NE(loaded.error().message.find("newer tpscope"), std::string::npos);
    EXPECT_NE(loaded.error().message.find("99"), std::string::npos);
}

// A workspace written before host rows existed (schema 1: no host_threads table) still opens.
TEST(Workspace, SchemaOneFilesWithoutHostThreadsStillLoad) {
    TempDir dir;
    const auto path = (dir / "old.tpscope").string();
    const core::Workspace ws = twoRuns();
    ASSERT_TRUE(core::saveWorkspace(ws, path));
    execSql(path, "DROP TABLE host_threads; UPDATE tpscope_meta SET value = '1' WHERE key = 'schema_version'");
    auto loaded = core::loadWorkspace(path);
    ASSERT_TRUE(loaded) << loaded.error().describe();
    ASSERT_EQ(loaded->runs.size(), 2u);
    expectSameTrace(*ws.runs[0].trace, *loaded->runs[0].trace);
    EXPECT_EQ(loaded->runs[0].trace->hostEventCount(), 0u);
}

// Every blob of a workspace written before schema version 3 is a zlib stream: such a file, every
// blob rewritten so (events, ranges, names, payloads), still opens to the same traces.
TEST(Workspace, SchemaTwoFilesWithZlibBlobsStillLoad) {
    TempDir dir;
    const auto path = (dir / "zlib.tpscope").string();
    const core::Workspace ws = twoRuns();
    ASSERT_TRUE(core::saveWorkspace(ws, path));
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    std::size_t rewritten = 0;
    for (const auto& [table, blob, raw] :
         {std::tuple{"event_chunks", "data", "raw_bytes"}, std::tuple{"ranks", "ranges", "ranges_raw_bytes"},
          std::tuple{"trace_tables", "names", "names_raw_bytes"},
          std::tuple{"trace_tables", "payloads", "payloads_raw_bytes"}}) {
        const std::string select = std::string("SELECT rowid, ") + blob + ", " + raw + " FROM " + table;
        const std::string update = std::string("UPDATE ") + table + " SET " + blob + " = ?1 WHERE rowid = ?2";
        sqlite3_stmt* read = nullptr;
        sqlite3_stmt* write = nullptr;
        ASSERT_EQ(sqlite3_prepare_v2(db, select.c_str(), -1, &read, nullptr), SQLITE_OK);
        ASSERT_EQ(sqlite3_prepare_v2(db, update.c_str(), -1, &write, nullptr), SQLITE_OK);
        while (sqlite3_step(read) == SQLITE_ROW) {
            const auto* data = static_cast<const unsigned char*>(sqlite3_column_blob(read, 1));
            const std::span<const unsigned char> stored(data, static_cast<std::size_t>(sqlite3_column_bytes(read, 1)));
            ASSERT_TRUE(core::codec::isZstdFrame(stored)) << table << "." << blob;
            auto plain =
                core::codec::decompress(stored, static_cast<std::uint64_t>(sqlite3_column_int64(read, 2)), "t");
            ASSERT_TRUE(plain) << plain.error().describe();
            auto zlib = core::codec::compress(*plain, 6);
            ASSERT_TRUE(zlib);
            sqlite3_bind_blob(write, 1, zlib->data(), static_cast<int>(zlib->size()), SQLITE_TRANSIENT);
            sqlite3_bind_int64(write, 2, sqlite3_column_int64(read, 0));
            ASSERT_EQ(sqlite3_step(write), SQLITE_DONE);
            sqlite3_reset(write);
            ++rewritten;
        }
        sqlite3_finalize(read);
        sqlite3_finalize(write);
    }
    sqlite3_close(db);
    EXPECT_GT(rewritten, 4u);
    execSql(path, "UPDATE tpscope_meta SET value = '2' WHERE key = 'schema_version'");
    auto loaded = core::loadWorkspace(path);
    ASSERT_TRUE(loaded) << loaded.error().describe();
    ASSERT_EQ(loaded->runs.size(), ws.runs.size());
    for (std::size_t i = 0; i < ws.runs.size(); ++i) expectSameTrace(*ws.runs[i].trace, *loaded->runs[i].trace);
}

// A schema-2 file must have its host_threads table: a view in its place is refused.
TEST(Workspace, SchemaTwoWithoutAHostThreadsTableIsAClearError) {
    TempDir dir;
    const auto path = (dir / "bad2.tpscope").string();
    ASSERT_TRUE(core::saveWorkspace(twoRuns(), path));
    execSql(path, "DROP TABLE host_threads; CREATE VIEW host_threads AS SELECT * FROM streams");
    auto loaded = core::loadWorkspace(path);
    ASSERT_FALSE(loaded);
}

TEST(Workspace, DamagedEventDataIsAnErrorNotACrash) {
    TempDir dir;
    const auto path = (dir / "bad.tpscope").string();
    ASSERT_TRUE(core::saveWorkspace(twoRuns(), path));
    execSql(path, "UPDATE event_chunks SET data = randomblob(length(data)) WHERE rowid = 3");
    auto loaded = core::loadWorkspace(path);
    ASSERT_FALSE(loaded);
    EXPECT_EQ(loaded.error().code, core::ErrorCode::ParseError);
    EXPECT_NE(loaded.error().message.find("corrupt"), std::string::npos);
}

TEST(Workspace, AnSqliteFileThatIsNotAWorkspaceIsRefused) {
    TempDir dir;
    const auto path = (dir / "other.tpscope").string();
    execSql(path, "CREATE TABLE t(x)");
    auto loaded = core::loadWorkspace(path);
    ASSERT_FALSE(loaded);
    EXPECT_EQ(loaded.error().code, core::ErrorCode::WrongFormat);
}

TEST(Workspace, LoadingLeavesAReadOnlyFileUntouched) {
    TempDir dir;
    const auto path = (dir / "ro.tpscope").string();
    ASSERT_TRUE(core::saveWorkspace(twoRuns(), path));
    std::filesystem::permissions(path, std::filesystem::perms::owner_read | std::filesystem::perms::group_read);
    const std::string before = fileBytes(path);
    const auto mtime = std::filesystem::last_write_time(path);
    auto loaded = core::loadWorkspace(path);
    ASSERT_TRUE(loaded) << loaded.error().describe();
    EXPECT_EQ(fileBytes(path), before);
    EXPECT_EQ(std::filesystem::last_write_time(path), mtime);
    std::size_t files = 0;
    for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir.path())) ++files;
    EXPECT_EQ(files, 1u);  // no journal or -shm files either
}

TEST(Workspace, CancellingASaveKeepsThePreviousFile) {
    TempDir dir;
    const auto path = (dir / "c.tpscope").string();
    core::Workspace small;
    small.runs.push_back(core::Run{{"small"}, makeSyntheticTrace({1, 1, 2, 1}), std::nullopt});
    ASSERT_TRUE(core::saveWorkspace(small, path));
    std::atomic<bool> cancel{true};
    core::WorkspaceOptions opts;
    opts.control.cancel = &cancel;
    const core::Status s = core::saveWorkspace(twoRuns(), path, opts);
    ASSERT_FALSE(s);
    EXPECT_EQ(s.error().code, core::ErrorCode::Cancelled);
    auto loaded = core::loadWorkspace(path);
    ASSERT_TRUE(loaded);
    EXPECT_EQ(loaded->runs.at(0).info.name, "small");
}

}  // namespace
}  // namespace tpscope::test
