// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// attributeIdleToHost (host_idle.h) on hand-built ranks: each kernel's gap and launch end chosen so
// that the launch waits follow from the header's rule, with dense correlation ids (the table) and
// sparse ones (the sorted list), on one thread and on several; and on random ranks against the rule
// written out plainly (a map of each id's first launch call), where the ids rise along the launch
// thread and the streams (the walk) or stop rising somewhere (the walk gives up: the lookup).

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <vector>

#include "core/analysis/host_idle.h"
#include "core/trace/trace.h"

namespace tpscope::core::analysis {
namespace {

struct Expected {
    std::int64_t gapNs = 0;
    std::int64_t launchWaitNs = 0;
    std::size_t kernels = 0;
    std::size_t launchBound = 0;
};

// Rank r: `n` kernels of 100 ns on one stream, kernel i starting at 1000 i (a 900 ns gap before each
// but the first). Kernel i's launch call ends 950 ns after the previous kernel ended (late: a launch
// wait) when i % 3 == 0, 10 ns before it ended otherwise (early). Every fifth kernel has no launch
// call. Correlation ids are `first + stride * i`; a second launch call of the same id, later, must
// not count (the first one is kept). Kernel i is launched from host thread 1 + i % `threads` (each
// thread's calls are found through their position among the rank's host events). Without `repeats`
// and from one thread, the ids rise along the launch thread and the stream (the walk, no lookup).
Expected addRank(Trace& trace, std::uint32_t r, std::size_t n, std::uint32_t first, std::uint32_t stride,
                 std::size_t threads = 1, bool repeats = true) {
    Rank& rank = trace.rank(RankId{r});
    auto& stream = rank.stream(StreamId{7}, "compute");
    for (std::size_t t = 1; t <= threads; ++t) rank.hostThread(t, "launch thread");
    const auto host = [&](std::size_t i) -> EventColumns& { return rank.hostThread(1 + i % threads).events; };
    const NameId kernel = trace.intern("gemm");
    const NameId launch = trace.intern("cudaLaunchKernel");
    Expected e;
    for (std::size_t i = 0; i < n; ++i) {
        const auto id = static_cast<std::uint32_t>(first + stride * i);
        const std::int64_t start = 1000 * static_cast<std::int64_t>(i);
        stream.events.append({start, 100, kernel, EventKind::Gemm, id, kNoPayload});
        const std::int64_t previousEnd = start - 900;
        const bool late = i % 3 == 0;
        if (i % 5 != 4) {
            const std::int64_t launchEnd = late ? previousEnd + 950 : previousEnd - 10;
            host(i).append({launchEnd - 20, 20, launch, EventKind::Other, id, kNoPayload});
            ++e.kernels;
            if (i > 0 && late) {
                e.launchWaitNs += 900;
                ++e.launchBound;
            }
        }
        if (i > 0) e.gapNs += 900;
    }
    // Later calls repeating the ids of early launches: they would turn those launches late.
    for (std::size_t i = 1; repeats && i < n; i += 3) {
        if (i % 5 == 4) continue;  // no first call to repeat
        host(i).append({1000 * static_cast<std::int64_t>(n) + 10 * static_cast<std::int64_t>(i), 5, launch,
                        EventKind::Other, static_cast<std::uint32_t>(first + stride * i), kNoPayload});
    }
    return e;
}

void expectIdle(const HostIdle& got, const Expected& want) {
    EXPECT_TRUE(got.hostRows);
    EXPECT_EQ(got.gapNs, want.gapNs);
    EXPECT_EQ(got.launchWaitNs, want.launchWaitNs);
    EXPECT_EQ(got.kernels, want.kernels);
    EXPECT_EQ(got.launchBoundKernels, want.launchBound);
}

TEST(HostIdle, DenseAndSparseCorrelationIdsGiveTheRuleOnAnyThreadCount) {
    Trace trace;
    Expected sum;
    const auto add = [&](const Expected& e) {
        sum.gapNs += e.gapNs;
        sum.launchWaitNs += e.launchWaitNs;
        sum.kernels += e.kernels;
        sum.launchBound += e.launchBound;
    };
    add(addRank(trace, 0, 300, 1, 1));               // dense: a table
    add(addRank(trace, 1, 300, 5000, 2));            // dense with holes
    add(addRank(trace, 2, 300, 100, 1'000'000));     // sparse: the sorted list
    add(addRank(trace, 3, 40, 4'000'000'000u, 7));   // ids near the 32-bit end
    add(addRank(trace, 5, 300, 1, 1, 3));            // dense, launched from three host threads
    add(addRank(trace, 6, 300, 100, 1'000'000, 2));  // sparse, from two
    // Ids rising along one launch thread and the stream (no repeated call): walked, no lookup built.
    add(addRank(trace, 7, 300, 1, 1, 1, false));
    add(addRank(trace, 8, 300, 100, 1'000'000, 1, false));
    // Last, a rank with kernels whose ids rank 0's table holds but no host row: a worker reuses its
    // lookup from rank to rank, and nothing of an earlier rank may count here (no gap, no kernel).
    auto& orphan = trace.rank(RankId{4}).stream(StreamId{7}, "compute");
    for (std::uint32_t i = 0; i < 50; ++i) {
        orphan.events.append({1000 * std::int64_t{i}, 100, trace.intern("gemm"), EventKind::Gemm, 1 + i, kNoPayload});
    }
    trace.finalize();
    ASSERT_GT(sum.launchWaitNs, 0);
    ASSERT_LT(sum.launchWaitNs, sum.gapNs);
    for (const unsigned threads : {1u, 2u, 3u, 0u}) {
        SCOPED_TRACE(threads);
        expectIdle(attributeIdleToHost(trace, threads), sum);
    }
}

// The header's rule written out plainly: per rank, each id's first launch call (host threads in order)
// in a map, then each stream's gaps.
HostIdle plainRule(const Trace& trace) {
    HostIdle out;
    for (const Rank& rank : trace.ranks) {
        std::map<std::uint32_t, std::int64_t> launchEnd;
        for (const auto& thread : rank.hostThreads) {
            for (std::size_t i = 0; i < thread.events.size(); ++i) {
                const std::uint32_t id = thread.events.correlationId(i);
                if (id != 0) launchEnd.try_emplace(id, thread.events.endNs(i));
            }
        }
        if (launchEnd.empty()) continue;
        out.hostRows = true;
        for (const auto& stream : rank.streams) {
            const auto& ev = stream.events;
            std::int64_t freeAt = 0;
            for (std::size_t i = 0; i < ev.size(); ++i) {
                const auto it = launchEnd.find(ev.correlationId(i));
                const bool launched = ev.correlationId(i) != 0 && it != launchEnd.end();
                if (i > 0 && ev.startNs(i) > freeAt) {
                    out.gapNs += ev.startNs(i) - freeAt;
                    if (launched && it->second > freeAt) {
                        out.launchWaitNs += ev.startNs(i) - freeAt;
                        ++out.launchBoundKernels;
                    }
                }
                if (launched) ++out.kernels;
                freeAt = i == 0 ? ev.endNs(i) : std::max(freeAt, ev.endNs(i));
            }
        }
    }
    return out;
}

// Where a random rank's ids stop rising (or what else keeps it off the walk).
enum class Break { None, StreamSwap, LaunchSwap, LaunchRepeatLate, LaunchRepeatEarly, SecondLaunchThread, NoLaunch };

// Events i and i + 1, i at random, trade correlation ids.
void swapNeighbourIds(EventColumns& ev, std::mt19937_64& rng) {
    if (ev.size() < 2) return;
    const std::size_t at = static_cast<std::size_t>(rng() % (ev.size() - 1));
    EventColumns swapped;
    for (std::size_t i = 0; i < ev.size(); ++i) {
        EventRecord e = ev.at(i);
        if (i == at) e.correlationId = ev.correlationId(i + 1);
        if (i == at + 1) e.correlationId = ev.correlationId(at);
        swapped.append(e);
    }
    ev = swapped;
}

// A random rank: one launch thread whose calls get rising ids (with gaps), calls without an id between
// them, kernels on 1 to 3 streams launched in order (each stream's ids rise), some kernels without a
// call, some calls without a kernel, kernels that overlap; then the break asked for.
void addRandomRank(Trace& trace, std::uint32_t r, Break brk, std::mt19937_64& rng) {
    Rank& rank = trace.rank(RankId{r});
    const auto pick = [&](std::uint64_t n) { return static_cast<std::int64_t>(rng() % n); };
    const std::size_t streamCount = 1 + static_cast<std::size_t>(pick(3));
    for (std::size_t s = 0; s < streamCount; ++s) rank.stream(StreamId{static_cast<std::uint32_t>(7 + s)}, "s");
    auto& launches = rank.hostThread(1, "launch thread").events;
    const NameId kernel = trace.intern("gemm");
    const NameId call = trace.intern("cudaLaunchKernel");
    std::vector<std::int64_t> streamStart(streamCount, 0);
    std::vector<std::uint32_t> uncalled;  // ids of kernels without a call
    std::int64_t hostAt = 0;
    std::uint32_t id = 1 + static_cast<std::uint32_t>(pick(1000));
    const std::size_t n = 100 + static_cast<std::size_t>(pick(400));
    for (std::size_t k = 0; k < n; ++k) {
        hostAt += 1 + pick(3000);
        if (pick(6) == 0) launches.append({hostAt, 1 + pick(50), call, EventKind::Other, 0, kNoPayload});
        id += 1 + static_cast<std::uint32_t>(pick(4) == 0 ? pick(5) : 0);
        const std::int64_t launchEnd = hostAt + 20 + pick(2000);
        const bool hasCall = pick(8) != 0;
        if (hasCall) launches.append({hostAt, launchEnd - hostAt, call, EventKind::Other, id, kNoPayload});
        if (pick(10) == 0) continue;  // a call that launched nothing on a stream
        const auto s = static_cast<std::size_t>(pick(static_cast<std::uint64_t>(streamCount)));
        const std::int64_t start = std::max(streamStart[s] + pick(100), launchEnd + pick(3000) - 1000);
        streamStart[s] = start;
        const std::uint32_t kernelId = pick(12) == 0 ? 0 : id;
        rank.streams[s].events.append({start, 1 + pick(4000), kernel, EventKind::Gemm, kernelId, kNoPayload});
        if (!hasCall && kernelId != 0) uncalled.push_back(kernelId);
    }
    switch (brk) {
        case Break::None:
        case Break::NoLaunch:
            break;
        case Break::StreamSwap:  // two kernels of a stream change ids: no longer rising there
            swapNeighbourIds(rank.streams[0].events, rng);
            break;
        case Break::LaunchSwap:  // two calls change ids: a kernel's call comes after a higher id
            swapNeighbourIds(launches, rng);
            break;
        case Break::LaunchRepeatLate:  // a later call repeats an early id (the first call counts)
            launches.append(
                {hostAt + 10, 5, call, EventKind::Other, id - static_cast<std::uint32_t>(pick(n / 2)), kNoPayload});
            // and the only call of a kernel comes last, past every call a stream's walk reads
            if (!uncalled.empty()) {
                launches.append({hostAt + 20, 5, call, EventKind::Other,
                                 uncalled[static_cast<std::size_t>(pick(uncalled.size()))], kNoPayload});
            }
            break;
        case Break::LaunchRepeatEarly: {  // a call early on repeats an id a few calls back
            EventColumns repeated;
            const std::size_t at = 2 + static_cast<std::size_t>(pick(launches.size() / 4 + 1));
            for (std::size_t i = 0; i < launches.size(); ++i) {
                repeated.append(launches.at(i));
                if (i == at) {
                    EventRecord e = launches.at(i);
                    e.correlationId = launches.correlationId(i - 2) != 0 ? launches.correlationId(i - 2) : 1;
                    repeated.append(e);
                }
            }
            launches = repeated;
            break;
        }
        case Break::SecondLaunchThread:
            rank.hostThread(2, "second").events.append({5, 10, call, EventKind::Other, id / 2 + 1, kNoPayload});
            break;
    }
    if (brk == Break::NoLaunch) {
        EventColumns bare;
        for (std::size_t i = 0; i < launches.size(); ++i) {
            EventRecord e = launches.at(i);
            e.correlationId = 0;
            bare.append(e);
        }
        launches = bare;
    }
}

TEST(HostIdle, RandomRanksFollowThePlainRuleWhereverTheIdsStopRising) {
    const Break breaks[] = {Break::None,
                            Break::StreamSwap,
                            Break::LaunchSwap,
                            Break::LaunchRepeatLate,
                            Break::LaunchRepeatEarly,
                            Break::SecondLaunchThread,
                            Break::NoLaunch};
    std::mt19937_64 rng(31);
    for (int round = 0; round < 40; ++round) {
        SCOPED_TRACE(round);
        Trace trace;
        for (std::uint32_t r = 0; r < 4; ++r) {
            // Rising ranks most often, so that a worker walks after a rank that took the lookup.
            const Break brk = rng() % 2 == 0 ? Break::None : breaks[rng() % std::size(breaks)];
            addRandomRank(trace, r, brk, rng);
        }
        trace.finalize();
        const HostIdle want = plainRule(trace);
        ASSERT_GT(want.kernels, 0u);
        for (const unsigned threads : {1u, 2u}) {
            SCOPED_TRACE(threads);
            const HostIdle got = attributeIdleToHost(trace, threads);
            EXPECT_EQ(got.hostRows, want.hostRows);
            expectIdle(got, {want.gapNs, want.launchWaitNs, want.kernels, want.launchBoundKernels});
        }
    }
}

TEST(HostIdle, NoHostRowsOrNoCorrelatedLaunchIsNotAHostRow) {
    Trace trace;
    Rank& rank = trace.rank(RankId{0});
    rank.stream(StreamId{7}, "compute").events.append({0, 100, trace.intern("k"), EventKind::Gemm, 1, kNoPayload});
    rank.hostThread(1, "python").events.append({0, 10, trace.intern("op"), EventKind::Other, 0, kNoPayload});
    trace.finalize();
    EXPECT_FALSE(attributeIdleToHost(trace).hostRows);
    EXPECT_EQ(attributeIdleToHost(trace).gapNs, 0);
}

}  // namespace
}  // namespace tpscope::core::analysis
