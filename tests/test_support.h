// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Helpers shared by the test suites: where the public traces are, and running tpscope-cli.

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

namespace tpscope::test {

// The public real traces (scripts/fetch-public-traces.sh downloads and verifies them): the folder the
// environment's TPSCOPE_PUBLIC_TRACES names, else the one configured in CMake's cache variable of that
// name (default ../shared/traces/public beside the checkout).
inline std::filesystem::path publicTraces() {
    if (const char* env = std::getenv("TPSCOPE_PUBLIC_TRACES"); env != nullptr && *env != '\0') return env;
    return TPSCOPE_PUBLIC_TRACES;
}

// Skips the calling test with a clear message when the public trace folder (or a file in it) is absent.
#define TPSCOPE_REQUIRE_PUBLIC(relpath)                                                                            \
    do {                                                                                                           \
        if (!std::filesystem::exists(::tpscope::test::publicTraces() / (relpath))) {                               \
            GTEST_SKIP() << "public trace " << (relpath) << " not found under " << ::tpscope::test::publicTraces() \
                         << " (set TPSCOPE_PUBLIC_TRACES to the folder scripts/fetch-public-traces.sh fills)";     \
        }                                                                                                          \
    } while (0)

struct CommandResult {
    int exitCode = -1;
    std::string out;  // stdout and stderr together
};

// Runs a shell command and captures its output (stderr merged into stdout).
inline CommandResult runCommand(const std::string& command) {
    CommandResult r;
    FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
    if (pipe == nullptr) return r;
    char buf[4096];
    std::size_t n = 0;
    while ((n = std::fread(buf, 1, sizeof buf, pipe)) > 0) r.out.append(buf, n);
    const int status = ::pclose(pipe);
    r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

inline CommandResult runCli(const std::string& args) {
    return runCommand(std::string(TPSCOPE_CLI_PATH) + " " + args);
}

}  // namespace tpscope::test
