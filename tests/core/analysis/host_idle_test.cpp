// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// attributeIdleToHost (host_idle.h) on hand-built ranks: each kernel's gap and launch end chosen so
// that the launch waits follow from the header's rule, with dense correlation ids (the table) and
// sparse ones (the sorted list), on one thread and on several.

#include <gtest/gtest.h>

#include <cstdint>

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
