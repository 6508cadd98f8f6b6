// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/io/workspace/workspace_excerpt.h"

#include "core/io/codec/event_codec.h"
#include "core/io/workspace/workspace_runs.h"
#include "core/util/out_of_memory.h"

namespace tpscope::core {

std::string encodeExcerptTotals(const std::vector<analysis::ExcerptRankTotals>& ranks) {
    codec::Writer w;
    w.varint(ranks.size());
    w.varint(kEventKindCount);
    for (const auto& rank : ranks) {
        for (const std::uint64_t n : rank.kindCount) w.varint(n);
        w.zigzag(rank.exposedNs);
    }
    return std::move(w.bytes());
}

Status decodeExcerptTotals(std::string_view raw, std::size_t rankCount, std::vector<analysis::ExcerptRankTotals>& out) {
    out.clear();
    const auto bad = [&](const std::string& what) {
        out.clear();
        return makeError(ErrorCode::ParseError, "damaged opening excerpt: " + what);
    };
    codec::Reader r(raw);
    std::uint64_t ranks = 0, kinds = 0;
    if (!r.varint(ranks) || !r.varint(kinds)) return bad("totals cut short");
    if (ranks != rankCount) {
        return bad("totals of " + std::to_string(ranks) + " ranks for " + std::to_string(rankCount));
    }
    if (kinds > kEventKindCount) return bad("totals of " + std::to_string(kinds) + " event kinds");
    out.resize(rankCount);
    for (auto& rank : out) {
        for (std::uint64_t k = 0; k < kinds; ++k) {
            if (!r.varint(rank.kindCount[k])) return bad("totals cut short");
        }
        if (!r.zigzag(rank.exposedNs)) return bad("totals cut short");
        if (rank.exposedNs < 0) return bad("negative exposed time");
    }
    if (!r.atEnd()) return bad("bytes after the totals");
    return Ok{};
}

namespace {

Result<std::optional<analysis::OpeningExcerpt>> loadOneExcerpt(const std::string& path, std::size_t runIndex,
                                                               const WorkspaceOptions& opt) {
    auto db = openWorkspace(path);
    if (!db) return db.error();
    std::vector<RunRow> runs;
    TPSCOPE_TRY_ASSIGN(runs, readRuns(*db));
    TPSCOPE_TRY(requireRun(runs, runIndex, path));
    if (!db->hasTable("run_excerpts")) return std::optional<analysis::OpeningExcerpt>{};  // older than version 3
    auto stmt = db->prepare(
        "SELECT excerpt_id, window_start_ns, window_end_ns, trace_start_ns, trace_end_ns, trace_event_count, totals "
        "FROM run_excerpts WHERE run_id = ?1");
    if (!stmt) return stmt.error();
    stmt->bind(1, runs[runIndex].id);
    const int rc = stmt->step();
    if (rc == SQLITE_DONE) return std::optional<analysis::OpeningExcerpt>{};
    if (rc != SQLITE_ROW) return db->error("cannot read the opening excerpt");
    analysis::OpeningExcerpt excerpt;
    RunRow row;
    row.id = stmt->int64(0);
    row.origin = runs[runIndex].origin;
    excerpt.windowStartNs = stmt->int64(1);
    excerpt.windowEndNs = stmt->int64(2);
    excerpt.traceStartNs = stmt->int64(3);
    excerpt.traceEndNs = stmt->int64(4);
    const std::int64_t count = stmt->int64(5);
    const auto blob = stmt->blob(6);
    const std::string totals(reinterpret_cast<const char*>(blob.data()), blob.size());
    // Its own id, negative so that no run's rows are read as the excerpt's; a window inside the trace.
    if (row.id >= 0 || count < 0 || excerpt.windowEndNs <= excerpt.windowStartNs ||
        excerpt.traceEndNs < excerpt.traceStartNs || excerpt.windowStartNs < excerpt.traceStartNs ||
        excerpt.windowEndNs > excerpt.traceEndNs) {
        return damaged(path, "opening excerpt");
    }
    excerpt.traceEventCount = static_cast<std::uint64_t>(count);
    std::shared_ptr<Trace> events;
    TPSCOPE_TRY_ASSIGN(events, readTrace(*db, row, opt));
    events->source = "opening excerpt of " + runs[runIndex].source;
    if (Status s = decodeExcerptTotals(totals, events->ranks.size(), excerpt.ranks); !s) {
        Error e = s.error();
        e.context = path;
        return e;
    }
    excerpt.events = std::move(events);
    return std::optional<analysis::OpeningExcerpt>{std::move(excerpt)};
}

}  // namespace

Result<std::optional<analysis::OpeningExcerpt>> loadWorkspaceExcerpt(const std::string& path, std::size_t runIndex,
                                                                     const WorkspaceOptions& opt) {
    return withAllocationErrors([&] { return loadOneExcerpt(path, runIndex, opt); }, path);
}

}  // namespace tpscope::core
