// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Round trips of a trace made by the real simulator (core/sim): workspace and Chrome JSON keep it
// event for event, with every range and payload field.

#include <gtest/gtest.h>

#include "core/io/export/chrome_writer.h"
#include "core/io/import/trace_reader.h"
#include "core/io/workspace/workspace.h"
#include "core/sim/sweep.h"
#include "io_test_util.h"
#include "support/trace_equality.h"

namespace tpscope::test {
namespace {

std::shared_ptr<const core::Trace> simulatedTrace() {
    auto catalog = core::Catalog::load({});
    EXPECT_TRUE(catalog);
    auto spec = core::sim::defaultSweepSpec(*catalog);
    EXPECT_TRUE(spec);
    spec->tps = {4};
    spec->batches = {2};
    spec->tokens = 2;
    auto result = core::sim::runSweep(*spec);
    EXPECT_TRUE(result) << result.error().describe();
    EXPECT_EQ(result->runs.size(), 1u);
    return result->runs.at(0).trace;
}

TEST(SimulatedRoundTrip, WorkspaceAndChromeJsonKeepTheSimulatorsTrace) {
    const auto trace = simulatedTrace();
    ASSERT_TRUE(trace);
    ASSERT_GT(trace->eventCount(), 0u);
    ASSERT_EQ(trace->ranks.size(), 4u);
    TempDir dir;
    core::Workspace ws;
    ws.runs.push_back(core::Run{{"tp4 b2", "llama3-70b", "h100-sxm", "nvlink4", 4, 2, 1024, {}}, trace, std::nullopt});
    const auto wsPath = (dir / "sim.tpscope").string();
    ASSERT_TRUE(core::saveWorkspace(ws, wsPath));
    auto loaded = core::loadWorkspace(wsPath);
    ASSERT_TRUE(loaded) << loaded.error().describe();
    expectSameTrace(*trace, *loaded->runs.at(0).trace);
    // The host rows (one launch thread per rank) come back event for event too.
    ASSERT_GT(trace->hostEventCount(), 0u);
    EXPECT_TRUE(trace->sameHostEvents(*loaded->runs.at(0).trace));
    EXPECT_EQ(loaded->runs.at(0).trace->hostEventCount(), trace->hostEventCount());

    // Chrome JSON carries the GPU side only (no importer reads host rows back yet).
    const auto jsonPath = (dir / "sim.json.gz").string();
    ASSERT_TRUE(core::writeChromeJson(*trace, jsonPath));
    core::ImportStats stats;
    auto back = core::readTrace(jsonPath, {}, &stats);
    ASSERT_TRUE(back) << back.error().describe();
    expectSameTrace(*trace, **back);
    EXPECT_EQ(stats.badRecords + stats.unknownPhases + stats.rankConflicts, 0u);
}

}  // namespace
}  // namespace tpscope::test
