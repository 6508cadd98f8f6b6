// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// CollectiveLookup against what an index of every collective kernel answered (the timeline's until
// issue 31): each rank's kernels listed from the trace, ordered by (start, stream, index), each tagged
// with the call whose participant it is. Shapes: a decode trace, several streams and communicators
// with incomplete calls and early arrivals over many blocks of calls, kernels the matching leaves out,
// and a public trace.

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "core/analysis/analysis.h"
#include "core/analysis/collective_lookup.h"
#include "core/io/import/trace_reader.h"
#include "test_support.h"
#include "trace_builder_fixtures.h"

namespace tpscope::core::analysis {
namespace {

using Key = std::tuple<std::int64_t, std::size_t, std::size_t>;

// Every collective kernel of the trace with the call it joined (-1: none), by rank, each rank's in
// (start, stream, index) order: the old index, built the direct way.
struct Oracle {
    struct Kernel {
        Key key;
        CollectiveKernelAt at;
        long long call = -1;
        std::size_t participant = 0;
    };
    std::vector<std::vector<Kernel>> ranks;

    Oracle(const Trace& trace, const CollectiveMatching& m) : ranks(trace.ranks.size()) {
        std::map<std::tuple<std::size_t, std::size_t, std::size_t>, std::pair<std::size_t, std::size_t>> joined;
        for (std::size_t c = 0; c < m.calls.size(); ++c) {
            for (std::uint32_t i = 0; i < m.calls[c].participantCount; ++i) {
                const auto& p = m.participants[m.calls[c].firstParticipant + i];
                joined[{p.rankIndex, p.streamIndex, p.eventIndex}] = {c, m.calls[c].firstParticipant + i};
            }
        }
        for (std::size_t r = 0; r < trace.ranks.size(); ++r) {
            for (std::size_t s = 0; s < trace.ranks[r].streams.size(); ++s) {
                const auto& ev = trace.ranks[r].streams[s].events;
                for (std::size_t i = 0; i < ev.size(); ++i) {
                    if (ev.kind(i) != EventKind::Collective) continue;
                    Kernel k{{ev.startNs(i), s, i}, {r, s, i}};
                    if (const auto it = joined.find({r, s, i}); it != joined.end()) {
                        k.call = static_cast<long long>(it->second.first);
                        k.participant = it->second.second;
                    }
                    ranks[r].push_back(k);
                }
            }
            std::sort(ranks[r].begin(), ranks[r].end(), [](const Kernel& a, const Kernel& b) { return a.key < b.key; });
        }
    }
};

// Every kernel's call and position, and the kernels of windows around and between them, as the oracle
// says. Returns how many kernels were checked.
std::size_t expectSameAnswers(const Trace& trace, const CollectiveMatching& m, const CollectiveLookup& lookup) {
    const Oracle oracle(trace, m);
    std::size_t checked = 0;
    for (std::size_t r = 0; r < oracle.ranks.size(); ++r) {
        const auto& list = oracle.ranks[r];
        for (std::size_t n = 0; n < list.size(); ++n) {
            const auto& k = list[n];
            const auto joined = lookup.callOf(trace, m, k.at);
            EXPECT_EQ(joined.has_value(), k.call >= 0) << "rank " << r << " kernel " << n;
            if (joined && k.call >= 0) {
                EXPECT_EQ(static_cast<long long>(joined->call), k.call) << "rank " << r << " kernel " << n;
                EXPECT_EQ(joined->participant, k.participant) << "rank " << r << " kernel " << n;
            }
            EXPECT_EQ(lookup.ordinalOf(trace, m, k.at), n) << "rank " << r << " kernel " << n;
            ++checked;
        }
        // Windows: each kernel's start to a later one's (and one past it), and a window before all.
        std::vector<std::int64_t> bounds;
        for (const auto& k : list) bounds.push_back(std::get<0>(k.key));
        bounds.push_back(bounds.empty() ? 0 : bounds.back() + 1);
        bounds.push_back(bounds.front() - 1000);
        for (std::size_t a = 0; a < bounds.size(); a += 1 + bounds.size() / 40) {
            for (std::size_t b = a; b < bounds.size(); b += 1 + bounds.size() / 15) {
                const std::int64_t t0 = bounds[a];
                const std::int64_t t1 = bounds[b] + (b % 2);
                std::vector<CollectiveKernelAt> want;
                for (const auto& k : list) {
                    if (std::get<0>(k.key) >= t0 && std::get<0>(k.key) < t1) want.push_back(k.at);
                }
                EXPECT_EQ(lookup.kernelsIn(trace, m, r, t0, t1), want)
                    << "rank " << r << " [" << t0 << ", " << t1 << ")";
            }
        }
    }
    return checked;
}

CollectiveMatching matchOf(const Trace& trace) {
    return matchCollectives(trace, segmentLayers(trace));
}

TEST(CollectiveLookup, AnswersAsAnIndexOfEveryKernelOnADecodeTrace) {
    const auto trace = test::makeDecodeTrace({.ranks = 4, .steps = 3, .layers = 30, .lateRank = 2, .lateByNs = 700});
    const auto m = matchOf(*trace);
    const CollectiveLookup lookup(*trace, m);
    ASSERT_GT(m.calls.size(), 2 * lookup.blockCalls());
    EXPECT_EQ(expectSameAnswers(*trace, m, lookup), m.participants.size());
    // Not a collective kernel, or out of range: no call.
    const auto& ev = trace->ranks[0].streams[0].events;
    std::size_t gemm = 0;
    while (gemm < ev.size() && ev.kind(gemm) == EventKind::Collective) ++gemm;
    ASSERT_LT(gemm, ev.size());
    EXPECT_FALSE(lookup.callOf(*trace, m, {0, 0, gemm}).has_value());
    EXPECT_FALSE(lookup.callOf(*trace, m, {0, 0, ev.size()}).has_value());
    EXPECT_FALSE(lookup.callOf(*trace, m, {9, 0, 0}).has_value());
    EXPECT_FALSE(lookup.callOf(*trace, m, {0, 99, 0}).has_value());
}

// 8 ranks on two streams each: two TP communicators of four ranks on stream 0 and one of all eight
// on stream 1, their calls in flight at once; ranks that skip calls (incomplete calls) and ranks
// that arrive far ahead (long waits), over many blocks of calls.
std::shared_ptr<const Trace> manyCommunicators(std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<std::int64_t> skew(0, 4000);
    std::uniform_int_distribution<int> pick(0, 40);
    auto trace = std::make_shared<Trace>();
    for (std::uint32_t r = 0; r < 8; ++r) {
        auto& rank = trace->rank(RankId{r});
        rank.stream(StreamId{7}, "tp");
        rank.stream(StreamId{9}, "dp");
    }
    const std::vector<std::string> names = {"tp0", "tp1", "dp"};
    std::int64_t t = 1'000'000;
    std::vector<std::int64_t> streamEnd(16, 0);  // per rank and stream: kernels of one stream never overlap
    for (int call = 0; call < 400; ++call) {
        const int comm = call % 3;
        for (std::uint32_t r = 0; r < 8; ++r) {
            if (comm < 2 && static_cast<int>(r / 4) != comm) continue;
            if (pick(rng) == 0) continue;  // this rank skips the call
            const std::size_t s = comm == 2 ? 1 : 0;
            std::int64_t start = t + skew(rng);
            if (pick(rng) == 1) start -= 60'000;  // far ahead: it waits long
            start = std::max(start, streamEnd[r * 2 + s]);
            const std::int64_t end = std::max(start + 500, t + 5000 + skew(rng));
            streamEnd[r * 2 + s] = end;
            auto& rank = trace->rank(RankId{r});
            auto& stream = rank.stream(StreamId{s == 0 ? 7u : 9u}, s == 0 ? "tp" : "dp");
            const PayloadId payload = trace->intern(
                Payload::of(CollectivePayload{.op = CollectiveOp::AllReduce,
                                              .groupSize = comm == 2 ? 8u : 4u,
                                              .communicator = trace->intern(names[static_cast<std::size_t>(comm)]),
                                              .bytes = 4096}));
            stream.events.append({start, end - start, trace->intern("ncclDevKernel_AllReduce_Sum_f16_RING_LL"),
                                  EventKind::Collective, 0, payload});
        }
        t += 2000 + skew(rng);
    }
    trace->finalize();
    return trace;
}

TEST(CollectiveLookup, AnswersAsAnIndexOfEveryKernelWithSeveralStreamsAndCommunicators) {
    for (const std::uint64_t seed : {1u, 2u, 3u}) {
        const auto trace = manyCommunicators(seed);
        const auto m = matchOf(*trace);
        ASSERT_GT(m.incompleteCalls, 0u);
        const CollectiveLookup lookup(*trace, m);
        ASSERT_GT(m.calls.size(), 3 * lookup.blockCalls());
        EXPECT_EQ(expectSameAnswers(*trace, m, lookup), m.participants.size()) << "seed " << seed;
    }
}

// A rank with a stream index past 16 bits: its kernel there joins no call but is counted and listed.
TEST(CollectiveLookup, KernelsTheMatchingLeftOutAreCountedAndListedWithoutACall) {
    const std::uint32_t last = kMaxParticipantIndex;
    auto trace = std::make_shared<Trace>();
    const NameId name = trace->intern("ncclDevKernel_AllReduce_Sum_f16_RING_LL");
    for (std::uint32_t r = 0; r < 2; ++r) {
        auto& rank = trace->rank(RankId{r});
        rank.streams.resize(last + 2);
        for (std::uint32_t s = 0; s < rank.streams.size(); ++s) rank.streams[s].id = StreamId{s};
        for (int k = 0; k < 3; ++k) {
            const std::int64_t at = k * 1000 + r * 10;
            rank.streams[last].events.append({at, 100, name, EventKind::Collective, 0, kNoPayload});
            // Left out: between the matched ones, and one at the same start (ordered after by stream).
            rank.streams[last + 1].events.append(
                {at + (k == 1 ? 0 : 500), 50, name, EventKind::Collective, 0, kNoPayload});
        }
    }
    trace->finalize();
    const auto m = matchOf(*trace);
    ASSERT_EQ(m.unmatchedKernels, 6u);
    const CollectiveLookup lookup(*trace, m);
    EXPECT_EQ(expectSameAnswers(*trace, m, lookup), 12u);
    EXPECT_FALSE(lookup.callOf(*trace, m, {0, last + 1, 0}).has_value());
    EXPECT_EQ(lookup.ordinalOf(*trace, m, {1, last, 2}), 4u);  // two matched and two left out before it
}

TEST(CollectiveLookup, AnswersAsAnIndexOfEveryKernelOnThePublicParamTrace) {
    constexpr const char* kParam = "param-dlrm_kineto-8rank";
    TPSCOPE_REQUIRE_PUBLIC(kParam);
    auto read = readTrace((test::publicTraces() / kParam).string());
    ASSERT_TRUE(read.ok()) << (read ? "" : read.error().describe());
    const Trace& trace = **read;
    const auto a = analyzeTrace(trace);
    const CollectiveLookup lookup(trace, a.matching);
    EXPECT_EQ(expectSameAnswers(trace, a.matching, lookup), a.matching.participants.size());
    EXPECT_GT(a.matching.participants.size(), 0u);
}

TEST(CollectiveLookup, HoldsAFewBytesABlockOfCalls) {
    const auto trace = manyCommunicators(4);
    const auto m = matchOf(*trace);
    const CollectiveLookup lookup(*trace, m);
    const std::size_t blocks = (m.calls.size() + lookup.blockCalls() - 1) / lookup.blockCalls();
    EXPECT_EQ(lookup.blockCalls(), 64u);  // 8 ranks
    EXPECT_EQ(lookup.residentBytes(), blocks * (8 + 8 * 4));
}

}  // namespace
}  // namespace tpscope::core::analysis
