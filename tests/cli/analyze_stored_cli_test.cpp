// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// `tpscope-cli analyze FILE.tpscope` takes a run's stored analysis (runs.analysis_cache) when it is
// exactly what the command computes: stdout byte for byte what analysing the run prints, for every
// flag; an option that changes the analysis, another build's, or a damaged stored analysis analyses
// the run. A build from a modified tree neither writes nor takes one: these tests skip there.

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "cli_docs_support.h"
#include "core/analysis/analysis.h"
#include "core/io/workspace/stored_analysis.h"
#include "core/io/workspace/workspace.h"

namespace tpscope::test {
namespace {

namespace fs = std::filesystem;

constexpr const char* kTook = "took the stored analysis";
constexpr const char* kMarker = "planted in the stored analysis by the test";
constexpr const char* kFile = "w.tpscope";

// Sets every run's analysis_cache (run_id order); nullopt: NULL.
void setStoredAnalyses(const fs::path& path, const std::vector<std::optional<std::string>>& blobs) {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.string().c_str(), &db), SQLITE_OK);
    std::vector<sqlite3_int64> ids;
    sqlite3_stmt* stmt = nullptr;
    ASSERT_EQ(sqlite3_prepare_v2(db, "SELECT run_id FROM runs ORDER BY run_id", -1, &stmt, nullptr), SQLITE_OK);
    while (sqlite3_step(stmt) == SQLITE_ROW) ids.push_back(sqlite3_column_int64(stmt, 0));
    sqlite3_finalize(stmt);
    ASSERT_EQ(ids.size(), blobs.size());
    ASSERT_EQ(sqlite3_prepare_v2(db, "UPDATE runs SET analysis_cache = ?1 WHERE run_id = ?2", -1, &stmt, nullptr),
              SQLITE_OK);
    for (std::size_t i = 0; i < ids.size(); ++i) {
        if (blobs[i]) {
            sqlite3_bind_blob64(stmt, 1, blobs[i]->data(), blobs[i]->size(), SQLITE_TRANSIENT);
        } else {
            sqlite3_bind_null(stmt, 1);
        }
        sqlite3_bind_int64(stmt, 2, ids[i]);
        EXPECT_EQ(sqlite3_step(stmt), SQLITE_DONE) << sqlite3_errmsg(db);
        sqlite3_reset(stmt);
    }
    sqlite3_finalize(stmt);
    sqlite3_close(db);
}

// Each run's stored analysis re-encoded as `build` wrote it, changed by `plant` first.
std::vector<std::optional<std::string>> restoredWith(const core::Workspace& ws, const std::string& build,
                                                     const std::function<void(core::analysis::RunAnalysis&)>& plant) {
    std::vector<std::optional<std::string>> out;
    for (const auto& run : ws.runs) {
        auto back =
            core::decodeStoredAnalysis(*run.analysisCache, *run.trace, {core::storedAnalysisBuild(), run.info.batch});
        EXPECT_TRUE(back && back->has_value());
        if (!back || !back->has_value()) return out;
        plant((*back)->analysis);
        auto blob = core::encodeStoredAnalysis((*back)->analysis, (*back)->clock, *run.trace, {build, run.info.batch});
        EXPECT_TRUE(blob);
        out.emplace_back(blob ? std::optional(*blob) : std::nullopt);
    }
    return out;
}

// The same with a note added when `marker`.
std::vector<std::optional<std::string>> restored(const core::Workspace& ws, const std::string& build,
                                                 const char* marker) {
    return restoredWith(ws, build, [marker](core::analysis::RunAnalysis& a) {
        if (marker != nullptr) a.notes.emplace_back(marker);
    });
}

// One workspace written by `simulate --out` (two runs, TP 1 and 2, batch 2: stored analyses of this
// build), and copies of it: without them, with a planted note, another build's, damaged. Each is
// w.tpscope in a folder of its own, since the output names the file; the whole set in a folder named
// after the test that made it (ctest runs each test in its own process, two at a time: one folder for
// all would be emptied by one test while another reads it).
struct Workspaces {
    fs::path dir, stored, none, marked, foreign, damaged, slower;  // the folders
    std::string error;
};

const Workspaces& workspaces() {
    static const Workspaces made = [] {
        Workspaces w;
        w.dir =
            freshDir(std::string("analyze-stored-") + ::testing::UnitTest::GetInstance()->current_test_info()->name());
        w.stored = w.dir / "stored";
        fs::create_directories(w.stored);
        const auto sim = runCli(
            "simulate --model llama3-8b --gpu h100-sxm --fabric nvlink4 --tp 1,2 --batch 2 "
            "--tokens 4 --out '" +
            (w.stored / kFile).string() + "'");
        if (sim.exitCode != 0) {
            w.error = sim.out;
            return w;
        }
        auto ws = core::loadWorkspace((w.stored / kFile).string());
        if (!ws || ws->runs.size() != 2 || !ws->runs[0].analysisCache || !ws->runs[1].analysisCache) {
            w.error = "simulate --out stored no analysis";
            return w;
        }
        const auto copy = [&](const char* name, const std::vector<std::optional<std::string>>& blobs) {
            const fs::path folder = w.dir / name;
            fs::create_directories(folder);
            fs::copy_file(w.stored / kFile, folder / kFile, fs::copy_options::overwrite_existing);
            setStoredAnalyses(folder / kFile, blobs);
            return folder;
        };
        w.none = copy("none", {std::nullopt, std::nullopt});
        w.marked = copy("marked", restored(*ws, core::storedAnalysisBuild(), kMarker));
        w.foreign = copy("foreign", restored(*ws, "0.0.1 elsewhere", kMarker));
        // Its last frame cut short: the key is this build's, the sections do not add up.
        std::string cut = *ws->runs[1].analysisCache;
        cut.resize(cut.size() - 16);
        if (core::decodeStoredAnalysis(cut, *ws->runs[1].trace,
                                       {core::storedAnalysisBuild(), ws->runs[1].info.batch})) {
            w.error = "the stored analysis cut short still decodes";
        }
        w.damaged = copy("damaged", {ws->runs[0].analysisCache, cut});
        // Every run's mean step latency one second longer: what `compare` prints, planted.
        w.slower = copy("slower", restoredWith(*ws, core::storedAnalysisBuild(), [](core::analysis::RunAnalysis& a) {
                            a.summary.latencyMeanNs += 1'000'000'000;
                        }));
        return w;
    }();
    return made;
}

SplitResult analyze(const fs::path& folder, const std::string& args) {
    return runSplit(std::string(TPSCOPE_CLI_PATH) + " analyze " + kFile + " " + args, folder);
}

SplitResult scaling(const fs::path& folder, const std::string& args) {
    return runSplit(std::string(TPSCOPE_CLI_PATH) + " scaling " + kFile + " --price-per-gpu-hour 2 " + args, folder);
}

SplitResult compare(const fs::path& folder, const std::string& args) {
    return runSplit(std::string(TPSCOPE_CLI_PATH) + " compare " + kFile + " " + args, folder);
}

#define SKIP_UNLESS_STORED()                                                                                        \
    do {                                                                                                            \
        if (core::storedAnalysisBuild().empty()) GTEST_SKIP() << "a build from a modified tree stores no analysis"; \
        ASSERT_TRUE(workspaces().error.empty()) << workspaces().error;                                              \
    } while (0)

// The flags that leave the analysis as stored: output flags, the run's own batch, a fabric (the findings
// are computed again), clock options that move no rank.
TEST(AnalyzeStored, TakesTheStoredAnalysisAndPrintsWhatAnalysingPrints) {
    SKIP_UNLESS_STORED();
    const auto& w = workspaces();
    for (const std::string args :
         {"", "--json", "--json --calls", "--calls --rank 1 --run 2", "--run 2 --json --calls", "--run 1 --strict",
          "--batch 2 --json", "--fabric nvlink4 --json", "--fabric pcie5 --run 1", "--clock-sync off --json",
          "--clock-offset 1=0 --run 2 --json"}) {
        const auto stored = analyze(w.stored, args);
        const auto analysed = analyze(w.none, args);
        EXPECT_EQ(stored.exitCode, analysed.exitCode) << args;
        EXPECT_EQ(stored.out, analysed.out) << args;
        EXPECT_FALSE(stored.out.empty()) << args;
        EXPECT_NE(stored.err.find(kTook), std::string::npos) << args << ": " << stored.err;
        EXPECT_EQ(analysed.err.find("stored analysis"), std::string::npos) << args << ": " << analysed.err;
        // The planted note shows that what was printed came from the file.
        const auto marked = analyze(w.marked, args);
        EXPECT_NE(marked.out.find(kMarker), std::string::npos) << args;
    }
}

// Options that change the analysis: the run is analysed, the stored analysis left alone.
TEST(AnalyzeStored, AnOptionThatChangesTheAnalysisAnalysesTheRun) {
    SKIP_UNLESS_STORED();
    const auto& w = workspaces();
    for (const auto& folder : {w.marked, w.none}) {
        std::ofstream(folder / "rules.json") << R"({"schema": 1, "rules": [{"kind": "collective", )"
                                             << R"("contains": ["my_custom_allreduce"], "op": "all_reduce"}]})";
    }
    for (const std::string args :
         {"--batch 3", "--batch 1 --json", "--blocks-per-layer 2", "--leading-blocks 1 --json", "--layers-per-step 2",
          "--all-collectives-close-blocks", "--match-tolerance-ns 1000 --json", "--kernel-rules rules.json --json",
          "--clock-offset 1=5000 --run 2 --json"}) {
        const auto marked = analyze(w.marked, args);
        const auto analysed = analyze(w.none, args);
        EXPECT_EQ(marked.exitCode, analysed.exitCode) << args;
        EXPECT_EQ(marked.out, analysed.out) << args;
        EXPECT_EQ(marked.out.find(kMarker), std::string::npos) << args;
        EXPECT_EQ(marked.err.find(kTook), std::string::npos) << args << ": " << marked.err;
    }
}

// Another build's stored analysis is analysed again without a word; a damaged one with one line on
// stderr, the output and the exit status those of analysing.
TEST(AnalyzeStored, AnotherBuildsOrADamagedStoredAnalysisAnalysesTheRun) {
    SKIP_UNLESS_STORED();
    const auto& w = workspaces();
    for (const std::string args : {"--json --calls", "--strict"}) {
        const auto analysed = analyze(w.none, args);
        const auto foreign = analyze(w.foreign, args);
        EXPECT_EQ(foreign.exitCode, analysed.exitCode) << args;
        EXPECT_EQ(foreign.out, analysed.out) << args;
        EXPECT_EQ(foreign.err, analysed.err) << args;

        const auto damaged = analyze(w.damaged, args);
        EXPECT_EQ(damaged.exitCode, analysed.exitCode) << args;
        EXPECT_EQ(damaged.out, analysed.out) << args;
        // Run 1's is taken, run 2's damaged one said in one line.
        EXPECT_NE(damaged.err.find("run 1: " + std::string(kTook)), std::string::npos) << damaged.err;
        const auto said = damaged.err.find("run 2: stored analysis not taken (");
        ASSERT_NE(said, std::string::npos) << damaged.err;
        const std::string line = damaged.err.substr(said, damaged.err.find('\n', said) - said);
        EXPECT_TRUE(line.ends_with("); analysing the run")) << line;
        EXPECT_EQ(damaged.err.find("not taken", said + line.size()), std::string::npos) << damaged.err;
    }
}

using Command = SplitResult (*)(const fs::path&, const std::string&);

// `command args` takes both runs' stored analyses: stdout and exit status those of analysing the runs,
// each take said on stderr; with a step latency planted in the stored analyses the output differs, so
// the figures came from the file.
void expectEachRunsStoredAnalysisTaken(Command command, const std::string& args) {
    const auto& w = workspaces();
    const auto stored = command(w.stored, args);
    const auto analysed = command(w.none, args);
    EXPECT_EQ(stored.exitCode, 0) << args << ": " << stored.err;
    EXPECT_EQ(stored.exitCode, analysed.exitCode) << args;
    EXPECT_EQ(stored.out, analysed.out) << args;
    EXPECT_FALSE(stored.out.empty()) << args;
    for (const char* run : {"run 1: ", "run 2: "}) {
        EXPECT_NE(stored.err.find(run + std::string(kTook)), std::string::npos) << args << ": " << stored.err;
    }
    EXPECT_EQ(analysed.err.find("stored analysis"), std::string::npos) << args << ": " << analysed.err;
    const auto slower = command(w.slower, args);
    EXPECT_EQ(slower.exitCode, 0) << args;
    EXPECT_NE(slower.out, stored.out) << args;
}

// `command args` analyses the runs: the planted stored analyses are not taken.
void expectRunsAnalysed(Command command, const std::string& args) {
    const auto& w = workspaces();
    const auto planted = command(w.slower, args);
    EXPECT_EQ(planted.exitCode, 0) << args << ": " << planted.err;
    EXPECT_EQ(planted.out, command(w.none, args).out) << args;
    EXPECT_EQ(planted.err.find(kTook), std::string::npos) << args << ": " << planted.err;
}

// `compare` of a workspace's runs takes each run's stored analysis as `analyze` does; with kernel
// rules it analyses them.
TEST(AnalyzeStored, CompareTakesEachRunsStoredAnalysis) {
    SKIP_UNLESS_STORED();
    for (const std::string args : {"", "--json", "--rank 0 --json", "--run 2 --run 1", "--clock-sync off"}) {
        expectEachRunsStoredAnalysisTaken(compare, args);
    }
    // In both folders that expectRunsAnalysed runs in (each test has workspaces of its own).
    for (const auto& folder : {workspaces().slower, workspaces().none}) {
        std::ofstream(folder / "rules.json") << R"({"schema": 1, "rules": [{"kind": "collective", )"
                                             << R"("contains": ["my_custom_allreduce"], "op": "all_reduce"}]})";
    }
    expectRunsAnalysed(compare, "--kernel-rules rules.json --json");
}

// `scaling` of a workspace takes each run's stored analysis too (it analyses a workspace's runs on their
// own clocks, which the stored analysis was made on where its clock estimate moves no rank); a batch
// other than the runs' own analyses them.
TEST(AnalyzeStored, ScalingTakesEachRunsStoredAnalysis) {
    SKIP_UNLESS_STORED();
    for (const std::string args : {"", "--json", "--batch 2 --json"}) expectEachRunsStoredAnalysisTaken(scaling, args);
    expectRunsAnalysed(scaling, "--batch 3 --json");
}

}  // namespace
}  // namespace tpscope::test
