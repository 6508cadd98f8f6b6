// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// scripts/gen-kineto-trace.py, the benchmarks' Kineto generator, read back by tpscope-cli analyze:
// every op it writes becomes one GPU event, the layers are found, and the late rank it plants is
// the one the others wait for.

#include <gtest/gtest.h>
#include <simdjson.h>

#include <cstdint>
#include <filesystem>
#include <regex>
#include <string>

#include "test_support.h"

namespace tpscope::test {
namespace {

constexpr int kOpsPerLayer = 9;  // QKV, attention, output, all-reduce, norm, gate/up, act, down, all-reduce

TEST(GenKinetoTrace, AnalyzeReadsEveryOpTheLayersAndTheLateRank) {
    if (runCommand("python3 --version").exitCode != 0) GTEST_SKIP() << "python3 not found";
    const auto dir = std::filesystem::temp_directory_path() / "tpscope_gen_kineto_trace_test";
    std::filesystem::remove_all(dir);
    const int ranks = 3, layers = 4;
    const auto gen = runCommand("python3 " + std::string(TPSCOPE_SOURCE_DIR) + "/scripts/gen-kineto-trace.py --out " +
                                dir.string() + " --ranks 3 --layers 4 --target-mb 0.3 --late-rank 1");
    ASSERT_EQ(gen.exitCode, 0) << gen.out;
    std::smatch m;
    ASSERT_TRUE(std::regex_search(gen.out, m, std::regex(R"((\d+) steps of 4 layers)"))) << gen.out;
    const int steps = std::stoi(m[1]);
    ASSERT_GT(steps, 1);

    const auto r = runCli("analyze --json " + dir.string());
    ASSERT_EQ(r.exitCode, 0) << r.out;
    simdjson::dom::parser parser;
    const simdjson::padded_string text(r.out);
    simdjson::dom::element doc;
    ASSERT_EQ(parser.parse(text).get(doc), simdjson::SUCCESS) << r.out.substr(0, 400);
    EXPECT_EQ(std::int64_t(doc["events"]), std::int64_t{ranks} * steps * layers * kOpsPerLayer);
    for (const auto seg : simdjson::dom::array(doc["segmentation"])) {
        EXPECT_EQ(std::int64_t(seg["layers"]), std::int64_t{steps} * layers);
    }
    const std::int64_t collectives = std::int64_t{steps} * layers * 2;
    for (const auto total : simdjson::dom::array(doc["rank_totals"])) {
        const std::int64_t rank = total["rank"];
        EXPECT_EQ(std::int64_t(total["collective_kernels"]), collectives);
        // The late rank arrives last at every all-reduce and never waits; the others wait for it.
        EXPECT_EQ(std::int64_t(total["last_arrivals"]), rank == 1 ? collectives : 0) << "rank " << rank;
        if (rank == 1) {
            EXPECT_EQ(std::int64_t(total["exposed_wait_ns"]), 0);
        } else {
            EXPECT_GT(std::int64_t(total["exposed_wait_ns"]), 0);
        }
    }
    std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace tpscope::test
