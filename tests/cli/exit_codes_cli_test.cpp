// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Issue 49 item 8: every tpscope-cli command follows docs/cli.md's exit-code table. 2 only for a
// wrong command line (unknown option, bad value, unknown preset, a missing required option); 1 when
// the work fails (a file missing, unreadable or not a trace, data that cannot answer the question:
// the message names the file); 3 only for `analyze --strict` on a trace it did not understand.
// The table below walks every command `tpscope-cli --help` lists: a command without a row fails the
// test, so a new command is walked too.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "cli_docs_support.h"

namespace tpscope::test {
namespace {

struct ExitCase {
    std::string command;  // the command the row walks (as `tpscope-cli --help` names it)
    std::string args;     // after "tpscope-cli "
    int exitCode = 0;
    std::string says;  // words the one-line message must contain (a data problem: the file's name)
};

// The inputs of the table, in the test's folder: an empty folder, an empty file, a text file that is
// not a trace, a trace without ranks, a simulated TP 1 run (no all-reduce) and a two-run workspace.
void writeInputs(const std::filesystem::path& dir) {
    std::filesystem::create_directory(dir / "empty");
    std::ofstream(dir / "empty.json").flush();
    std::ofstream(dir / "text.json") << "not a trace\n";
    std::ofstream(dir / "noranks.json") << R"({"traceEvents": []})" << '\n';
    const std::string cli = std::string(TPSCOPE_CLI_PATH);
    ASSERT_EQ(runSplit(cli + " simulate --model llama3-8b --tp 1 --tokens 2 --out tp1.json", dir).exitCode, 0);
    ASSERT_EQ(runSplit(cli + " simulate --model llama3-8b --tp 1,2 --tokens 2 --out sweep.tpscope", dir).exitCode, 0);
}

const std::vector<ExitCase>& table() {
    static const std::vector<ExitCase> rows{
        {"plan", "plan --model llama9", 2, "unknown model 'llama9'"},
        {"plan", "plan --model-config missing.json", 1, "missing.json"},
        {"plan", "plan --model llama3-8b --model-file missing.json", 1, "missing.json"},
        {"plan", "plan --model llama3-8b --model-file text.json", 1, "text.json"},
        {"amdahl", "amdahl --serial 2", 2, "serial fraction"},
        {"cost", "cost --throughput 1=a", 2, "--throughput"},
        {"bounds", "bounds --model llama3-8b --tp 3", 2, "does not divide"},
        {"bounds", "bounds --model-config empty.json", 1, "empty.json"},
        {"models", "--catalog missing.json models", 1, "missing.json"},
        {"hardware", "--catalog text.json hardware", 1, "text.json"},
        {"demo", "demo --tokens 4", 2, "unknown option '--tokens'"},
        {"simulate", "simulate --model llama3-8b --tokens 0", 2, "--tokens"},
        {"simulate", "simulate --model llama3-8b --tokens 1 --kernel-fit text.json", 1, "text.json"},
        {"simulate", "simulate --model llama3-8b --tokens 1 --out missing/s.tpscope", 1, "folder 'missing'"},
        {"allreduce", "allreduce --sizes 1Q", 2, "size suffix"},
        {"allreduce", "allreduce --fabric nvlink44", 2, "unknown fabric"},
        {"calibrate", "calibrate --input missing.csv", 1, "missing.csv"},
        {"calibrate", "calibrate --input text.json", 1, "text.json"},
        {"calibrate", "calibrate --from-trace tp1.json", 1, "tp1.json"},
        {"calibrate", "calibrate --from-trace text.json --kernels", 1, "text.json"},
        {"calibrate", "calibrate --from-trace noranks.json --kernels", 2, "give --model and --gpu"},
        {"plan-capacity", "plan-capacity --model llama3-8b --target-itl-ms -1", 2, "--target-itl-ms"},
        {"plan-capacity", "plan-capacity --model-config missing.json --target-itl-ms 50", 1, "missing.json"},
        {"analyze", "analyze missing.json", 1, "missing.json"},
        {"analyze", "analyze empty", 1, "empty"},
        {"analyze", "analyze text.json", 1, "text.json"},
        {"analyze", "analyze sweep.tpscope --run 9", 2, "no run '9'"},
        {"analyze", "analyze --strict noranks.json", 3, "not understood"},
        {"scaling", "scaling empty.json", 1, "empty.json"},
        {"scaling", "scaling noranks.json", 1, "noranks.json"},
        {"scaling", "scaling tp1.json tp1.json", 1, "tp1.json"},
        {"scaling", "scaling tp1.json sweep.tpscope --tp 1,2,4", 2, "one per file"},
        {"compare", "compare tp1.json", 2, "needs two runs"},
        {"compare", "compare text.json tp1.json", 1, "text.json"},
        {"compare", "compare tp1.json sweep.tpscope --rank 5", 2, "no rank 5"},
        {"capture", "capture --model llama9 --out c.json", 2, "unknown model"},
        {"capture", "capture --model llama3-8b --out missing/c.json", 1, "folder 'missing'"},
        {"convert", "convert text.json out.csv", 1, "text.json"},
        {"convert", "convert tp1.json out.xyz", 2, "output format"},
        {"convert", "convert sweep.tpscope out.json", 2, "--run"},
        {"info", "info missing.json", 1, "missing.json"},
        {"info", "info empty", 1, "empty"},
        {"whatif", "whatif tp1.json --fabric nvlink44", 2, "unknown fabric"},
        {"whatif", "whatif text.json --fabric pcie4", 1, "text.json"},
        {"whatif", "whatif noranks.json --fabric pcie4", 1, "noranks.json"},
        {"kernels", "kernels --model llama3-8b --gpu h100-sxmm", 2, "unknown GPU"},
        {"kernels", "kernels --model-config missing.json --gpu h100-sxm", 1, "missing.json"},
    };
    return rows;
}

// Runs the rows of the table whose exit code is one of `codes`, in a folder of its own.
void walkRows(const std::string& folder, const std::set<int>& codes) {
    const auto dir = freshDir(folder);
    ASSERT_NO_FATAL_FAILURE(writeInputs(dir));
    const std::string cli = std::string(TPSCOPE_CLI_PATH) + " ";
    int walked = 0;
    for (const auto& row : table()) {
        if (!codes.count(row.exitCode)) continue;
        ++walked;
        const auto r = runSplit(cli + row.args, dir);
        EXPECT_EQ(r.exitCode, row.exitCode) << row.args << "\n" << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << row.args << ": not one line:\n" << r.err;
        EXPECT_EQ(r.err.rfind("tpscope-cli: ", 0), 0u) << row.args << "\n" << r.err;
        EXPECT_NE(r.err.find(row.says), std::string::npos) << row.args << ": expected '" << row.says << "' in\n"
                                                           << r.err;
    }
    EXPECT_GT(walked, 10);
}

TEST(CliExitCodes, AWrongCommandLineExitsTwoInEveryCommand) {
    walkRows("cli-exit-codes-two", {2});
}

TEST(CliExitCodes, AMissingOrBadFileOrDataExitsOneInEveryCommand) {
    walkRows("cli-exit-codes-one", {1, 3});
    // `devices` has no input: without a CUDA device (or a build without CUDA) it fails the work, exit 1.
    const auto dir = freshDir("cli-exit-codes-devices");
    const auto devices = runSplit(std::string(TPSCOPE_CLI_PATH) + " devices", dir);
    EXPECT_TRUE(devices.exitCode == 0 || (devices.exitCode == 1 && devices.err.find("CUDA") != std::string::npos))
        << "devices: exit " << devices.exitCode << "\n"
        << devices.err;
}

// Every command of `tpscope-cli --help`: its rows in the table above, and an unknown option is a
// wrong command line.
TEST(CliExitCodes, EveryCommandIsWalkedAndRefusesAnUnknownOptionWithTwo) {
    const auto dir = freshDir("cli-exit-codes-options");
    std::set<std::string> walked{"devices"};
    for (const auto& row : table()) walked.insert(row.command);
    const auto commands = cliCommands();
    ASSERT_GE(commands.size(), 15u);
    for (const auto& command : commands) {
        EXPECT_TRUE(walked.count(command)) << command << ": no row in the exit-code table of this test";
        const auto r = runSplit(std::string(TPSCOPE_CLI_PATH) + " " + command + " --no-such-option", dir);
        EXPECT_EQ(r.exitCode, 2) << command << "\n" << r.err;
        EXPECT_NE(r.err.find("unknown option '--no-such-option'"), std::string::npos) << command << "\n" << r.err;
    }
    const std::set<std::string> listed(commands.begin(), commands.end());
    for (const auto& command : walked) EXPECT_TRUE(listed.count(command)) << command << ": not a command";
}

}  // namespace
}  // namespace tpscope::test
