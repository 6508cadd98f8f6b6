// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// TimelineData's two stages (issue 18): the rows need the trace alone; the collective index keeps
// each stream's kernels in index order and derives the start order on demand, which must be the
// order a stable sort of every collective kernel by start gives (ties: stream, then index).

#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>

#include "core/analysis/exposed_comm.h"
#include "core/trace/event_batch_builder.h"
#include "tests/synthetic_trace.h"
#include "ui/timeline/timeline_data.h"
#include "ui_test_support.h"

namespace tpscope::ui {
namespace {

// Two ranks, collectives on both streams of each, some starting at the same time on both streams.
std::shared_ptr<const core::Trace> twoStreamCollectives() {
    std::vector<test::KernelSpec> onCompute, onNccl;
    for (int i = 0; i < 40; ++i) {
        const std::int64_t t = 10'000 * i;
        onCompute.push_back({t, 3'000, i % 3 == 0 ? core::EventKind::Collective : core::EventKind::Gemm, "k"});
        if (i % 2 == 0) onNccl.push_back({t + (i % 4 == 0 ? 0 : 1'500), 4'000, core::EventKind::Collective, "nccl"});
    }
    return test::makeTrace(2, onCompute, onNccl);
}

// Every collective kernel of a rank as (start, stream, index), in the stable start order.
std::vector<std::tuple<std::int64_t, int, std::size_t>> byStart(const core::Rank& rank) {
    std::vector<std::tuple<std::int64_t, int, std::size_t>> all;
    for (std::size_t s = 0; s < rank.streams.size(); ++s) {
        const auto& ev = rank.streams[s].events;
        for (std::size_t i = 0; i < ev.size(); ++i) {
            if (ev.kind(i) == core::EventKind::Collective) all.emplace_back(ev.startNs(i), static_cast<int>(s), i);
        }
    }
    std::sort(all.begin(), all.end());  // (start, stream, index): the stable order of the old sorted index
    return all;
}

TEST(TimelineData, RowsAloneHaveNoAnalysisAndTheSameRowsAsTheFullBuild) {
    const auto trace = twoStreamCollectives();
    const auto rows = TimelineData::buildRows(*trace);
    const auto full = TimelineData::build(*trace, {}, rows.get());
    EXPECT_FALSE(rows->hasAnalysis());
    EXPECT_TRUE(full->hasAnalysis());
    EXPECT_EQ(&rows->ranks(), &full->ranks());  // shared, not rebuilt
    ASSERT_EQ(rows->ranks().size(), 2u);
    EXPECT_TRUE(rows->ranks()[0].hasCollectives());
    EXPECT_EQ(rows->ranks()[0].kindCount[static_cast<std::size_t>(core::EventKind::Collective)],
              byStart(trace->ranks[0]).size());
    const EventRef first{0, 0, 0};
    EXPECT_FALSE(rows->matchCollective(*trace, first).has_value());
    EXPECT_TRUE(rows->collectivesIn(*trace, 0, trace->startNs(), trace->endNs()).empty());
    const auto fresh = TimelineData::build(*trace);
    EXPECT_EQ(fresh->ranks()[1].exposedTotalNs, full->ranks()[1].exposedTotalNs);
}

// Rows given each rank's exposed communication as a workspace stored it (core::loadStoredExposedComm)
// take those columns, with the totals and block sums derived from them, and are otherwise the rows built
// from the trace alone; a list for another number of ranks is not taken.
TEST(TimelineData, RowsTakeTheStoredExposedCommunication) {
    const auto trace = twoStreamCollectives();
    const auto derived = TimelineData::buildRows(*trace);
    const core::StoredExposedComm stored = core::analysis::exposedCommColumns(*trace);
    const auto taken = TimelineData::buildRows(*trace, stored);
    ASSERT_EQ(taken->ranks().size(), derived->ranks().size());
    for (std::size_t r = 0; r < taken->ranks().size(); ++r) {
        const auto& a = taken->ranks()[r];
        const auto& b = derived->ranks()[r];
        EXPECT_TRUE(a.exposed == b.exposed) << "rank " << r;
        EXPECT_EQ(a.exposedTotalNs, b.exposedTotalNs) << "rank " << r;
        EXPECT_EQ(a.exposedBlockSum, b.exposedBlockSum) << "rank " << r;
        EXPECT_EQ(a.kindCount, b.kindCount) << "rank " << r;
        EXPECT_EQ(a.nvtx.size(), b.nvtx.size()) << "rank " << r;
    }
    ASSERT_GT(derived->ranks()[1].exposedTotalNs, 0);
    // Planted: one interval of 5 ns on rank 1 is what the rows then show.
    core::StoredExposedComm planted(trace->ranks.size());
    {
        core::EventBatchBuilder builder(planted[1]);
        builder.add(trace->startNs(), 5, core::NameId{}, core::EventKind::Collective);
        builder.flush();
    }
    for (auto& columns : planted) columns.finalize();
    const auto plantedRows = TimelineData::buildRows(*trace, planted);
    EXPECT_EQ(plantedRows->ranks()[1].exposedTotalNs, 5);
    EXPECT_EQ(plantedRows->ranks()[0].exposed.size(), 0u);
    const auto oneRank = TimelineData::buildRows(*trace, core::StoredExposedComm(1));
    EXPECT_EQ(oneRank->ranks()[1].exposedTotalNs, derived->ranks()[1].exposedTotalNs);
}

TEST(TimelineData, OrdinalAndWindowFollowTheStartOrderAcrossStreams) {
    const auto trace = twoStreamCollectives();
    const auto data = TimelineData::build(*trace);
    for (int r = 0; r < 2; ++r) {
        const auto expected = byStart(trace->ranks[static_cast<std::size_t>(r)]);
        ASSERT_GT(expected.size(), 20u);
        std::size_t matched = 0;
        for (std::size_t k = 0; k < expected.size(); ++k) {
            const auto& [start, stream, index] = expected[k];
            const auto m = data->matchCollective(*trace, EventRef{r, stream, index});
            if (!m) continue;
            ++matched;
            EXPECT_EQ(m->ordinal, k) << "rank " << r << " stream " << stream << " index " << index;
        }
        EXPECT_GT(matched, expected.size() / 2);
        // Windows: whole trace, and ones that cut between and at equal starts.
        for (const auto& [t0, t1] : {std::pair<std::int64_t, std::int64_t>{trace->startNs(), trace->endNs()},
                                     {20'000, 120'000},
                                     {21'500, 41'500},
                                     {0, 0}}) {
            std::vector<EventRef> want;
            for (const auto& [start, stream, index] : expected) {
                if (start >= t0 && start < t1) want.push_back(EventRef{r, stream, index});
            }
            EXPECT_EQ(data->collectivesIn(*trace, static_cast<std::size_t>(r), t0, t1), want) << t0 << ".." << t1;
        }
    }
}

// The index is built rank by rank on several workers: every participant of every call of core's
// matching must find that call, with the call's members, whichever worker tagged its rank.
TEST(TimelineData, EveryParticipantFindsItsCallOnEveryRank) {
    const auto trace = test::makeSyntheticTrace({.ranks = 7, .steps = 2, .layers = 3, .seed = 5});
    const auto data = TimelineData::build(*trace);
    const auto& matching = data->analysis().matching;
    ASSERT_GT(matching.calls.size(), 10u);
    std::size_t found = 0;
    for (const auto& call : matching.calls) {
        for (std::uint32_t i = 0; i < call.participantCount; ++i) {
            const auto& p = matching.participants[call.firstParticipant + i];
            const auto m = data->matchCollective(
                *trace, EventRef{static_cast<int>(p.rankIndex), static_cast<int>(p.streamIndex), p.eventIndex});
            ASSERT_TRUE(m.has_value()) << "rank " << p.rankIndex << " event " << p.eventIndex;
            ++found;
            EXPECT_EQ(m->transferNs, call.transferNs());
            EXPECT_EQ(m->skewNs, call.lastStartNs - call.firstStartNs);
            ASSERT_EQ(m->members.size(), call.participantCount);
            for (const auto& member : m->members) {
                const bool inCall =
                    std::any_of(matching.participants.begin() + call.firstParticipant,
                                matching.participants.begin() + call.firstParticipant + call.participantCount,
                                [&](const core::analysis::CallParticipant& q) {
                                    return member.event == EventRef{static_cast<int>(q.rankIndex),
                                                                    static_cast<int>(q.streamIndex), q.eventIndex};
                                });
                EXPECT_TRUE(inCall);
            }
        }
    }
    EXPECT_EQ(found, matching.participants.size());
}

// Both unions are streamed across the streams as the kernels come: the result must be the definition's,
// the collectives' union minus the compute kernels' union, and summarizeComm's totals their lengths.
TEST(TimelineData, ExposedCommunicationOverSeveralStreamsIsTheUnionOfEveryKernel) {
    auto t = std::make_shared<core::Trace>();
    auto& rank = t->rank(core::RankId{0});
    std::vector<core::analysis::TimeInterval> comm, compute;
    std::uint32_t seed = 12345;
    const auto next = [&seed](std::uint32_t mod) {
        seed = seed * 1664525u + 1013904223u;
        return static_cast<std::int64_t>((seed >> 8) % mod);
    };
    for (std::uint32_t s = 0; s < 3; ++s) {
        rank.stream(core::StreamId{s}, "s");
        for (int i = 0; i < 400; ++i) {
            const std::int64_t start = next(1'000'000), dur = next(5'000);
            const auto kind = next(3) == 0 ? core::EventKind::Collective
                                           : (next(5) == 0 ? core::EventKind::Memcpy : core::EventKind::Gemm);
            rank.streams[s].events.append({start, dur, core::NameId{}, kind, 0, core::kNoPayload});
            if (kind == core::EventKind::Collective) comm.push_back({start, start + dur});
            if (kind == core::EventKind::Gemm) compute.push_back({start, start + dur});
        }
    }
    t->finalize();
    const auto want = core::analysis::subtract(core::analysis::unionOf(comm), core::analysis::unionOf(compute));
    ASSERT_GT(want.size(), 10u);
    EXPECT_EQ(core::analysis::exposedCommIntervals(t->ranks[0]), want);
    // Into a reused list that still holds another rank's intervals: only this rank's come out.
    std::vector<core::analysis::TimeInterval> reused(want.size() + 7, core::analysis::TimeInterval{1, 2});
    core::analysis::exposedCommIntervals(t->ranks[0], reused);
    EXPECT_EQ(reused, want);
    const auto summary = core::analysis::summarizeComm(t->ranks[0]);
    EXPECT_EQ(summary.commNs, static_cast<double>(core::analysis::totalLength(core::analysis::unionOf(comm))));
    EXPECT_EQ(summary.exposedNs, static_cast<double>(core::analysis::totalLength(want)));
    EXPECT_LT(summary.exposedNs, summary.commNs);
}

}  // namespace
}  // namespace tpscope::ui
