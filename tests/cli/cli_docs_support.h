// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Reading docs/cli.md the way the tests check it: the commands it lists, its error table and its
// example commands, so the documentation and the program cannot drift apart.

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "test_support.h"

namespace tpscope::test {

inline std::string readSourceFile(const std::string& relative) {
    std::ifstream in(std::string(TPSCOPE_SOURCE_DIR) + "/" + relative, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

inline std::vector<std::string> linesOf(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

// An empty folder under the build folder for one test's files.
inline std::filesystem::path freshDir(const std::string& name) {
    const auto dir = std::filesystem::path(TPSCOPE_BINARY_DIR) / "test-output" / name;
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
}

// Runs a shell command and returns its exit code, stdout and stderr separately.
struct SplitResult {
    int exitCode = -1;
    std::string out;
    std::string err;
};
inline SplitResult runSplit(const std::string& command, const std::filesystem::path& dir) {
    const auto errFile = dir / "stderr.txt";
    // The inner redirection wins over the 2>&1 runCommand appends to the whole group.
    const auto r = runCommand("{ cd '" + dir.string() + "' && { " + command + " ; } 2>'" + errFile.string() + "' ; }");
    SplitResult s{r.exitCode, r.out, {}};
    std::ifstream in(errFile);
    std::stringstream e;
    e << in.rdbuf();
    s.err = e.str();
    return s;
}

// "The commands" of `tpscope-cli --help`: the names under SUBCOMMANDS.
inline std::vector<std::string> cliCommands() {
    const auto help = runCli("--help");
    std::vector<std::string> names;
    bool inBlock = false;
    for (const auto& line : linesOf(help.out)) {
        if (line.rfind("Subcommands:", 0) == 0) {
            inBlock = true;
            continue;
        }
        if (!inBlock) continue;
        if (line.empty() || line[0] != ' ') break;
        const auto start = line.find_first_not_of(' ');
        names.push_back(line.substr(start, line.find(' ', start) - start));
    }
    return names;
}

// Example commands of docs/cli.md: the lines "$ tpscope-cli ..." inside ```console blocks.
struct DocExample {
    std::string args;       // after "tpscope-cli "
    bool needsGpu = false;  // marked "# needs a GPU": without one it must fail cleanly (exit 1)
};
inline std::vector<DocExample> cliExamples(const std::string& markdown) {
    std::vector<DocExample> out;
    bool inConsole = false;
    for (const auto& line : linesOf(markdown)) {
        if (line.rfind("```", 0) == 0) {
            inConsole = !inConsole && line == "```console";
            continue;
        }
        if (!inConsole || line.rfind("$ tpscope-cli ", 0) != 0) continue;
        DocExample e;
        e.args = line.substr(14);
        if (const auto hash = e.args.find("  # needs a GPU"); hash != std::string::npos) {
            e.needsGpu = true;
            e.args.resize(hash);
        }
        out.push_back(e);
    }
    return out;
}

// Files docs/cli.md shows in full: a ```text block whose first line is "# file: NAME".
inline std::vector<std::pair<std::string, std::string>> docFiles(const std::string& markdown) {
    std::vector<std::pair<std::string, std::string>> files;
    bool inText = false;
    bool firstLine = false;
    bool isFile = false;
    for (const auto& line : linesOf(markdown)) {
        if (line.rfind("```", 0) == 0) {
            inText = !inText && line == "```text";
            firstLine = inText;
            isFile = false;
            continue;
        }
        if (!inText) continue;
        if (firstLine) {
            firstLine = false;
            isFile = line.rfind("# file: ", 0) == 0;
            if (isFile) files.emplace_back(line.substr(8), "");
            continue;
        }
        if (isFile) files.back().second += line + "\n";
    }
    return files;
}

}  // namespace tpscope::test
