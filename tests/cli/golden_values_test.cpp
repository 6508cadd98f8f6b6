// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Every kind of number in the goldens (tests/golden/expected) checked once independently: by a formula
// from the fixture's construction (fixtures/kineto_2rank: per rank and step, 2 layers of GEMM1 20 µs
// on rank 0 / 24 µs on rank 1, all-reduce until layer start + 35 µs, GEMM2 30 µs, all-reduce 8 µs;
// step ranges of 300 µs), from the model's dimensions, or from another golden written by another code
// path. The comment at each check says which.

#include <gtest/gtest.h>
#include <simdjson.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>

#include "golden_support.h"

namespace tpscope::test {
namespace {

simdjson::dom::element parseGolden(simdjson::dom::parser& parser, const std::string& name) {
    simdjson::dom::element root;
    const auto path = (goldenDir() / "expected" / name).string();
    EXPECT_EQ(parser.load(path).get(root), simdjson::SUCCESS) << path;
    return root;
}

double number(simdjson::dom::element e) {
    double v = 0;
    if (e.get_double().get(v) == simdjson::SUCCESS) return v;
    std::int64_t i = 0;
    EXPECT_EQ(e.get_int64().get(i), simdjson::SUCCESS);
    return static_cast<double>(i);
}

double kindBusyNs(simdjson::dom::element summary, std::string_view kind) {
    for (auto k : summary["kinds"].get_array()) {
        std::string_view name;
        if (k["kind"].get_string().get(name) == simdjson::SUCCESS && name == kind) return number(k["busy_ns"]);
    }
    ADD_FAILURE() << "no kind " << kind;
    return -1;
}

std::vector<std::vector<std::string>> csvRows(const std::string& name) {
    std::vector<std::vector<std::string>> rows;
    for (const auto& line : linesOf(readFile(goldenDir() / "expected" / name))) {
        std::vector<std::string> fields;
        std::string field;
        bool quoted = false;
        for (const char c : line) {
            if (c == '"') {
                quoted = !quoted;
            } else if (c == ',' && !quoted) {
                fields.push_back(field);
                field.clear();
            } else {
                field += c;
            }
        }
        fields.push_back(field);
        rows.push_back(fields);
    }
    return rows;
}

TEST(GoldenValues, KinetoAnalysisFollowsFromTheFixtureTimings) {
    simdjson::dom::parser parser;
    const auto root = parseGolden(parser, "kineto.analyze.json");
    // 2 ranks x 2 steps x 2 layers x 4 kernels.
    EXPECT_EQ(number(root["events"]), 2 * 2 * 2 * 4);
    const simdjson::dom::element summary = root["summary"];
    // Step ranges are 300 µs on both ranks; batch 1 -> 1e9 / 300000 tokens/s.
    EXPECT_DOUBLE_EQ(number(summary["latency_ns"]["mean"]), 300'000);
    EXPECT_DOUBLE_EQ(number(summary["tokens_per_sec"]), 1e9 / 300'000);
    // GEMM busy: 4 layers per rank x (GEMM1 + GEMM2) = 4 x (20 + 30) + 4 x (24 + 30) µs.
    EXPECT_DOUBLE_EQ(kindBusyNs(summary, "gemm"), (4 * (20 + 30) + 4 * (24 + 30)) * 1000.0);
    // All-reduce busy: first from GEMM1 end + 1 µs to layer start + 35 µs, second 8 µs.
    EXPECT_DOUBLE_EQ(kindBusyNs(summary, "collective"), (4 * ((35 - 21) + 8) + 4 * ((35 - 25) + 8)) * 1000.0);
}

TEST(GoldenValues, KinetoEventsCsvHasEveryKernelWithItsMessageBytes) {
    const auto rows = csvRows("kineto.events.csv");
    ASSERT_EQ(rows.size(), 1u + 32u);  // header + 2 x 2 x 2 x 4 kernels
    const auto& header = rows[0];
    const auto col = [&](const std::string& n) {
        return static_cast<std::size_t>(std::find(header.begin(), header.end(), n) - header.begin());
    };
    std::size_t allReduces = 0;
    for (std::size_t i = 1; i < rows.size(); ++i) {
        if (rows[i][col("kind")] != "collective") continue;
        ++allReduces;
        EXPECT_EQ(rows[i][col("bytes")], std::to_string(1048576 * 2));  // "In msg nelems" 1048576 x Half
    }
    EXPECT_EQ(allReduces, 16u);
    // Rank 0's first kernel row after the first GEMM: the all-reduce from 21 to 35 µs after layer start.
    EXPECT_EQ(rows[2][col("kind")], "collective");
    EXPECT_EQ(rows[2][col("dur_ns")], "14000");
}

TEST(GoldenValues, KinetoChromeExportKeepsEveryKernelAndDuration) {
    simdjson::dom::parser parser;
    const auto root = parseGolden(parser, "kineto.chrome.json");
    std::size_t kernels = 0;
    double durUs = 0;
    for (auto e : root["traceEvents"].get_array()) {
        std::string_view ph, cat;
        if (e["ph"].get_string().get(ph) || ph != "X" || e["cat"].get_string().get(cat) || cat != "kernel") continue;
        ++kernels;
        durUs += number(e["dur"]);
    }
    EXPECT_EQ(kernels, 32u);
    // Every kernel of both ranks: the GEMM and all-reduce busy times above, 416 + 160 µs.
    EXPECT_NEAR(durUs, 416 + 160, 1e-6);
}

TEST(GoldenValues, NsysAnalysisCountsTheRowsOfTheCutDownExport) {
    simdjson::dom::parser parser;
    const auto root = parseGolden(parser, "nsys.analyze.json");
    // Events: the kernel and memcpy rows the fixture's SQL inserts, counted in the SQL text.
    std::size_t rows = 0;
    for (const auto& line : linesOf(readFile(goldenDir() / "fixtures" / "nsys_cut.sql"))) {
        rows += line.rfind("INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL ", 0) == 0 ||
                        line.rfind("INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY ", 0) == 0
                    ? 1
                    : 0;
    }
    EXPECT_EQ(number(root["events"]), static_cast<double>(rows));
    EXPECT_EQ(csvRows("nsys.events.csv").size(), rows + 1);  // the CSV writer agrees, plus its header
}

TEST(GoldenValues, SimulatedAnalysisAndCsvAgreeAndScalingFollowsFromLatencies) {
    simdjson::dom::parser parser;
    const auto analysis = parseGolden(parser, "sim.analyze.json");
    // Two writers, one trace: analyze's event count is the CSV's row count.
    EXPECT_EQ(number(analysis["events"]), static_cast<double>(csvRows("sim.events.csv").size() - 1));
    simdjson::dom::parser scalingParser;
    const auto scaling = parseGolden(scalingParser, "sim.scaling.json");
    const double price = number(scaling["price_per_gpu_hour"]);
    auto runs = scaling["batches"].at(0)["runs"].get_array();
    ASSERT_EQ(runs.size(), 2u);
    const double tp1 = number(runs.at(0)["step_latency_ns"]);
    for (auto run : runs) {
        const double latency = number(run["step_latency_ns"]);
        const double gpus = number(run["gpus"]);
        // Batch 1: tokens/s = 1e9 / step latency; speedup = TP 1 latency / this latency;
        // $/Mtok = price x GPUs / 3600 s / tokens per s x 1e6; efficiency = speedup / GPUs.
        const double tokensPerSec = 1e9 / latency;
        EXPECT_NEAR(number(run["tokens_per_sec"]), tokensPerSec, 1e-9 * tokensPerSec);
        EXPECT_NEAR(number(run["speedup"]), tp1 / latency, 1e-12);
        EXPECT_NEAR(number(run["efficiency"]), tp1 / latency / gpus, 1e-12);
        EXPECT_NEAR(number(run["cost_per_million_tokens"]), price * gpus / 3600 / tokensPerSec * 1e6, 1e-12);
    }
}

TEST(GoldenValues, PlanFollowsFromTheModelDimensions) {
    simdjson::dom::parser parser;
    const auto plan = parseGolden(parser, "plan.json");
    const simdjson::dom::element m = plan["model"];
    const double hidden = number(m["hidden"]), ffn = number(m["ffn"]), heads = number(m["heads"]);
    const double kvHeads = number(m["kv_heads"]), headDim = number(m["head_dim"]), layers = number(m["layers"]);
    const double vocab = number(m["vocab"]), tp = number(plan["tp"]), batch = number(plan["batch"]);
    const double context = number(plan["context"]);
    // Parameters: per layer q/o (hidden x heads*headDim), k/v (hidden x kvHeads*headDim), three MLP
    // matrices, two norms; untied embedding and LM head, final norm.
    const double perLayer =
        2 * hidden * heads * headDim + 2 * hidden * kvHeads * headDim + 3 * hidden * ffn + 2 * hidden;
    EXPECT_DOUBLE_EQ(number(m["parameters"]), layers * perLayer + 2 * vocab * hidden + hidden);
    // All-reduce message: batch x hidden fp16 values; ring wire bytes 2 (tp - 1) / tp of it.
    EXPECT_DOUBLE_EQ(number(plan["allreduce_message_bytes"]), batch * hidden * 2);
    EXPECT_DOUBLE_EQ(number(plan["allreduce_wire_bytes_per_gpu"]), 2 * (tp - 1) / tp * batch * hidden * 2);
    // Two per layer (attention out, MLP down) plus the embedding's.
    EXPECT_DOUBLE_EQ(number(plan["layer_allreduces_per_step"]), 2 * layers);
    // KV cache: K and V, every layer, context x batch tokens, this rank's kv heads, fp16.
    EXPECT_DOUBLE_EQ(number(plan["kv_cache_bytes_per_gpu"]), 2 * layers * context * batch * kvHeads / tp * headDim * 2);
}

}  // namespace
}  // namespace tpscope::test
