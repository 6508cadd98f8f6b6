// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// tpscope-cli convert and info, run as a user would.

#include <gtest/gtest.h>
#include <simdjson.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "test_support.h"

namespace tpscope::test {
namespace {

namespace fs = std::filesystem;

class CliConvert : public ::testing::Test {
  protected:
    void SetUp() override {
        m_dir = fs::temp_directory_path() / ("tpscope-cli-convert-" + std::to_string(::getpid()));
        fs::create_directories(m_dir);
        std::ofstream(m_dir / "rank-1.json")
            << R"json({"distributedInfo": {"rank": 1, "world_size": 2}, "traceEvents": [
          {"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllReduce_Sum_bf16_RING_LL", "pid": 0, "tid": 20,
           "ts": 10, "dur": 5, "args": {"stream": 20, "Collective name": "allreduce", "In msg nelems": 8, "dtype": "BFloat16"}},
          {"ph": "X", "cat": "kernel", "name": "sm90_xmma_gemm_bf16", "pid": 0, "tid": 7, "ts": 1, "dur": 8},
          {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pinned -> Device)", "pid": 0, "tid": 7, "ts": 20, "dur": 1,
           "args": {"bytes": 64}},
          {"ph": "X", "cat": "kernel", "name": "late", "pid": 0, "tid": 7, "ts": 30, "dur": -2}]})json";
    }
    void TearDown() override { fs::remove_all(m_dir); }
    std::string path(const std::string& name) const { return (m_dir / name).string(); }

    fs::path m_dir;
};

std::string jsonPart(const std::string& out) {
    return out.substr(out.find('{'));
}

TEST_F(CliConvert, InfoJsonReportsRanksKindsAndImportStats) {
    const auto r = runCli("info --json " + path("rank-1.json"));
    ASSERT_EQ(r.exitCode, 0) << r.out;
    simdjson::dom::parser parser;
    simdjson::dom::element doc;
    ASSERT_EQ(parser.parse(jsonPart(r.out)).get(doc), simdjson::SUCCESS) << r.out;
    EXPECT_EQ(doc["event_count"].get_uint64().value(), 4u);
    EXPECT_EQ(doc["ranks"].at(0)["rank"].get_uint64().value(), 1u);
    EXPECT_EQ(doc["events_by_kind"]["collective"].get_uint64().value(), 1u);
    EXPECT_EQ(doc["events_by_kind"]["gemm"].get_uint64().value(), 1u);
    EXPECT_EQ(doc["events_by_kind"]["memcpy"].get_uint64().value(), 1u);
    EXPECT_EQ(doc["import_stats"]["negative_durations"].get_uint64().value(), 1u);
    EXPECT_EQ(doc["duration_ns"].get_int64().value(), 29'000);  // from 1 µs to 30 µs
}

TEST_F(CliConvert, ConvertsToEveryOutputFormatAndBack) {
    for (const char* out : {"w.tpscope", "t.json", "t.json.gz", "e.csv", "e.sqlite"}) {
        const auto r = runCli("convert " + path("rank-1.json") + " " + path(out));
        ASSERT_EQ(r.exitCode, 0) << out << ": " << r.out;
        EXPECT_TRUE(fs::exists(path(out))) << out;
    }
    EXPECT_TRUE(fs::exists(path("e.ranges.csv")));
    for (const char* back : {"w.tpscope", "t.json", "t.json.gz"}) {
        const auto r = runCli("info --json " + path(back));
        ASSERT_EQ(r.exitCode, 0) << back << ": " << r.out;
        simdjson::dom::parser parser;
        simdjson::dom::element doc;
        ASSERT_EQ(parser.parse(jsonPart(r.out)).get(doc), simdjson::SUCCESS);
        EXPECT_EQ(doc["event_count"].get_uint64().value(), 4u) << back;
        EXPECT_EQ(doc["ranks"].at(0)["rank"].get_uint64().value(), 1u) << back;
    }
}

TEST_F(CliConvert, NotATraceIsOneClearErrorWithExitCode1) {
    std::ofstream(m_dir / "picture.json", std::ios::binary) << std::string("\x89PNG\r\n\x1a\n", 8);
    const auto r = runCli("info " + path("picture.json"));
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_NE(r.out.find("PNG"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("picture.json"), std::string::npos) << r.out;
}

TEST_F(CliConvert, AnUnknownOutputExtensionIsABadCommandLine) {
    const auto r = runCli("convert " + path("rank-1.json") + " " + path("out.xyz"));
    EXPECT_EQ(r.exitCode, 2) << r.out;
    EXPECT_NE(r.out.find("--to"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace tpscope::test
