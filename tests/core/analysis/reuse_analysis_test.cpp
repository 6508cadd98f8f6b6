// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// reuseAnalysis (core/analysis/analysis.h): a result computed with some options becomes, byte for byte
// in what `analyze --json` prints, the result of options that differ only in the batch's source or
// the findings; any other difference is refused and leaves the result alone.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "core/analysis/analysis.h"
#include "core/analysis/analysis_json.h"
#include "core/util/json_writer.h"
#include "synthetic_trace.h"

namespace tpscope::test {
namespace {

using core::analysis::AnalysisOptions;

std::string jsonOf(const core::Trace& trace, const core::analysis::RunAnalysis& a) {
    std::ostringstream out;
    core::JsonWriter w(out);
    core::analysis::writeAnalysisJson(w, trace, a, {.includeCalls = true});
    return out.str();
}

AnalysisOptions withBatch(int batch) {
    AnalysisOptions o;
    o.batch = batch;
    return o;
}

TEST(ReuseAnalysis, TheMetadataBatchStandsForTheSameBatchGiven) {
    auto trace = makeSyntheticTrace({.ranks = 2});
    trace->metadata.emplace_back("batch", "3");
    auto given = core::analysis::analyzeTrace(*trace, withBatch(3));
    const auto fromMetadata = core::analysis::analyzeTrace(*trace, withBatch(0));
    ASSERT_NE(jsonOf(*trace, given), jsonOf(*trace, fromMetadata));  // "option" vs "metadata"
    ASSERT_TRUE(core::analysis::reuseAnalysis(given, *trace, withBatch(3), withBatch(0)));
    EXPECT_EQ(jsonOf(*trace, given), jsonOf(*trace, fromMetadata));
    EXPECT_EQ(given.notes, fromMetadata.notes);
}

TEST(ReuseAnalysis, AnotherOrAnUnknownBatchIsRefused) {
    auto trace = makeSyntheticTrace({.ranks = 2});
    auto a = core::analysis::analyzeTrace(*trace, withBatch(3));
    const std::string before = jsonOf(*trace, a);
    // No metadata: batch 0 is "assumed 1", with a note of its own.
    EXPECT_FALSE(core::analysis::reuseAnalysis(a, *trace, withBatch(3), withBatch(0)));
    EXPECT_FALSE(core::analysis::reuseAnalysis(a, *trace, withBatch(3), withBatch(4)));
    trace->metadata.emplace_back("batch", "4");
    EXPECT_FALSE(core::analysis::reuseAnalysis(a, *trace, withBatch(3), withBatch(0)));
    EXPECT_EQ(jsonOf(*trace, a), before);
}

TEST(ReuseAnalysis, ASegmentationOrMatchingOptionIsRefused) {
    const auto trace = makeSyntheticTrace({.ranks = 2});
    auto a = core::analysis::analyzeTrace(*trace, withBatch(3));
    AnalysisOptions segmented = withBatch(3);
    segmented.segmentation.layersPerStep = 2;
    EXPECT_FALSE(core::analysis::reuseAnalysis(a, *trace, withBatch(3), segmented));
    AnalysisOptions matched = withBatch(3);
    matched.matching.toleranceNs = 1000;
    EXPECT_FALSE(core::analysis::reuseAnalysis(a, *trace, withBatch(3), matched));
    EXPECT_TRUE(core::analysis::analysisReusable(*trace, withBatch(3), withBatch(3)));
}

// A single rank of a multi-rank job: its finding holds the all-reduces against the fabric given.
TEST(ReuseAnalysis, TheFindingsFollowTheFindingOptions) {
    auto trace = makeSyntheticTrace({.ranks = 1});
    trace->metadata.emplace_back("world_size", "8");
    auto a = core::analysis::analyzeTrace(*trace, withBatch(2));
    AnalysisOptions fabric = withBatch(2);
    fabric.findings.fabricBusbwBytesPerSec = 362e9;
    fabric.findings.fabricId = "nvlink4";
    const auto expected = core::analysis::analyzeTrace(*trace, fabric);
    ASSERT_NE(jsonOf(*trace, a), jsonOf(*trace, expected));
    ASSERT_TRUE(core::analysis::reuseAnalysis(a, *trace, withBatch(2), fabric));
    EXPECT_EQ(jsonOf(*trace, a), jsonOf(*trace, expected));
}

}  // namespace
}  // namespace tpscope::test
