// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/util/parallel_for.h"

#include <gtest/gtest.h>

#include <atomic>
#include <new>
#include <stdexcept>
#include <vector>

namespace tpscope::core {
namespace {

TEST(ParallelFor, RunsEveryIndexExactlyOnce) {
    for (const unsigned threads : {0u, 1u, 2u, 5u, 64u}) {
        std::vector<std::atomic<int>> hits(37);
        parallelFor(hits.size(), threads, [&](std::size_t i) { ++hits[i]; });
        for (std::size_t i = 0; i < hits.size(); ++i) EXPECT_EQ(hits[i].load(), 1) << "threads " << threads;
    }
}

TEST(ParallelFor, NoItemsRunsNothing) {
    int calls = 0;
    parallelFor(0, 4, [&](std::size_t) { ++calls; });
    EXPECT_EQ(calls, 0);
}

TEST(ParallelFor, ThreadCountIsCappedByTheItems) {
    EXPECT_EQ(resolveThreadCount(8, 3), 3u);
    EXPECT_EQ(resolveThreadCount(2, 8), 2u);
    EXPECT_EQ(resolveThreadCount(4, 0), 1u);
    EXPECT_GE(resolveThreadCount(0, 1000), 1u);
}

TEST(ParallelFor, AnExceptionInABodyReachesTheCaller) {
    for (const unsigned threads : {1u, 3u}) {
        EXPECT_THROW(parallelFor(10, threads,
                                 [](std::size_t i) {
                                     if (i == 4) throw std::bad_alloc();
                                 }),
                     std::bad_alloc)
            << "threads " << threads;
    }
}

}  // namespace
}  // namespace tpscope::core
