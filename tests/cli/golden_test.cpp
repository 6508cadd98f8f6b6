// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Golden outputs (tests/golden): the CLI's analyze --json, analyze --calls --json, events CSV,
// Chrome export, scaling --json and plan --json on small fixtures, compared byte for byte with the
// checked-in expectations. Round trips cannot catch a bug the writer and the reader share; these can.
// A change in output is reviewed like code: scripts/update-goldens.sh rewrites tests/golden/expected
// (TPSCOPE_UPDATE_GOLDENS=1 runs this test in write mode) and the diff shows what moved.

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "cli_docs_support.h"
#include "golden_support.h"

namespace tpscope::test {
namespace {

namespace fs = std::filesystem;

TEST(Golden, CliOutputsEqualTheCheckedInExpectations) {
    const bool update = std::getenv("TPSCOPE_UPDATE_GOLDENS") != nullptr;
    const fs::path work = goldenWorkDir();
    ASSERT_FALSE(work.empty());
    const auto cases = goldenCases();
    ASSERT_GE(cases.size(), 10u);
    const fs::path expectedDir = goldenDir() / "expected";
    for (const auto& c : cases) {
        const auto r = runSplit(std::string(TPSCOPE_CLI_PATH) + " " + c.args, work);
        ASSERT_EQ(r.exitCode, 0) << c.args << "\n" << r.err;
        if (c.name == "-") continue;
        const std::string actual = c.stdoutCase ? r.out : readFile(work / c.name);
        ASSERT_FALSE(actual.empty()) << c.name << ": no output from " << c.args;
        if (update) {
            std::ofstream(expectedDir / c.name, std::ios::binary) << actual;
            continue;
        }
        const std::string expected = readFile(expectedDir / c.name);
        EXPECT_TRUE(expected == actual) << c.name << " differs from tests/golden/expected/" << c.name << " ("
                                        << firstDifference(expected, actual)
                                        << "). If the change is intended, run scripts/update-goldens.sh and "
                                           "review the diff.";
    }
    if (update) GTEST_SKIP() << "rewrote " << cases.size() << " goldens in " << expectedDir;
}

}  // namespace
}  // namespace tpscope::test
