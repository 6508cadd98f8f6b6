// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include <gtest/gtest.h>
#include <simdjson.h>

#include <cmath>
#include <sstream>

#include "core/analysis/analysis_json.h"
#include "core/sim/sim_test_support.h"
#include "trace_builder_fixtures.h"

namespace tpscope::core::analysis {
namespace {

simdjson::dom::element parse(simdjson::dom::parser& parser, const std::string& text) {
    simdjson::dom::element root;
    EXPECT_EQ(parser.parse(text).get(root), simdjson::SUCCESS) << text;
    return root;
}

TEST(AnalysisJson, PrintsTheSameNumbersAsTheResult) {
    const test::DecodeFixture f{
        .ranks = 2, .steps = 2, .layers = 2, .computeNs = 1000, .arNs = 100, .lateRank = 1, .lateByNs = 50};
    const auto trace = test::makeDecodeTrace(f);
    const auto a = analyzeTrace(*trace);
    std::ostringstream out;
    JsonWriter w(out);
    writeAnalysisJson(w, *trace, a, {.includeCalls = true});
    simdjson::dom::parser parser;
    const auto root = parse(parser, out.str());
    EXPECT_EQ(root["ranks"].get_uint64().value(), 2u);
    EXPECT_EQ(root["batch"].get_int64().value(), f.batch);
    EXPECT_DOUBLE_EQ(root["summary"]["tokens_per_sec"].get_double().value(), a.summary.tokensPerSec);
    EXPECT_DOUBLE_EQ(root["summary"]["loss"]["imbalance"].get_double().value(), a.summary.loss.imbalance);
    EXPECT_EQ(root["summary"]["slowest_rank"]["rank"].get_uint64().value(), 1u);
    const auto layers = root["layers"].get_array().value();
    ASSERT_EQ(layers.size(), 2u);
    const auto table = layerTable(a.breakdown);
    EXPECT_DOUBLE_EQ(layers.at(0)["exposed_wait_ns"].get_double().value(),
                     table[0].mean(&TimeBreakdown::exposedWaitNs));
    const auto calls = root["calls"].get_array().value();
    ASSERT_EQ(calls.size(), a.matching.calls.size());
    EXPECT_EQ(calls.at(0)["transfer_ns"].get_int64().value(), f.arNs);
    EXPECT_DOUBLE_EQ(calls.at(0)["algbw_bytes_per_sec"].get_double().value(), f.arBytes / (f.arNs * 1e-9));
    EXPECT_EQ(calls.at(0)["participants"].at(0)["wait_ns"].get_int64().value(), f.lateByNs);
    EXPECT_EQ(calls.at(0)["last_rank"].get_uint64().value(), 1u);
}

// The analysis releases the blocks once its breakdown has read them (20 M at 100 M events, used by
// nothing after it); their number stays, and the JSON prints what the segmentation found.
TEST(AnalysisJson, ReleasedBlocksKeepTheirCount) {
    auto sim = sim::simulate(test::simConfig("llama3-8b", "h100-sxm", "nvlink4", 2, 1, 3));
    ASSERT_TRUE(sim) << sim.error().describe();
    const auto& trace = sim->trace;
    const Segmentation seg = segmentLayers(*trace);
    const auto a = analyzeTrace(*trace);
    std::ostringstream out;
    JsonWriter w(out);
    writeAnalysisJson(w, *trace, a, {});
    simdjson::dom::parser parser;
    const auto root = parse(parser, out.str());
    const auto ranks = root["segmentation"].get_array().value();
    ASSERT_EQ(ranks.size(), seg.ranks.size());
    for (std::size_t r = 0; r < seg.ranks.size(); ++r) {
        ASSERT_GT(seg.ranks[r].blocks.size(), 0u) << "rank " << r;
        EXPECT_EQ(seg.ranks[r].blockCount, seg.ranks[r].blocks.size()) << "rank " << r;
        EXPECT_TRUE(a.segmentation.ranks[r].blocks.empty()) << "rank " << r;
        EXPECT_EQ(a.segmentation.ranks[r].blockCount, seg.ranks[r].blocks.size()) << "rank " << r;
        EXPECT_EQ(ranks.at(r)["blocks"].get_uint64().value(), seg.ranks[r].blocks.size()) << "rank " << r;
        EXPECT_NE(std::string_view(ranks.at(r)["block_source"].get_string().value()), "none") << "rank " << r;
    }
}

TEST(AnalysisJson, UnknownValuesAreNull) {
    test::TraceBuilder b;
    b.allReduce(0, 0, 100).allReduce(1, 0, 100);  // no bytes, no steps
    const auto trace = b.build();
    const auto a = analyzeTrace(*trace);
    std::ostringstream out;
    JsonWriter w(out);
    writeAnalysisJson(w, *trace, a, {.includeCalls = true});
    simdjson::dom::parser parser;
    const auto root = parse(parser, out.str());
    EXPECT_TRUE(root["calls"].at(0)["algbw_bytes_per_sec"].is_null());
    EXPECT_TRUE(root["layer_table_rank"].is_null());
}

TEST(ScalingJson, CarriesFitCostAndAdvice) {
    std::vector<RunPoint> runs;
    for (const auto& [n, tps] : std::vector<std::pair<int, double>>{{2, 600}, {4, 1000}, {8, 1070}}) {
        RunPoint p;
        p.label = "tp" + std::to_string(n);
        p.gpus = n;
        p.batch = 1;
        p.tokensPerSec = tps;
        runs.push_back(p);
    }
    const auto report = analyzeScaling(runs, {.pricePerGpuHour = 2.5});
    ASSERT_TRUE(report.ok());
    const auto advice = adviseTp(*report);
    std::ostringstream out;
    JsonWriter w(out);
    writeScalingJson(w, *report, advice);
    simdjson::dom::parser parser;
    const auto root = parse(parser, out.str());
    const auto batch = root["batches"].at(0);
    EXPECT_EQ(batch["baseline_gpus"].get_int64().value(), 2);
    EXPECT_DOUBLE_EQ(batch["amdahl"]["serial_fraction"].get_double().value(), report->batches[0].fit.serialFraction);
    EXPECT_DOUBLE_EQ(batch["runs"].at(2)["cost_per_million_tokens"].get_double().value(),
                     8 * 2.5 / (1070 * 3600 / 1e6));
    EXPECT_EQ(root["advice"].get_array().value().size(), advice.size());
    EXPECT_EQ(std::string(root["advice"].at(0)["kind"].get_string().value()), "higher_tp_pays");
}

TEST(Compare, AlignsLayersByIndexAndGivesDeltasAgainstTheFirstRun) {
    const auto fast = test::makeDecodeTrace({.ranks = 2, .steps = 1, .layers = 3, .computeNs = 1000, .arNs = 100});
    const auto slow = test::makeDecodeTrace({.ranks = 2, .steps = 1, .layers = 2, .computeNs = 1000, .arNs = 300});
    const auto a = analyzeTrace(*fast);
    const auto b = analyzeTrace(*slow);
    const auto c = compareRuns({{"fast", &a}, {"slow", &b}});
    ASSERT_EQ(c.runs.size(), 2u);
    ASSERT_EQ(c.layers.size(), 3u);
    EXPECT_DOUBLE_EQ(c.layers[0].runs[0].wallNs, 2 * 1100.0);
    EXPECT_DOUBLE_EQ(c.layers[0].wallDeltaNs[1], 2 * 300.0 - 2 * 100.0);
    EXPECT_DOUBLE_EQ(c.layers[0].wallDeltaFraction[1], 400.0 / 2200.0);
    EXPECT_FALSE(c.layers[2].runs[1].present);
    EXPECT_TRUE(std::isnan(c.layers[2].wallDeltaNs[1]));
    EXPECT_DOUBLE_EQ(c.runs[1].latencyDeltaFraction, (2 * 2 * 1300.0) / (3 * 2 * 1100.0) - 1);
    std::ostringstream out;
    JsonWriter w(out);
    writeComparisonJson(w, c);
    simdjson::dom::parser parser;
    const auto root = parse(parser, out.str());
    EXPECT_TRUE(root["layers"].at(2)["runs"].at(1).is_null());
    EXPECT_DOUBLE_EQ(root["layers"].at(0)["wall_delta_ns"].at(1).get_double().value(), 400.0);
}

}  // namespace
}  // namespace tpscope::core::analysis
