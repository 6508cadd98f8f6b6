// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Files that are not traces, or are broken ones: each gives one clear error naming the file, never
// a crash, a hang or unbounded memory.

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <fstream>

#include "core/io/codec/zlib.h"
#include "core/io/import/trace_reader.h"
#include "io_test_util.h"

namespace tpscope::test {
namespace {

constexpr const char* kTrace =
    R"({"traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 1, "dur": 2}]})";

core::Error expectError(const std::filesystem::path& path) {
    auto t = core::readTrace(path.string());
    EXPECT_FALSE(t) << path << " was accepted";
    if (t) return {};
    EXPECT_EQ(t.error().context, path.string());
    EXPECT_FALSE(t.error().message.empty());
    return t.error();
}

std::string gzipped(const std::string& text) {
    auto gz = core::codec::gzip(text);
    EXPECT_TRUE(gz) << gz.error().describe();
    return gz ? *gz : std::string();
}

TEST(BadInput, TruncatedGzipIsReportedAsTruncated) {
    TempDir dir;
    std::string big = R"({"traceEvents": [)";
    for (int i = 0; i < 5000; ++i) {
        big += std::string(i ? "," : "") + R"({"ph":"X","cat":"kernel","name":"k)" + std::to_string(i) +
               R"(","pid":0,"tid":7,"ts":)" + std::to_string(i) + R"(,"dur":1})";
    }
    big += "]}";
    const std::string gz = gzipped(big);
    std::ofstream(dir / "t.json.gz", std::ios::binary) << gz.substr(0, gz.size() / 2);
    const auto e = expectError(dir / "t.json.gz");
    EXPECT_NE(e.message.find("truncated gzip"), std::string::npos) << e.message;
}

TEST(BadInput, TruncatedJsonIsReportedAsTruncated) {
    TempDir dir;
    const std::string text = kTrace;
    std::ofstream(dir / "t.json") << text.substr(0, text.size() - 10);
    const auto e = expectError(dir / "t.json");
    EXPECT_EQ(e.code, core::ErrorCode::ParseError);
    EXPECT_NE(e.message.find("truncated"), std::string::npos) << e.message;
}

TEST(BadInput, JsonThatIsNotATraceIsTheWrongFormat) {
    TempDir dir;
    std::ofstream(dir / "config.json") << R"({"name": "not a trace", "values": [1, 2, 3]})";
    const auto e = expectError(dir / "config.json");
    EXPECT_EQ(e.code, core::ErrorCode::WrongFormat);
    EXPECT_NE(e.message.find("traceEvents"), std::string::npos) << e.message;
}

TEST(BadInput, APngRenamedJsonIsNamedAsAPng) {
    TempDir dir;
    std::ofstream(dir / "image.json", std::ios::binary) << std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16);
    const auto e = expectError(dir / "image.json");
    EXPECT_EQ(e.code, core::ErrorCode::WrongFormat);
    EXPECT_NE(e.message.find("PNG"), std::string::npos) << e.message;
}

TEST(BadInput, AnSqliteFileThatIsNotAnNsysExportIsRefused) {
    TempDir dir;
    const auto path = dir / "other.sqlite";
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    sqlite3_exec(db, "CREATE TABLE measurements(x REAL); INSERT INTO measurements VALUES(1.5);", nullptr, nullptr,
                 nullptr);
    sqlite3_close(db);
    const auto e = expectError(path);
    EXPECT_EQ(e.code, core::ErrorCode::WrongFormat);
    EXPECT_NE(e.message.find("Nsight Systems"), std::string::npos) << e.message;
}

TEST(BadInput, AnEmptyFileIsReportedAsEmpty) {
    TempDir dir;
    { const std::ofstream empty(dir / "empty.json"); }
    const auto e = expectError(dir / "empty.json");
    EXPECT_NE(e.message.find("empty"), std::string::npos) << e.message;
}

TEST(BadInput, AMissingFileIsNotFound) {
    TempDir dir;
    const auto e = expectError(dir / "nope.json");
    EXPECT_EQ(e.code, core::ErrorCode::NotFound);
}

// 2 GB files (sparse, so the test costs no disk): rejected after the first bytes, nothing buffered.
void makeSparse(const std::filesystem::path& path, const std::string& head) {
    { std::ofstream(path, std::ios::binary) << head; }
    ASSERT_EQ(::truncate(path.c_str(), off_t{2} << 30), 0);
}

TEST(BadInput, TwoGigabytesOfGarbageFailFastWithBoundedMemory) {
    TempDir dir;
    makeSparse(dir / "garbage.json", std::string("\x13\x37garbage\x01\x02", 11));
    auto e = expectError(dir / "garbage.json");
    EXPECT_EQ(e.code, core::ErrorCode::WrongFormat);
    EXPECT_NE(e.message.find("binary data"), std::string::npos) << e.message;
    // Starts like JSON, then zero bytes: the scanner stops at the first byte that cannot start a value.
    makeSparse(dir / "array.json", "[");
    e = expectError(dir / "array.json");
    EXPECT_EQ(e.code, core::ErrorCode::ParseError);
    makeSparse(dir / "object.json", R"({"traceEvents": [{"ph": "X"}, )");
    e = expectError(dir / "object.json");
    EXPECT_EQ(e.code, core::ErrorCode::ParseError);
}

TEST(BadInput, AFolderWithoutTracesSaysSo) {
    TempDir dir;
    std::ofstream(dir / "readme.txt") << "hello";
    const auto t = core::readTrace(dir.path().string());
    ASSERT_FALSE(t);
    EXPECT_EQ(t.error().code, core::ErrorCode::NotFound);
}

}  // namespace
}  // namespace tpscope::test
