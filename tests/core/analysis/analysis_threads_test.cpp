// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// The per-rank stages run on worker threads (AnalysisOptions::threads): the result must be the
// serial one, field for field, whatever the thread count.

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <tuple>

#include "breakdown_fixtures.h"
#include "core/analysis/analysis.h"
#include "core/analysis/analysis_json.h"
#include "matching_expect.h"
#include "synthetic_trace.h"
#include "trace_builder_fixtures.h"

namespace tpscope::core::analysis {
namespace {

AnalysisOptions withThreads(unsigned threads) {
    AnalysisOptions o;
    o.threads = threads;
    return o;
}

std::string jsonOf(const Trace& trace, const RunAnalysis& a) {
    std::ostringstream out;
    JsonWriter w(out);
    writeAnalysisJson(w, trace, a, {.includeCalls = true});
    return out.str();
}

void expectSameSegmentation(const Segmentation& a, const Segmentation& b) {
    ASSERT_EQ(a.ranks.size(), b.ranks.size());
    EXPECT_EQ(a.notes, b.notes);
    for (std::size_t r = 0; r < a.ranks.size(); ++r) {
        const auto& x = a.ranks[r];
        const auto& y = b.ranks[r];
        EXPECT_EQ(x.rank, y.rank);
        EXPECT_EQ(x.source, y.source);
        EXPECT_EQ(x.leftoverBlocks, y.leftoverBlocks);
        ASSERT_EQ(x.steps.size(), y.steps.size());
        for (std::size_t i = 0; i < x.steps.size(); ++i) {
            EXPECT_EQ(std::tie(x.steps[i].key, x.steps[i].startNs, x.steps[i].endNs),
                      std::tie(y.steps[i].key, y.steps[i].startNs, y.steps[i].endNs));
        }
        ASSERT_EQ(x.layers.size(), y.layers.size());
        for (std::size_t i = 0; i < x.layers.size(); ++i) {
            EXPECT_EQ(x.layers[i], y.layers[i]);
        }
    }
}

void expectSameAnalysis(const Trace& trace, const RunAnalysis& a, const RunAnalysis& b) {
    expectSameSegmentation(a.segmentation, b.segmentation);
    test::expectSameMatching(a.matching, b.matching);
    test::expectSameBreakdown(a.breakdown, b.breakdown);
    EXPECT_EQ(a.notes, b.notes);
    // The summary, the findings and every call, as the CLI prints them.
    EXPECT_EQ(jsonOf(trace, a), jsonOf(trace, b));
}

TEST(AnalysisThreads, EightRanksGiveTheSerialResultOnAnyThreadCount) {
    // Three streams per rank (compute, NCCL, copies), jitter, a second host: every per-rank stage has work.
    const auto trace = test::makeSyntheticTrace({.ranks = 8, .steps = 3, .layers = 6, .seed = 11});
    const auto serial = analyzeTrace(*trace, withThreads(1));
    ASSERT_EQ(serial.breakdown.rows.size(), 8u * 3u * 6u);
    ASSERT_FALSE(serial.matching.calls.empty());
    for (const unsigned threads : {2u, 3u, 8u, 0u}) {
        SCOPED_TRACE("threads " + std::to_string(threads));
        expectSameAnalysis(*trace, serial, analyzeTrace(*trace, withThreads(threads)));
    }
}

TEST(AnalysisThreads, PatternRuleRanksGiveTheSerialResult) {
    const auto trace = test::makeDecodeTrace(
        {.ranks = 6, .steps = 2, .layers = 4, .gapNs = 30, .lateRank = 2, .lateByNs = 70, .nvtx = false});
    const auto serial = analyzeTrace(*trace, withThreads(1));
    ASSERT_EQ(serial.segmentation.ranks[0].source, SegmentationSource::Pattern);
    expectSameAnalysis(*trace, serial, analyzeTrace(*trace, withThreads(4)));
}

// Layers whose start order is not their (step, layer) order, and ranks that hold different layers:
// rows must come out sorted by (step, layer, rank) for every thread count, as the serial sort put them.
TEST(AnalysisThreads, RowsAreSortedByStepLayerRankWhateverTheStartOrder) {
    test::TraceBuilder b;
    for (int r = 0; r < 3; ++r) {
        b.step(r, 0, 0, 1000);
        // Start order: layer 2, layer 0, layer 1 (rank 1 lacks layer 0).
        b.layer(r, 2, 0, 300);
        if (r != 1) b.layer(r, 0, 300, 600);
        b.layer(r, 1, 600, 1000);
        b.gemm(r, 50 + r * 10, 550);
        b.allReduce(r, 600, 700);
    }
    const auto trace = b.build();
    const auto serial = analyzeTrace(*trace, withThreads(1));
    const auto& rows = serial.breakdown.rows;
    ASSERT_EQ(rows.size(), 8u);
    EXPECT_TRUE(std::is_sorted(rows.begin(), rows.end(), [](const LayerRankRow& x, const LayerRankRow& y) {
        return std::tie(x.step, x.layer, x.rankIndex) < std::tie(y.step, y.layer, y.rankIndex);
    }));
    EXPECT_EQ(std::make_tuple(rows[0].layer, rows[0].rankIndex), std::make_tuple(0, 0u));
    EXPECT_EQ(std::make_tuple(rows[1].layer, rows[1].rankIndex), std::make_tuple(0, 2u));
    EXPECT_EQ(std::make_tuple(rows[2].layer, rows[2].rankIndex), std::make_tuple(1, 0u));
    // Each row is its own window: layer 2 of rank 0 is [0, 300), where its GEMM runs from 50.
    EXPECT_EQ(rows[5].layer, 2);
    EXPECT_EQ(rows[5].time.wallNs, 300);
    EXPECT_EQ(rows[5].time.computeNs, 300 - 50);
    for (const unsigned threads : {2u, 3u}) {
        SCOPED_TRACE("threads " + std::to_string(threads));
        expectSameAnalysis(*trace, serial, analyzeTrace(*trace, withThreads(threads)));
    }
}

}  // namespace
}  // namespace tpscope::core::analysis
