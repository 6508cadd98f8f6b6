// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// simulate --out writes a workspace that info/analyze (and the GUI) read back.

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>

#include "core/io/workspace/workspace.h"
#include "test_support.h"

namespace tpscope::test {
namespace {

TEST(CliRunOutput, SimulatedSweepIsSavedAsAWorkspaceWithEveryRun) {
    const std::string path = ::testing::TempDir() + "/tpscope_sim_sweep.tpscope";
    std::filesystem::remove(path);
    const auto r = runCli(
        "simulate --model llama3-8b --gpu h100-sxm --fabric nvlink4 --tp 1,2 --batch 1,4 "
        "--tokens 2 --out " +
        path);
    ASSERT_EQ(r.exitCode, 0) << r.out;
    const auto runs = core::listWorkspaceRuns(path);
    ASSERT_TRUE(runs.ok()) << runs.error().describe();
    ASSERT_EQ(runs->size(), 4u) << "one run per TP x batch";
    for (const auto& run : *runs) {
        EXPECT_EQ(run.model, "llama3-8b");
        EXPECT_EQ(run.gpu, "h100-sxm");
        EXPECT_EQ(run.fabric, "nvlink4");
        EXPECT_EQ(run.tokens, 2);
    }
    const auto ws = core::loadWorkspace(path);
    ASSERT_TRUE(ws.ok()) << ws.error().describe();
    EXPECT_EQ(ws->runs[1].trace->ranks.size(), static_cast<std::size_t>(ws->runs[1].info.tp));
    const auto analyze = runCli("analyze " + path + " --json");
    EXPECT_EQ(analyze.exitCode, 0) << analyze.out;
    std::filesystem::remove(path);
}

TEST(CliRunOutput, UnknownOutputTypeIsRejectedBeforeRunning) {
    const auto r = runCli("simulate --model llama3-8b --gpu h100-sxm --fabric nvlink4 --tp 1 --tokens 1 --out x.png");
    EXPECT_EQ(r.exitCode, 2) << r.out;
    EXPECT_NE(r.out.find("unknown output type"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace tpscope::test

namespace tpscope::test {
namespace {

TEST(CliRunOutput, ScalingReadsEveryRunOfAWorkspace) {
    const std::string path = ::testing::TempDir() + "/tpscope_scaling_sweep.tpscope";
    std::filesystem::remove(path);
    ASSERT_EQ(runCli("simulate --model llama3-8b --gpu h100-sxm --fabric nvlink4 --tp 1,2,4 --batch 1 --tokens 2 "
                     "--out " +
                     path)
                  .exitCode,
              0);
    const auto r = runCli("scaling " + path + " --price-per-gpu-hour 3 --json");
    ASSERT_EQ(r.exitCode, 0) << r.out;
    for (const char* label : {"TP 1 · batch 1", "TP 2 · batch 1", "TP 4 · batch 1"}) {
        EXPECT_NE(r.out.find(label), std::string::npos) << label << "\n" << r.out.substr(0, 2000);
    }
    std::filesystem::remove(path);
}

}  // namespace
}  // namespace tpscope::test
