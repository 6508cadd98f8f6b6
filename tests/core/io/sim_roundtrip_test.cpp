// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Round trips of a trace made by the real simulator (core/sim): workspace and Chrome JSON keep it
// event for event, with every range and payload field.

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

#include "core/io/export/chrome_writer.h"
#include "core/io/import/trace_reader.h"
#include "core/io/workspace/workspace.h"
#include "core/sim/runtime_profile.h"
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

    // Chrome JSON carries the host rows too: the Kineto importer reads tpscope's own back.
    const auto jsonPath = (dir / "sim.json.gz").string();
    ASSERT_TRUE(core::writeChromeJson(*trace, jsonPath));
    core::ImportStats stats;
    auto back = core::readTrace(jsonPath, {}, &stats);
    ASSERT_TRUE(back) << back.error().describe();
    expectSameTrace(*trace, **back);
    EXPECT_TRUE(trace->sameHostEvents(**back));
    EXPECT_EQ((*back)->hostEventCount(), trace->hostEventCount());
    EXPECT_EQ(stats.badRecords + stats.unknownPhases + stats.rankConflicts, 0u);
}

// An eager run's host rows (a launch call per kernel, each with its kernel's correlation id) survive
// Chrome JSON, and each launch's flow ("ac2g" s/f, as Kineto writes them) joins it to its kernel.
TEST(SimulatedRoundTrip, ChromeJsonKeepsAnEagerRunsLaunchCallsAndFlows) {
    auto catalog = core::Catalog::load({});
    ASSERT_TRUE(catalog);
    auto spec = core::sim::defaultSweepSpec(*catalog);
    ASSERT_TRUE(spec);
    spec->model = *catalog->model("llama3-8b");
    spec->tps = {2};
    spec->tokens = 2;
    spec->params.setRuntime(core::sim::Runtime::PytorchEager);
    auto result = core::sim::runSweep(*spec);
    ASSERT_TRUE(result) << result.error().describe();
    const auto trace = result->runs.at(0).trace;
    std::size_t launches = 0;
    for (const auto& rank : trace->ranks) {
        for (const auto& t : rank.hostThreads) {
            for (std::size_t i = 0; i < t.events.size(); ++i) launches += t.events.correlationId(i) != 0 ? 1 : 0;
        }
    }
    ASSERT_EQ(launches, trace->eventCount());  // one launch per kernel
    TempDir dir;
    const auto jsonPath = (dir / "eager.json").string();
    ASSERT_TRUE(core::writeChromeJson(*trace, jsonPath));
    auto back = core::readTrace(jsonPath, {}, nullptr);
    ASSERT_TRUE(back) << back.error().describe();
    expectSameTrace(*trace, **back);
    EXPECT_TRUE(trace->sameHostEvents(**back));
    // One flow start and one flow end per launch, in the file Perfetto opens.
    std::ifstream in(jsonPath);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto count = [&](std::string_view what) {
        std::size_t n = 0;
        for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
        return n;
    };
    EXPECT_EQ(count(R"({"ph": "s", "cat": "ac2g")"), launches);
    EXPECT_EQ(count(R"({"ph": "f", "bp": "e", "cat": "ac2g")"), launches);
}

}  // namespace
}  // namespace tpscope::test
