// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// tpscope-cli analyze | scaling | compare: argument handling and errors. The numbers themselves
// are tested in tests/core/analysis (the commands print core::analysis results).

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/sim/defaults.h"
#include "core/util/units.h"
#include "test_support.h"

namespace tpscope::test {
namespace {

std::string notATrace() {
    const auto path = std::filesystem::temp_directory_path() / "tpscope_analyze_cli_not_a_trace.txt";
    std::ofstream(path) << "hello, not a trace\n";
    return path.string();
}

TEST(AnalyzeCli, MissingFileIsOneClearError) {
    const auto r = runCli("analyze /nonexistent/trace.json");
    EXPECT_NE(r.exitCode, 0);
    EXPECT_NE(r.out.find("/nonexistent/trace.json"), std::string::npos) << r.out;
}

TEST(AnalyzeCli, FileThatIsNotATraceIsRejectedByName) {
    const auto file = notATrace();
    const auto r = runCli("analyze " + file + " --json");
    EXPECT_NE(r.exitCode, 0);
    EXPECT_NE(r.out.find(file), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("Segmentation fault"), std::string::npos);
}

// Issue 49: the price is no longer required; its default is the one table's (core/sim/defaults.h),
// and a bad price is still refused on the command line.
TEST(ScalingCli, PriceDefaultsToTheTableAndABadOneIsRefused) {
    const auto help = runCli("scaling --help");
    EXPECT_NE(help.out.find(core::formatShortest(core::sim::kDefaults.pricePerGpuHour)), std::string::npos) << help.out;
    const auto bad = runCli("scaling a.json b.json --price-per-gpu-hour -1");
    EXPECT_EQ(bad.exitCode, 2);
    EXPECT_NE(bad.out.find("--price-per-gpu-hour"), std::string::npos) << bad.out;
}

TEST(ScalingCli, PerFileHintsMustMatchTheFileCount) {
    const auto file = notATrace();
    const auto r = runCli("scaling " + file + " " + file + " --price-per-gpu-hour 3 --tp 1,2,4");
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.out.find("one per file"), std::string::npos) << r.out;
}

TEST(CompareCli, NeedsTwoRuns) {
    const auto r = runCli("compare only-one.json");
    EXPECT_EQ(r.exitCode, 2);
}

TEST(AnalyzeCli, HelpListsTheOptions) {
    const auto r = runCli("analyze --help");
    EXPECT_EQ(r.exitCode, 0);
    for (const char* opt : {"--rank", "--json", "--blocks-per-layer", "--leading-blocks", "--batch"}) {
        EXPECT_NE(r.out.find(opt), std::string::npos) << opt;
    }
}

}  // namespace
}  // namespace tpscope::test
