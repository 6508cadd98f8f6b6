// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// The promises docs/cli.md makes about every command, checked against the built tpscope-cli:
// every command has --help and --json, every documented error is one line with the documented
// exit code, every example command of the reference runs.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>

#include "cli_docs_support.h"

namespace tpscope::test {
namespace {

// The exit codes of the table under "## Exit codes" in docs/cli.md.
std::set<int> documentedExitCodes(const std::string& md) {
    std::set<int> codes;
    const auto start = md.find("## Exit codes");
    const auto end = md.find("\n## ", start + 1);
    const std::regex row(R"(^\| `(\d+)` \|)");
    for (const auto& line : linesOf(md.substr(start, end - start))) {
        std::smatch m;
        if (std::regex_search(line, m, row)) codes.insert(std::stoi(m[1]));
    }
    return codes;
}

TEST(CliPromises, EveryCommandHasHelpAndJson) {
    const auto commands = cliCommands();
    ASSERT_GE(commands.size(), 15u) << runCli("--help").out;
    const std::string md = readSourceFile("docs/cli.md");
    for (const auto& c : commands) {
        const auto help = runCli(c + " --help");
        EXPECT_EQ(help.exitCode, 0) << c << "\n" << help.out;
        EXPECT_NE(help.out.find("Usage:"), std::string::npos) << c;
        EXPECT_NE(help.out.find("--json"), std::string::npos) << c << " has no --json";
        const auto lines = linesOf(md);
        const bool headed = std::any_of(lines.begin(), lines.end(), [&](const std::string& l) {
            return l.rfind("#", 0) == 0 && std::regex_search(l, std::regex("[ `]" + c + "([ ,`]|$)"));
        });
        EXPECT_TRUE(headed) << c << " has no heading in docs/cli.md";
    }
}

TEST(CliPromises, VersionComesFromTheProject) {
    const auto r = runCli("--version");
    EXPECT_EQ(r.exitCode, 0);
    const std::string cmake = readSourceFile("CMakeLists.txt");
    std::smatch m;
    ASSERT_TRUE(std::regex_search(cmake, m, std::regex(R"(project\(tpscope VERSION ([0-9.]+))")));
    const std::string firstLine = r.out.substr(0, r.out.find('\n'));
    // "tpscope-cli 0.1.0 (commit 1a2b3c4d5e6f)", or "(release)" when built from a tarball.
    EXPECT_TRUE(std::regex_match(
        firstLine, std::regex("tpscope-cli " + m[1].str() + R"( \((commit [0-9a-f]{7,40}(-modified)?|release)\))")))
        << firstLine;
}

TEST(CliPromises, VersionNamesTheLicence) {
    const auto r = runCli("--version");
    EXPECT_EQ(r.exitCode, 0);
    EXPECT_NE(r.out.find("GPL-3.0-or-later"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("NO WARRANTY"), std::string::npos) << r.out;
}

// Each row of the error table in docs/cli.md: `tpscope-cli ARGS` | exit code | words of the message.
TEST(CliPromises, EveryDocumentedErrorIsOneLineWithItsExitCode) {
    const std::string md = readSourceFile("docs/cli.md");
    const auto codes = documentedExitCodes(md);
    ASSERT_EQ(codes, (std::set<int>{0, 1, 2, 3}));  // 3: analyze --strict on a trace it did not understand
    const std::regex row(R"(^\| `tpscope-cli ([^`]*)` \| (\d+) \| (.*) \|$)");
    const auto dir = freshDir("cli-errors");
    std::filesystem::create_directory(dir / "empty");
    std::ofstream(dir / "empty.json").flush();
    int rows = 0;
    for (const auto& line : linesOf(md)) {
        std::smatch m;
        if (!std::regex_match(line, m, row)) continue;
        ++rows;
        const std::string args = m[1];
        const int code = std::stoi(m[2]);
        std::string words = m[3];
        words.erase(std::remove(words.begin(), words.end(), '`'), words.end());
        EXPECT_TRUE(codes.count(code)) << args << ": exit code " << code << " is not in the table";
        const auto r = runSplit(std::string(TPSCOPE_CLI_PATH) + " " + args, dir);
        EXPECT_EQ(r.exitCode, code) << args << "\n" << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << args << ": not one line:\n" << r.err;
        EXPECT_EQ(r.err.rfind("tpscope-cli: ", 0), 0u) << args << "\n" << r.err;
        EXPECT_NE(r.err.find(words), std::string::npos) << args << ": expected '" << words << "' in\n" << r.err;
    }
    EXPECT_GE(rows, 12) << "the error table of docs/cli.md was not found";
}

TEST(CliPromises, UnknownOptionNamesTheClosestOne) {
    const auto r = runCli("simulate --modle llama3-8b");
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_EQ(r.out,
              "tpscope-cli: simulate: unknown option '--modle' (did you mean --model?); see 'tpscope-cli "
              "simulate --help'\n");
}

TEST(CliPromises, NegativeSimulatorParametersAreRefusedNotReplaced) {
    for (const char* option : {"--jitter -1", "--imbalance -1", "--step-gap-us -100", "--jitter 2"}) {
        const auto r = runCli(std::string("simulate --model llama3-8b --tp 1 --tokens 1 ") + option);
        EXPECT_EQ(r.exitCode, 2) << option << "\n" << r.out;
        EXPECT_NE(r.out.find("must lie in 0.."), std::string::npos) << option << "\n" << r.out;
    }
}

TEST(CliPromises, OutInAMissingFolderFailsBeforeTheSweep) {
    const auto r = runCli("simulate --model llama3-8b --tp 1,2 --tokens 1 --out /nonexistent-folder/x.tpscope");
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_EQ(r.out.find("TP"), std::string::npos) << "the sweep ran:\n" << r.out;
    EXPECT_NE(r.out.find("folder '/nonexistent-folder' does not exist"), std::string::npos) << r.out;
}

TEST(CliPromises, ProgressIsPlainLinesWhenNotATerminal) {
    const auto dir = freshDir("cli-progress");
    const auto r = runSplit(std::string(TPSCOPE_CLI_PATH) + " simulate --model llama3-8b --tp 1,2 --tokens 1", dir);
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.err.find('\r'), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("[1/2] TP 1, batch 1\n"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("[2/2] TP 2, batch 1\n"), std::string::npos) << r.err;
}

TEST(CliPromises, UnusualGpuFabricCombinationWarnsButRuns) {
    const auto r = runCli("simulate --model llama3-8b --gpu l40s --fabric nvlink4 --tp 2 --tokens 1 --json");
    EXPECT_EQ(r.exitCode, 0) << r.out;
    EXPECT_NE(r.out.find("tpscope-cli: warning: no l40s system ships with nvlink4; its usual fabric is pcie4"),
              std::string::npos)
        << r.out;
    const auto usual = runCli("simulate --model llama3-8b --gpu h100-sxm --fabric nvlink4 --tp 2 --tokens 1 --json");
    EXPECT_EQ(usual.out.find("warning"), std::string::npos) << usual.out;
}

TEST(CliPromises, SingularAndPluralAreRight) {
    const auto r = runCli("simulate --model llama3-8b --tp 1 --tokens 1");
    ASSERT_EQ(r.exitCode, 0) << r.out;
    EXPECT_NE(r.out.find(", 1 token, context"), std::string::npos) << r.out;
    const auto two = runCli("simulate --model llama3-8b --tp 1 --tokens 2");
    EXPECT_NE(two.out.find(", 2 tokens, context"), std::string::npos) << two.out;
}

}  // namespace
}  // namespace tpscope::test
