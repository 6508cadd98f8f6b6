// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The golden cases of tests/golden/cases.txt and a work folder holding a fresh copy of the fixtures
// (with nsys_cut.sqlite built from its SQL), shared by the golden tests.

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli_docs_support.h"

namespace tpscope::test {

inline std::filesystem::path goldenDir() {
    return std::filesystem::path(TPSCOPE_SOURCE_DIR) / "tests" / "golden";
}

inline std::string readFile(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

inline std::string trimmed(const std::string& s) {
    const auto a = s.find_first_not_of(' ');
    const auto b = s.find_last_not_of(' ');
    return a == std::string::npos ? std::string() : s.substr(a, b - a + 1);
}

struct GoldenCase {
    std::string name;  // file in tests/golden/expected, or "-" for a set-up step
    bool stdoutCase = false;
    std::string args;
};

inline std::vector<GoldenCase> goldenCases() {
    std::vector<GoldenCase> out;
    for (const auto& line : linesOf(readFile(goldenDir() / "cases.txt"))) {
        if (line.empty() || line[0] == '#') continue;
        const auto bar = line.find('|');
        if (bar == std::string::npos) continue;
        GoldenCase c;
        c.name = trimmed(line.substr(0, bar));
        c.args = trimmed(line.substr(bar + 1));
        if (c.name.rfind("stdout:", 0) == 0) {
            c.stdoutCase = true;
            c.name = c.name.substr(7);
        }
        out.push_back(c);
    }
    return out;
}

// A fresh copy of tests/golden/fixtures under the build folder; empty on failure (with a test failure).
inline std::filesystem::path goldenWorkDir() {
    const auto dir = freshDir("golden");
    std::error_code ec;
    std::filesystem::copy(goldenDir() / "fixtures", dir, std::filesystem::copy_options::recursive, ec);
    EXPECT_FALSE(ec) << ec.message();
    sqlite3* db = nullptr;
    const auto sqlitePath = dir / "nsys_cut.sqlite";
    EXPECT_EQ(sqlite3_open(sqlitePath.c_str(), &db), SQLITE_OK);
    char* err = nullptr;
    const std::string sql = readFile(dir / "nsys_cut.sql");
    const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err);
    EXPECT_EQ(rc, SQLITE_OK) << (err != nullptr ? err : "");
    sqlite3_free(err);
    sqlite3_close(db);
    return ec || rc != SQLITE_OK ? std::filesystem::path() : dir;
}

// "line N: expected ... / actual ..." for the first differing line.
inline std::string firstDifference(const std::string& expected, const std::string& actual) {
    const auto a = linesOf(expected), b = linesOf(actual);
    for (std::size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
        const std::string x = i < a.size() ? a[i] : "<end>", y = i < b.size() ? b[i] : "<end>";
        if (x != y) return "line " + std::to_string(i + 1) + ": expected \"" + x + "\", got \"" + y + "\"";
    }
    return "same lines, different bytes";
}

}  // namespace tpscope::test
