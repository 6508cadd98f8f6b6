// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// A run's opening excerpt in the workspace (schema 3): written with the run, read back alone without
// the run's events, absent from older files and small runs, and a clear error when damaged.
#include <gtest/gtest.h>

#include "core/io/workspace/workspace.h"
#include "core/io/workspace/workspace_excerpt.h"
#include "core/sim/sim_test_support.h"
#include "io_test_util.h"
#include "support/trace_equality.h"

namespace tpscope::test {
namespace {

std::shared_ptr<const core::Trace> simulatedRun() {
    auto r = core::sim::simulate(simConfig("llama3-8b", "h100-sxm", "nvlink4", 4, 1, 4));
    EXPECT_TRUE(r) << r.error().describe();
    return r ? r->trace : nullptr;
}

core::Workspace oneRun() {
    core::Workspace ws;
    ws.runs.push_back(core::Run{
        {"tp4", "llama3-8b", "h100-sxm", "nvlink4", 4, 1, 1024, {{"seed", "1"}}}, simulatedRun(), std::nullopt});
    return ws;
}

// Saved with an excerpt whatever the run's size.
std::string savedWithExcerpt(const TempDir& dir, const core::Workspace& ws) {
    const auto path = (dir / "excerpt.tpscope").string();
    core::WorkspaceOptions options;
    options.excerptMinEvents = 0;
    EXPECT_TRUE(core::saveWorkspace(ws, path, options));
    return path;
}

TEST(WorkspaceExcerpt, RoundTripsBesideAnUnchangedRun) {
    TempDir dir;
    const core::Workspace ws = oneRun();
    const auto path = savedWithExcerpt(dir, ws);
    const auto expected = core::analysis::makeOpeningExcerpt(*ws.runs[0].trace);
    ASSERT_TRUE(expected);

    auto loaded = core::loadWorkspaceExcerpt(path, 0);
    ASSERT_TRUE(loaded) << loaded.error().describe();
    ASSERT_TRUE(loaded->has_value());
    const auto& got = **loaded;
    EXPECT_EQ(got.windowStartNs, expected->windowStartNs);
    EXPECT_EQ(got.windowEndNs, expected->windowEndNs);
    EXPECT_EQ(got.traceStartNs, expected->traceStartNs);
    EXPECT_EQ(got.traceEndNs, expected->traceEndNs);
    EXPECT_EQ(got.traceEventCount, ws.runs[0].trace->eventCount());
    EXPECT_EQ(got.ranks, expected->ranks);
    expectSameTrace(*expected->events, *got.events);
    EXPECT_EQ(got.events->origin, ws.runs[0].trace->origin);

    // The run itself reads as before, and the excerpt is no run of its own.
    auto all = core::loadWorkspace(path);
    ASSERT_TRUE(all) << all.error().describe();
    ASSERT_EQ(all->runs.size(), 1u);
    expectSameTrace(*ws.runs[0].trace, *all->runs[0].trace);
    auto listed = core::listWorkspaceRuns(path);
    ASSERT_TRUE(listed);
    EXPECT_EQ(listed->size(), 1u);
}

TEST(WorkspaceExcerpt, SmallRunsHaveNone) {
    TempDir dir;
    const core::Workspace ws = oneRun();
    ASSERT_LT(ws.runs[0].trace->eventCount(), core::analysis::kExcerptMinEvents);
    const auto path = (dir / "small.tpscope").string();
    ASSERT_TRUE(core::saveWorkspace(ws, path));
    auto loaded = core::loadWorkspaceExcerpt(path, 0);
    ASSERT_TRUE(loaded) << loaded.error().describe();
    EXPECT_FALSE(loaded->has_value());
}

// A file of schema 2 has no run_excerpts table: no excerpt, and the run opens as it always did.
TEST(WorkspaceExcerpt, OlderFilesHaveNoneAndStillLoad) {
    TempDir dir;
    const core::Workspace ws = oneRun();
    const auto path = savedWithExcerpt(dir, ws);
    execSql(path,
            "DELETE FROM event_chunks WHERE run_id < 0; DELETE FROM streams WHERE run_id < 0; "
            "DELETE FROM host_threads WHERE run_id < 0; DELETE FROM ranks WHERE run_id < 0; "
            "DELETE FROM trace_tables WHERE run_id < 0; DROP TABLE run_excerpts; "
            "UPDATE tpscope_meta SET value = '2' WHERE key = 'schema_version'");
    auto loaded = core::loadWorkspaceExcerpt(path, 0);
    ASSERT_TRUE(loaded) << loaded.error().describe();
    EXPECT_FALSE(loaded->has_value());
    auto all = core::loadWorkspace(path);
    ASSERT_TRUE(all) << all.error().describe();
    expectSameTrace(*ws.runs[0].trace, *all->runs[0].trace);
}

TEST(WorkspaceExcerpt, SchemaThreeWithoutTheTableIsAClearError) {
    TempDir dir;
    const auto path = savedWithExcerpt(dir, oneRun());
    execSql(path, "DROP TABLE run_excerpts; CREATE VIEW run_excerpts AS SELECT * FROM streams");
    EXPECT_FALSE(core::loadWorkspaceExcerpt(path, 0));
    EXPECT_FALSE(core::loadWorkspace(path));
}

// Each damage: one clear error naming the excerpt or the damage, never a crash; the run still loads.
TEST(WorkspaceExcerpt, DamagedExcerptsAreClearErrors) {
    const char* damages[] = {
        "UPDATE run_excerpts SET totals = substr(totals, 1, length(totals) - 1)",
        "UPDATE run_excerpts SET totals = totals || x'00'",
        "UPDATE run_excerpts SET totals = x''",
        "UPDATE run_excerpts SET totals = x'0907'",
        "UPDATE run_excerpts SET excerpt_id = 0",
        "UPDATE run_excerpts SET excerpt_id = -77",
        "UPDATE run_excerpts SET window_end_ns = window_start_ns",
        "UPDATE run_excerpts SET window_start_ns = trace_start_ns - 1",
        "UPDATE run_excerpts SET trace_event_count = -1",
        "UPDATE event_chunks SET data = randomblob(length(data)) WHERE run_id < 0",
        "UPDATE ranks SET ranges = substr(ranges, 1, 3) WHERE run_id < 0",
    };
    for (const char* damage : damages) {
        SCOPED_TRACE(damage);
        TempDir dir;
        const auto path = savedWithExcerpt(dir, oneRun());
        execSql(path, damage);
        auto loaded = core::loadWorkspaceExcerpt(path, 0);
        ASSERT_FALSE(loaded);
        EXPECT_FALSE(loaded.error().message.empty());
        EXPECT_TRUE(core::loadWorkspace(path)) << "the run's own rows are intact";
    }
}

TEST(WorkspaceExcerpt, TotalsBlobRejectsEveryCutAndExtraByte) {
    std::vector<core::analysis::ExcerptRankTotals> ranks(3);
    for (std::size_t r = 0; r < ranks.size(); ++r) {
        for (std::size_t k = 0; k < core::kEventKindCount; ++k) ranks[r].kindCount[k] = (r + 1) * 1000 * (k + 1);
        ranks[r].exposedNs = static_cast<std::int64_t>(r) * 123456789;
    }
    const std::string blob = core::encodeExcerptTotals(ranks);
    std::vector<core::analysis::ExcerptRankTotals> out;
    ASSERT_TRUE(core::decodeExcerptTotals(blob, 3, out));
    EXPECT_EQ(out, ranks);
    for (std::size_t n = 0; n < blob.size(); ++n) {
        EXPECT_FALSE(core::decodeExcerptTotals(blob.substr(0, n), 3, out)) << n << " bytes";
        EXPECT_TRUE(out.empty());
    }
    EXPECT_FALSE(core::decodeExcerptTotals(blob + '\0', 3, out));
    EXPECT_FALSE(core::decodeExcerptTotals(blob, 2, out));
}

}  // namespace
}  // namespace tpscope::test
