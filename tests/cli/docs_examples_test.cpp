// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Every example command of docs/cli.md runs (in document order, in one folder, so later examples
// read what earlier ones wrote), and the SQL example queries of docs/formats.md's workspace section
// run against a workspace the CLI wrote.

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "cli_docs_support.h"

namespace tpscope::test {
namespace {

TEST(CliDocs, EveryExampleCommandRuns) {
    const std::string md = readSourceFile("docs/cli.md");
    const auto dir = freshDir("cli-doc-examples");
    for (const auto& [name, text] : docFiles(md)) {
        std::ofstream(dir / name, std::ios::binary) << text;
    }
    const auto examples = cliExamples(md);
    ASSERT_GE(examples.size(), 17u) << "fewer examples than commands in docs/cli.md";
    const auto commands = cliCommands();
    for (const auto& command : commands) {
        const bool shown = std::any_of(examples.begin(), examples.end(), [&](const DocExample& e) {
            return e.args.rfind(command + " ", 0) == 0 || e.args == command ||
                   e.args.find(" " + command + " ") != std::string::npos;
        });
        EXPECT_TRUE(shown) << "docs/cli.md has no example of '" << command << "'";
    }
    for (const auto& e : examples) {
        const auto r = runSplit(std::string(TPSCOPE_CLI_PATH) + " " + e.args, dir);
        if (e.needsGpu && r.exitCode == 1) {
            // Without a GPU (or the CUDA backend) the documented failure: one line naming it.
            EXPECT_NE(r.err.find("no CUDA device"), std::string::npos) << e.args << "\n" << r.err;
            continue;
        }
        EXPECT_EQ(r.exitCode, 0) << "tpscope-cli " << e.args << "\n" << r.out.substr(0, 2000) << r.err;
    }
}

int countRows(sqlite3* db, const std::string& sql, std::string& error) {
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
        error = sqlite3_errmsg(db);
        return -1;
    }
    int rows = 0;
    int rc = 0;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) ++rows;
    if (rc != SQLITE_DONE) error = sqlite3_errmsg(db);
    sqlite3_finalize(stmt);
    return rc == SQLITE_DONE ? rows : -1;
}

// The ```sql block of docs/formats.md's "## Workspace" section: one query per line.
TEST(CliDocs, WorkspaceSqlExamplesRun) {
    const std::string md = readSourceFile("docs/formats.md");
    const auto section = md.find("## Workspace");
    ASSERT_NE(section, std::string::npos);
    const auto block = md.find("```sql\n", section);
    ASSERT_NE(block, std::string::npos) << "no ```sql block in the workspace section";
    const auto end = md.find("```", block + 7);
    std::vector<std::string> queries;
    for (const auto& line : linesOf(md.substr(block + 7, end - block - 7))) {
        if (!line.empty() && line.rfind("--", 0) != 0) queries.push_back(line);
    }
    ASSERT_EQ(queries.size(), 3u);

    const auto dir = freshDir("cli-doc-sql");
    const auto ws = dir / "sweep.tpscope";
    const auto r = runCli("simulate --model llama3-8b --tp 1,2 --tokens 2 --out " + ws.string());
    ASSERT_EQ(r.exitCode, 0) << r.out;
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open_v2(ws.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
    std::string error;
    // runs: one row per run; run settings: the seed of each run; events: one row per run and rank (1 + 2).
    const int expected[] = {2, 2, 3};
    for (std::size_t i = 0; i < queries.size(); ++i) {
        EXPECT_EQ(countRows(db, queries[i], error), expected[i]) << queries[i] << "\n" << error;
    }
    sqlite3_close(db);
}

}  // namespace
}  // namespace tpscope::test
