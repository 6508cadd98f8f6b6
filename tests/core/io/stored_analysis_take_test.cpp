// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// takeStoredAnalysisOnOneClock (core/io/workspace/stored_analysis_take.h): a run's stored analysis is
// taken where it is what analyzeOnOneClock computes with the reader's options, and nowhere else. A
// build from a modified tree neither writes nor takes one: these tests skip there.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "core/analysis/analysis_json.h"
#include "core/io/workspace/stored_analysis_take.h"
#include "core/util/json_writer.h"
#include "synthetic_trace.h"

namespace tpscope::test {
namespace {

std::string jsonOf(const core::Trace& trace, const core::analysis::RunAnalysis& a) {
    std::ostringstream out;
    core::JsonWriter w(out);
    core::analysis::writeAnalysisJson(w, trace, a, {.includeCalls = true});
    return out.str();
}

struct Stored {
    std::string path;
    std::shared_ptr<const core::Trace> trace;
};

// One run of batch 3 (its trace's metadata says 3 too), its analysis stored by this build.
Stored storedWorkspace(const std::string& name) {
    auto trace = makeSyntheticTrace({.ranks = 4});
    trace->metadata.emplace_back("batch", "3");
    core::Workspace ws;
    ws.runs.push_back(core::Run{{"tp4", "custom", "h100-sxm", "nvlink4", 4, 3, 5, {}}, trace, std::nullopt});
    EXPECT_TRUE(core::storeAnalysis(ws.runs[0]));
    EXPECT_TRUE(ws.runs[0].analysisCache);
    const auto path = (std::filesystem::temp_directory_path() / name).string();
    EXPECT_TRUE(core::saveWorkspace(ws, path));
    return {path, trace};
}

TEST(StoredAnalysisTake, WhatAnalysingOnOneClockComputes) {
    if (core::storedAnalysisBuild().empty()) GTEST_SKIP() << "a build from a modified tree stores no analysis";
    const auto s = storedWorkspace("tpscope_take_same.tpscope");
    core::analysis::AnalysisOptions options;  // batch 0: the metadata's 3
    options.findings.fabricBusbwBytesPerSec = 362e9;
    // The synthetic ranks' clocks drift apart by more than the tolerance: `auto` and `on` move ranks.
    std::size_t taken = 0, moved = 0;
    for (const auto mode :
         {core::analysis::ClockSyncMode::Auto, core::analysis::ClockSyncMode::On, core::analysis::ClockSyncMode::Off}) {
        const core::analysis::ClockSyncOptions clock{mode, {{core::RankId{2}, 0}}};
        auto stored = core::takeStoredAnalysisOnOneClock(s.path, 0, s.trace, 3, clock, options);
        ASSERT_TRUE(stored) << stored.error().describe();
        auto analysed = core::analysis::analyzeOnOneClock(s.trace, clock, options);
        ASSERT_TRUE(analysed);
        if (analysed->sync.shiftsAnyRank()) {
            EXPECT_FALSE(stored->has_value());
            ++moved;
            continue;
        }
        ASSERT_TRUE(stored->has_value());
        ++taken;
        EXPECT_EQ((*stored)->trace, analysed->trace);
        EXPECT_EQ((*stored)->sync.notes, analysed->sync.notes);
        EXPECT_EQ((*stored)->sync.estimateApplied, analysed->sync.estimateApplied);
        EXPECT_EQ(jsonOf(*s.trace, (*stored)->analysis), jsonOf(*s.trace, analysed->analysis));
        EXPECT_EQ((*stored)->analysis.notes, analysed->analysis.notes);
    }
    EXPECT_GT(taken, 0u);
    EXPECT_GT(moved, 0u);
    std::filesystem::remove(s.path);
}

TEST(StoredAnalysisTake, NotWhereTheOptionsOrTheClocksChangeTheAnalysis) {
    if (core::storedAnalysisBuild().empty()) GTEST_SKIP() << "a build from a modified tree stores no analysis";
    const auto s = storedWorkspace("tpscope_take_other.tpscope");
    // The clocks as they are (`auto` moves the synthetic ranks, and so would refuse every case).
    const core::analysis::ClockSyncOptions sameClock{core::analysis::ClockSyncMode::Off, {}};
    auto taken = core::takeStoredAnalysisOnOneClock(s.path, 0, s.trace, 3, sameClock, {});
    ASSERT_TRUE(taken);
    EXPECT_TRUE(taken->has_value());
    core::analysis::AnalysisOptions segmented;
    segmented.segmentation.blocksPerLayer = 3;
    core::analysis::AnalysisOptions otherBatch;
    otherBatch.batch = 2;
    for (const auto& options : {segmented, otherBatch}) {
        taken = core::takeStoredAnalysisOnOneClock(s.path, 0, s.trace, 3, sameClock, options);
        ASSERT_TRUE(taken);
        EXPECT_FALSE(taken->has_value());
    }
    // A rank moved onto another clock: the synced trace is another trace.
    const core::analysis::ClockSyncOptions moved{core::analysis::ClockSyncMode::Off, {{core::RankId{1}, 5000}}};
    taken = core::takeStoredAnalysisOnOneClock(s.path, 0, s.trace, 3, moved, {});
    ASSERT_TRUE(taken);
    EXPECT_FALSE(taken->has_value());
    // The run's batch is what the stored analysis was keyed by.
    taken = core::takeStoredAnalysisOnOneClock(s.path, 0, s.trace, 2, sameClock, otherBatch);
    ASSERT_TRUE(taken);
    EXPECT_FALSE(taken->has_value());
    std::filesystem::remove(s.path);
}

}  // namespace
}  // namespace tpscope::test
