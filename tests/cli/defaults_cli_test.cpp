// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Issue 49: one table of defaults (core/sim/defaults.h) for every command, the runtime stated in
// every output, progress to a pipe one line per run, data problems exit 1 naming the file, and
// --run on every command that reads one run of a workspace. Every expected value comes from core's
// table or from the command's own output, never typed here.

#include <gtest/gtest.h>
#include <simdjson.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "cli_docs_support.h"
#include "core/sim/defaults.h"
#include "core/util/units.h"

namespace tpscope::test {
namespace {

using core::sim::kDefaults;

simdjson::dom::element parseJson(simdjson::dom::parser& parser, const std::string& text) {
    simdjson::dom::element doc;
    EXPECT_EQ(parser.parse(text).get(doc), simdjson::SUCCESS) << text.substr(0, 500);
    return doc;
}

std::string runtimeText() {
    return std::string(core::sim::toString(kDefaults.runtime));
}

TEST(CliDefaults, DefaultsPrintsEveryRowOfCoresTable) {
    const auto r = runCli("--defaults");
    ASSERT_EQ(r.exitCode, 0) << r.out;
    for (const auto& row : core::sim::defaultsTable()) {
        bool found = false;
        for (const auto& line : linesOf(r.out)) {
            if (line.rfind(row.setting, 0) == 0 && line.find(row.value) != std::string::npos &&
                line.find(row.options) != std::string::npos) {
                found = true;
            }
        }
        EXPECT_TRUE(found) << "no line for '" << row.setting << "' = " << row.value << "\n" << r.out;
    }
    EXPECT_NE(r.out.find(runtimeText()), std::string::npos);
}

TEST(CliDefaults, EveryCommandAssumesTheOneTable) {
    simdjson::dom::parser parser;
    // simulate: runtime, tokens, context and seed from the table, and the runtime named in the text too.
    const auto sim = runCli("simulate --model llama3-8b --tp 1 --json");
    ASSERT_EQ(sim.exitCode, 0) << sim.out;
    auto doc = parseJson(parser, sim.out);
    EXPECT_EQ(std::string(std::string_view(doc["runtime"])), runtimeText());
    EXPECT_EQ(std::int64_t(doc["tokens"]), kDefaults.tokens);
    EXPECT_EQ(std::int64_t(doc["context"]), kDefaults.contextLen);
    EXPECT_EQ(std::uint64_t(doc["seed"]), kDefaults.seed);
    EXPECT_EQ(std::string(std::string_view(doc["gpu"])), kDefaults.gpu);
    EXPECT_EQ(std::string(std::string_view(doc["fabric"])), kDefaults.fabric);
    const auto simText = runCli("simulate --model llama3-8b --tp 1");
    EXPECT_NE(simText.out.find("runtime " + runtimeText()), std::string::npos) << simText.out;

    // plan-capacity: price, runtime and context.
    const auto cap = runCli("plan-capacity --model llama3-8b --target-itl-ms 1000 --tp 1 --batch 1 --tokens 2 --json");
    ASSERT_EQ(cap.exitCode, 0) << cap.out;
    doc = parseJson(parser, cap.out);
    EXPECT_DOUBLE_EQ(double(doc["price_per_gpu_hour"]), kDefaults.pricePerGpuHour);
    EXPECT_EQ(std::string(std::string_view(doc["runtime"])), runtimeText());
    EXPECT_EQ(std::int64_t(doc["context"]), kDefaults.contextLen);
    const auto capText = runCli("plan-capacity --model llama3-8b --target-itl-ms 1000 --tp 1 --batch 1 --tokens 2");
    EXPECT_NE(capText.out.find("runtime " + runtimeText()), std::string::npos) << capText.out;

    // demo (the window's embedded default): the same runtime and tokens.
    const auto demo = runCli("demo --json");
    ASSERT_EQ(demo.exitCode, 0) << demo.out;
    doc = parseJson(parser, demo.out);
    EXPECT_EQ(std::string(std::string_view(doc["runtime"])), runtimeText());
    EXPECT_EQ(std::int64_t(doc["tokens"]), kDefaults.tokens);
    EXPECT_EQ(std::string(std::string_view(doc["model"])), kDefaults.model);

    // cost: the price is no longer required, and is the table's.
    const auto cost = runCli("cost --throughput 1=50,2=90 --json");
    ASSERT_EQ(cost.exitCode, 0) << cost.out;
    doc = parseJson(parser, cost.out);
    EXPECT_DOUBLE_EQ(double(doc["price_per_gpu_hour"]), kDefaults.pricePerGpuHour);

    // bounds: the fabric is no longer required, and is the table's.
    const auto bounds = runCli("bounds --model llama3-8b --tp 2 --json");
    ASSERT_EQ(bounds.exitCode, 0) << bounds.out;
    EXPECT_NE(bounds.out.find("\"" + std::string(kDefaults.fabric) + "\""), std::string::npos) << bounds.out;
}

TEST(CliDefaults, EagerRuntimeStaysAvailableAndIsSlowerThanTheDefault) {
    simdjson::dom::parser parser;
    const auto eager = runCli("simulate --model llama3-8b --tp 2 --runtime pytorch-eager --deterministic --json");
    ASSERT_EQ(eager.exitCode, 0) << eager.out;
    auto doc = parseJson(parser, eager.out);
    EXPECT_EQ(std::string(std::string_view(doc["runtime"])), "pytorch-eager");
    const double eagerStep = double(doc["runs"].at(0)["step_latency_ns"]);
    const auto graphs = runCli("simulate --model llama3-8b --tp 2 --deterministic --json");
    ASSERT_EQ(graphs.exitCode, 0) << graphs.out;
    doc = parseJson(parser, graphs.out);
    EXPECT_LT(double(doc["runs"].at(0)["step_latency_ns"]), eagerStep) << "graphs launch faster than eager";
}

TEST(CliProgress, AFileOrPipeGetsOneLinePerRunNotOnePerStep) {
    const auto dir = freshDir("cli-progress-one-line-per-run");
    // Four runs of 6 steps each: one progress line per run (4), not per step (24).
    const auto r =
        runSplit(std::string(TPSCOPE_CLI_PATH) + " simulate --model llama3-8b --tp 1,2 --batch 1,2 --tokens 6", dir);
    ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
    int progressLines = 0;
    for (const auto& line : linesOf(r.err)) {
        if (line.rfind("[", 0) == 0) ++progressLines;
    }
    EXPECT_EQ(progressLines, 4) << r.err;
}

TEST(CliExitCodes, ADataProblemExitsOneAndNamesTheFileAndWhatToDo) {
    const auto dir = freshDir("cli-data-problem");
    // TP 1 has no all-reduce: nothing to fit a fabric to. The command line is fine; the data is not.
    const auto trace = (dir / "tp1.json").string();
    ASSERT_EQ(runCli("simulate --model llama3-8b --tp 1 --tokens 2 --out " + trace).exitCode, 0);
    const auto r = runSplit(std::string(TPSCOPE_CLI_PATH) + " calibrate --from-trace " + trace, dir);
    EXPECT_EQ(r.exitCode, 1) << r.err;
    EXPECT_NE(r.err.find(trace), std::string::npos) << "names the file: " << r.err;
    EXPECT_NE(r.err.find("nccl-tests"), std::string::npos) << "says what to do: " << r.err;
    EXPECT_EQ(linesOf(r.err).size(), 1u) << r.err;
}

class CliWorkspaceRuns : public ::testing::Test {
  protected:
    void SetUp() override {
        // A folder per test: ctest runs the fixture's tests as parallel processes.
        dir = freshDir(std::string("cli-workspace-runs-") +
                       ::testing::UnitTest::GetInstance()->current_test_info()->name());
        sweep = (dir / "sweep.tpscope").string();
        const auto r = runCli("simulate --model llama3-8b --tp 1,2,4 --tokens 2 --out " + sweep);
        ASSERT_EQ(r.exitCode, 0) << r.out;
    }
    std::filesystem::path dir;
    std::string sweep;
};

TEST_F(CliWorkspaceRuns, ConvertNeedsRunAndSaysWhichRunItUsed) {
    const auto out = (dir / "one.json").string();
    const auto refused = runSplit(std::string(TPSCOPE_CLI_PATH) + " convert " + sweep + " " + out, dir);
    EXPECT_EQ(refused.exitCode, 2) << refused.err;
    EXPECT_NE(refused.err.find("--run"), std::string::npos) << refused.err;
    EXPECT_NE(refused.err.find("'TP 2 · batch 1'"), std::string::npos) << "lists the runs: " << refused.err;
    EXPECT_FALSE(std::filesystem::exists(out));

    const auto chosen = runCli("convert " + sweep + " --run 'TP 2 · batch 1' " + out);
    ASSERT_EQ(chosen.exitCode, 0) << chosen.out;
    EXPECT_NE(chosen.out.find("run 2 of 3 'TP 2 · batch 1'"), std::string::npos) << chosen.out;
    // The converted run is TP 2: two ranks.
    const auto info = runCli("info " + out + " --json");
    simdjson::dom::parser parser;
    auto doc = parseJson(parser, info.out);
    EXPECT_EQ(doc["ranks"].get_array().size(), 2u);
}

TEST_F(CliWorkspaceRuns, CompareTakesEveryRunOrTheChosenOnes) {
    simdjson::dom::parser parser;
    // stdout alone: stderr says which runs' stored analyses were taken.
    const std::string compare = std::string(TPSCOPE_CLI_PATH) + " compare " + sweep;
    const auto all = runSplit(compare + " --json", dir);
    ASSERT_EQ(all.exitCode, 0) << all.err;
    auto doc = parseJson(parser, all.out);
    EXPECT_EQ(doc["runs"].get_array().size(), 3u) << "every run of the workspace";
    const auto two = runSplit(compare + " --run 3 --run 'TP 1 · batch 1' --json", dir);
    ASSERT_EQ(two.exitCode, 0) << two.err;
    doc = parseJson(parser, two.out);
    ASSERT_EQ(doc["runs"].get_array().size(), 2u);
    EXPECT_NE(std::string(std::string_view(doc["runs"].at(0)["label"])).find("TP 4 · batch 1"), std::string::npos);
    EXPECT_EQ(std::int64_t(doc["runs"].at(0)["ranks"]), 4);
    const auto one = runSplit(compare + " --run 2", dir);
    EXPECT_EQ(one.exitCode, 2) << "one run is nothing to compare: " << one.err;
}

TEST_F(CliWorkspaceRuns, InfoOnAWorkspacePrintsNoImportBlockOfZeros) {
    const auto text = runCli("info " + sweep + " --run 1");
    ASSERT_EQ(text.exitCode, 0) << text.out;
    EXPECT_EQ(text.out.find("no problems found"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("not kept in a workspace"), std::string::npos) << text.out;
    const auto json = runCli("info " + sweep + " --run 1 --json");
    simdjson::dom::parser parser;
    auto doc = parseJson(parser, json.out);
    EXPECT_TRUE(doc["import_stats"].is_null());
}

TEST_F(CliWorkspaceRuns, WhatIfNeedsRunTakesInterFabricAndSuggestsAFabric) {
    const auto refused = runSplit(std::string(TPSCOPE_CLI_PATH) + " whatif " + sweep + " --fabric pcie4", dir);
    EXPECT_EQ(refused.exitCode, 2) << refused.err;
    const auto ok = runCli("whatif " + sweep + " --run 2 --fabric pcie4 --inter-fabric ib-ndr");
    EXPECT_EQ(ok.exitCode, 0) << ok.out;
    const auto typo = runSplit(std::string(TPSCOPE_CLI_PATH) + " whatif " + sweep + " --run 2 --fabric pcie44", dir);
    EXPECT_EQ(typo.exitCode, 2) << typo.err;
    EXPECT_NE(typo.err.find("did you mean pcie4"), std::string::npos) << typo.err;
}

}  // namespace
}  // namespace tpscope::test
