// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// The multi-process launch under mpirun, without a GPU: `capture --cpu-test` runs the real
// launch code (NCCL id broadcast, per-host clock offsets, gather, merge on process 0) with
// synthetic events in place of GPU work.

#include <gtest/gtest.h>
#include <simdjson.h>

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "core/workload/decode_plan.h"
#include "support/small_model.h"
#include "test_support.h"

namespace tpscope::test {
namespace {

// A small custom model keeps the trace small; its plan gives the expected event count.
const std::string kModel = customModelFlags();

std::size_t expectedEventsPerRank(int tp, int tokens) {
    auto plan = core::buildDecodePlan({customModel(), tp, 1, 1024, core::Dtype::Fp16});
    EXPECT_TRUE(plan.ok());
    return plan->ops.size() * static_cast<std::size_t>(tokens);
}

std::string mpirun(int processes, const std::string& args) {
#ifndef TPSCOPE_MPIEXEC
    (void)processes;
    (void)args;
    return {};
#else
    // A session folder of this test process's own: ctest runs these tests in parallel, and two
    // mpiruns that start at once race to create OpenMPI's shared /tmp/ompi.<host>.<uid> ("mkdir ...
    // File exists"). Removed when the process ends.
    struct SessionDir {
        std::string path = (std::filesystem::temp_directory_path() / "tpscope-mpi-XXXXXX").string();
        SessionDir() {
            if (::mkdtemp(path.data()) == nullptr) path = std::filesystem::temp_directory_path().string();
        }
        ~SessionDir() {
            std::error_code ignored;
            if (path.find("tpscope-mpi-") != std::string::npos) std::filesystem::remove_all(path, ignored);
        }
    };
    static const SessionDir session;
    return std::string(TPSCOPE_MPIEXEC) + " --allow-run-as-root --oversubscribe --mca orte_tmpdir_base " +
           session.path + " -np " + std::to_string(processes) + " " + TPSCOPE_CLI_PATH + " " + args;
#endif
}

#define REQUIRE_MPI()                                                                      \
    do {                                                                                   \
        if (mpirun(1, "").empty()) GTEST_SKIP() << "built without MPI (no mpiexec found)"; \
    } while (0)

// The summary JSON on process 0's stdout, between whatever else mpirun printed.
simdjson::dom::element summary(simdjson::dom::parser& parser, const std::string& out) {
    const auto first = out.find('{');
    const auto last = out.rfind('}');
    EXPECT_NE(first, std::string::npos) << out;
    simdjson::dom::element doc;
    const auto err = parser.parse(out.substr(first, last - first + 1)).get(doc);
    EXPECT_EQ(err, simdjson::SUCCESS) << out;
    return doc;
}

std::string tempPath(const std::string& name) {
    return (std::filesystem::temp_directory_path() / (name + "-" + std::to_string(::getpid()) + ".json")).string();
}

TEST(MpiLaunch, TwoProcessesShareTheIdAndRankZeroMergesBothRanksOntoItsClock) {
    REQUIRE_MPI();
    const std::int64_t skewNs = 10'000'000'000;  // process 1's clock runs 10 s ahead
    const std::string out = tempPath("mpi-launch");
    const auto r = runCommand(mpirun(2, std::string("capture ") + kModel + " --tp 2 --tokens 3 --cpu-test --json" +
                                            " --cpu-test-host-per-process --cpu-test-skew-ns " +
                                            std::to_string(skewNs) + " --out " + out));
    ASSERT_EQ(r.exitCode, 0) << r.out;
    simdjson::dom::parser parser;
    const auto s = summary(parser, r.out);
    EXPECT_EQ(int64_t(s["processes"]), 2);
    EXPECT_EQ(std::string_view(s["id_agreed"]), "yes");
    simdjson::dom::array ranks = s["ranks"];
    ASSERT_EQ(ranks.size(), 2u);
    const std::size_t expected = expectedEventsPerRank(2, 3);
    std::int64_t starts[2] = {0, 0};
    std::size_t i = 0;
    for (auto rank : ranks) {
        EXPECT_EQ(uint64_t(rank["rank"]), i);
        EXPECT_EQ(uint64_t(rank["events"]), expected);
        starts[i] = int64_t(rank["first_step_start_ns"]);
        ++i;
    }
    const std::int64_t offset1 = int64_t(ranks.at(1)["clock_offset_ns"]);
    // The offset is measured by ping-pong: within a generous 50 ms of the injected skew.
    EXPECT_LT(std::llabs(offset1 + skewNs), 50'000'000) << offset1;
    // Both processes start their steps right after the same barrier: once merged they line up.
    EXPECT_LT(std::llabs(starts[1] - starts[0]), 500'000'000) << starts[0] << " " << starts[1];
    EXPECT_TRUE(std::filesystem::exists(out));
    std::filesystem::remove(out);
}

TEST(MpiLaunch, ProcessesOnOneHostKeepItsClock) {
    REQUIRE_MPI();
    const std::string out = tempPath("mpi-launch-onehost");
    const auto r =
        runCommand(mpirun(2, std::string("capture ") + kModel + " --tp 4 --tokens 1 --cpu-test --json --out " + out));
    ASSERT_EQ(r.exitCode, 0) << r.out;
    simdjson::dom::parser parser;
    const auto s = summary(parser, r.out);
    simdjson::dom::array ranks = s["ranks"];
    ASSERT_EQ(ranks.size(), 4u);  // two GPUs per process
    for (auto rank : ranks) EXPECT_EQ(int64_t(rank["clock_offset_ns"]), 0);
    EXPECT_EQ(uint64_t(ranks.at(3)["device"]), 3u);  // process 1 drives local GPUs 2 and 3
    std::filesystem::remove(out);
}

TEST(MpiLaunch, AProcessFailureReachesTheOtherProcessesWithoutWaitingOutTheTimeout) {
    REQUIRE_MPI();
    const std::string out = tempPath("mpi-launch-fail");
    // Process 1 fails and announces it; process 0 polls as a capture's main thread does while its GPUs
    // run, and would report "no failure announcement" only after the 120 s hang timeout.
    const auto start = std::chrono::steady_clock::now();
    const auto r =
        runCommand(mpirun(2, std::string("capture ") + kModel +
                                 " --tp 2 --tokens 1 --cpu-test --cpu-test-fail-process 1 --json --out " + out));
    const auto seconds =
        std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - start).count();
    EXPECT_NE(r.exitCode, 0) << r.out;
    EXPECT_NE(r.out.find("process 0: stopped because another rank failed (another process)"), std::string::npos)
        << r.out;
    // Process 1's own error is in the merged trace process 0 wrote (its stderr may be cut short when
    // mpirun ends the job on process 0's exit status).
    std::ifstream trace(out);
    const std::string written((std::istreambuf_iterator<char>(trace)), std::istreambuf_iterator<char>());
    EXPECT_NE(written.find("cpu test: injected failure"), std::string::npos);
    EXPECT_EQ(r.out.find("no failure announcement"), std::string::npos) << r.out;
    EXPECT_LT(seconds, 60) << r.out;
    std::filesystem::remove(out);
}

TEST(MpiLaunch, TpThatTheProcessesCannotSplitIsOneClearError) {
    REQUIRE_MPI();
    const auto r = runCommand(mpirun(2, std::string("capture ") + kModel + " --tp 1 --cpu-test --out /dev/null"));
    EXPECT_NE(r.exitCode, 0);
    EXPECT_NE(r.out.find("tp 1 is not a multiple of the 2 launched processes"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace tpscope::test
