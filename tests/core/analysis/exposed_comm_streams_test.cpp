// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// exposedCommIntervals and summarizeComm, which stream each kind's union over a rank's streams
// (KernelUnion), against the lists they stand for: the union of the collectives minus the union of
// the compute kernels (unionOf, subtract), on random streams mixing every kind, with empty kernels,
// overlaps across streams and equal starts.

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "core/analysis/exposed_comm.h"
#include "core/trace/trace.h"

namespace tpscope::core::analysis {
namespace {

TEST(ExposedCommStreams, StreamedUnionsEqualTheListedOnes) {
    std::mt19937_64 rng(11);
    std::uniform_int_distribution<int> streamCount(1, 4);
    std::uniform_int_distribution<int> kindOf(0, kEventKindCount - 1);
    // Multiples of 10, so that kernels often touch ([0, 10) and [10, 20) merge) or start together.
    std::uniform_int_distribution<std::int64_t> gap(0, 3);
    std::uniform_int_distribution<std::int64_t> dur(0, 6);  // 0: an empty kernel, dropped
    for (int round = 0; round < 50; ++round) {
        Trace trace;
        const NameId name = trace.intern("k");
        Rank& rank = trace.rank(RankId{0});
        std::vector<TimeInterval> comm;
        std::vector<TimeInterval> compute;
        const int streams = streamCount(rng);
        for (int s = 0; s < streams; ++s) {
            auto& events = rank.stream(StreamId{static_cast<std::uint32_t>(s)}, "s").events;
            std::int64_t t = 0;
            for (int i = 0; i < 40; ++i) {
                t += 10 * gap(rng);
                const auto kind = static_cast<EventKind>(kindOf(rng));
                const std::int64_t d = 10 * dur(rng);
                events.append({t, d, name, kind, 0, kNoPayload});
                if (kind == EventKind::Collective) comm.push_back({t, t + d});
                if (kind != EventKind::Collective && kind != EventKind::Memcpy && kind != EventKind::Memset) {
                    compute.push_back({t, t + d});
                }
            }
        }
        trace.finalize();
        const std::vector<TimeInterval> expected = subtract(unionOf(comm), unionOf(compute));
        EXPECT_EQ(exposedCommIntervals(trace.ranks[0]), expected) << "round " << round;
        std::int64_t commNs = 0;
        for (const auto& iv : unionOf(comm)) commNs += iv.length();
        std::int64_t exposedNs = 0;
        for (const auto& iv : expected) exposedNs += iv.length();
        const CommSummary summary = summarizeComm(trace.ranks[0]);
        EXPECT_EQ(summary.commNs, static_cast<double>(commNs)) << "round " << round;
        EXPECT_EQ(summary.exposedNs, static_cast<double>(exposedNs)) << "round " << round;
    }
}

}  // namespace
}  // namespace tpscope::core::analysis
