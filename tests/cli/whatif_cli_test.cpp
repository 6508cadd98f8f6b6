// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// tpscope-cli whatif and calibrate --from-trace end to end: a simulated run replayed on another
// fabric (prediction labelled as such), a fabric fitted to a trace written as a catalog file that
// --catalog loads (round trip), and bad input.

#include <gtest/gtest.h>
#include <simdjson.h>

#include <filesystem>
#include <string>
#include <string_view>

#include "test_support.h"

namespace tpscope::test {
namespace {

std::string tmp(const std::string& name) {
    return (std::filesystem::temp_directory_path() / ("tpscope_whatif_cli_" + name)).string();
}

std::string simulated(const std::string& name, const std::string& args) {
    const std::string out = tmp(name);
    const auto r = runCli("simulate " + args + " --tokens 2 --out " + out);
    EXPECT_EQ(r.exitCode, 0) << r.out;
    return out;
}

TEST(WhatIfCli, ReplayOnPcieIsSlowerAndSaysItIsAPrediction) {
    const auto trace = simulated("nvlink.json", "--model llama3-8b --fabric nvlink4 --tp 4 --batch 8");
    const auto r = runCli("whatif " + trace + " --fabric pcie4 --json");
    ASSERT_EQ(r.exitCode, 0) << r.out;
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    ASSERT_EQ(parser.parse(r.out).get(root), simdjson::SUCCESS) << r.out;
    EXPECT_EQ(std::string_view(root["origin"].get_string().value()), "predicted");
    EXPECT_TRUE(root["model_estimate"].get_bool().value());
    const double measured = root["step_latency_ns"]["measured"].get_double().value();
    const double predicted = root["step_latency_ns"]["predicted"].get_double().value();
    EXPECT_GT(predicted, measured);
    EXPECT_NEAR(root["step_latency_ns"]["delta"].get_double().value(), predicted - measured, 1e-6 * measured);
    EXPECT_GT(root["layers"].get_array().size(), 0u);

    const auto text = runCli("whatif " + trace + " --fabric pcie4");
    EXPECT_EQ(text.exitCode, 0);
    EXPECT_NE(text.out.find("model prediction"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("Assumptions"), std::string::npos);
}

TEST(WhatIfCli, OutWritesBothRunsAndLabelsThePrediction) {
    const auto trace = simulated("both-in.json", "--model llama3-8b --fabric nvlink4 --tp 2 --batch 1");
    const auto out = tmp("both.json");
    ASSERT_EQ(runCli("whatif " + trace + " --fabric pcie4 --out " + out).exitCode, 0);
    const auto info = runCli("info " + out + " --json");
    ASSERT_EQ(info.exitCode, 0) << info.out;
    EXPECT_EQ(info.out.find("\"captured\""), std::string::npos);
    // Run 1 of the combined trace is the prediction, and its metadata says so.
    EXPECT_NE(info.out.find("run1.prediction"), std::string::npos) << info.out;
    EXPECT_NE(info.out.find("what-if replay (model)"), std::string::npos);
}

TEST(WhatIfCli, UnknownFabricAndMissingTraceAreClearErrors) {
    const auto trace = simulated("err.json", "--model llama3-8b --tp 2 --batch 1");
    const auto bad = runCli("whatif " + trace + " --fabric no-such-fabric");
    EXPECT_EQ(bad.exitCode, 2) << bad.out;
    EXPECT_NE(bad.out.find("no-such-fabric"), std::string::npos) << bad.out;
    const auto missing = runCli("whatif /nonexistent/t.json --fabric pcie4");
    EXPECT_NE(missing.exitCode, 0);
    EXPECT_NE(missing.out.find("/nonexistent/t.json"), std::string::npos);
    const auto tp = runCli("whatif " + trace + " --fabric pcie4 --tp 4");  // metadata model is a preset: ok
    EXPECT_EQ(tp.exitCode, 0) << tp.out;
}

TEST(CalibrateFromTraceCli, FittedFabricRoundTripsThroughTheCatalogAndMatchesTheTrace) {
    const auto small = simulated("cal-b1.json", "--model llama3-8b --fabric pcie4 --tp 4 --batch 1");
    const auto large = simulated("cal-b64.json", "--model llama3-8b --fabric pcie4 --tp 4 --batch 64");
    const auto catalog = tmp("my-box.json");
    const auto fit = runCli("calibrate --from-trace " + small + " --from-trace " + large +
                            " --start pcie4 --fabric-id my-box --out " + catalog);
    ASSERT_EQ(fit.exitCode, 0) << fit.out;
    // The message sizes of the two runs: batch x hidden (4096) x fp16.
    const std::string sizes = std::to_string(1 * 4096 * 2) + "," + std::to_string(64 * 4096 * 2);
    const auto mine =
        runCli("--catalog " + catalog + " allreduce --fabric my-box --gpus 4 --sizes " + sizes + " --json");
    const auto preset = runCli("allreduce --fabric pcie4 --gpus 4 --sizes " + sizes + " --json");
    ASSERT_EQ(mine.exitCode, 0) << mine.out;
    ASSERT_EQ(preset.exitCode, 0) << preset.out;
    simdjson::dom::parser p1, p2;
    simdjson::dom::element a, b;
    ASSERT_EQ(p1.parse(mine.out).get(a), simdjson::SUCCESS);
    ASSERT_EQ(p2.parse(preset.out).get(b), simdjson::SUCCESS);
    auto rowsA = a["rows"].get_array().value();
    auto rowsB = b["rows"].get_array().value();
    ASSERT_EQ(rowsA.size(), 2u);
    for (std::size_t i = 0; i < 2; ++i) {
        const double fitted = rowsA.at(i)["time_us"].get_double().value();
        const double truth = rowsB.at(i)["time_us"].get_double().value();
        EXPECT_NEAR(fitted / truth, 1.0, 0.10) << "size " << i;
    }
}

TEST(CalibrateFromTraceCli, TraceWithoutAllReducesIsOneClearError) {
    const auto tp1 = simulated("cal-tp1.json", "--model llama3-8b --tp 1 --batch 1");
    const auto r = runCli("calibrate --from-trace " + tp1);
    EXPECT_NE(r.exitCode, 0);
    EXPECT_NE(r.out.find("no all-reduce"), std::string::npos) << r.out;
    const auto both = runCli("calibrate");
    EXPECT_EQ(both.exitCode, 2) << both.out;
}

}  // namespace
}  // namespace tpscope::test
