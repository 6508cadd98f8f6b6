// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/util/parallel_for.h"

#include <gtest/gtest.h>

#include <algorithm>
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

// Each worker's scratch is used by one thread at a time and only ever by that worker: an item
// records which scratch object it got (at most one per worker) and checks nobody else is inside it.
TEST(ParallelForWithScratch, EachItemRunsOnceWithItsWorkersOwnScratch) {
    struct Scratch {
        std::atomic<int> inside{0};
    };
    for (const unsigned threads : {1u, 2u, 4u}) {
        std::vector<std::atomic<int>> hits(53);
        std::vector<const Scratch*> servedBy(hits.size(), nullptr);
        std::atomic<int> overlaps{0};
        parallelForWithScratch<Scratch>(hits.size(), threads, [&](std::size_t i, Scratch& scratch) {
            if (scratch.inside.fetch_add(1) != 0) ++overlaps;
            ++hits[i];
            servedBy[i] = &scratch;
            scratch.inside.fetch_sub(1);
        });
        EXPECT_EQ(overlaps.load(), 0) << "threads " << threads;
        std::vector<const Scratch*> distinct;
        for (std::size_t i = 0; i < hits.size(); ++i) {
            EXPECT_EQ(hits[i].load(), 1) << "threads " << threads;
            if (std::find(distinct.begin(), distinct.end(), servedBy[i]) == distinct.end()) {
                distinct.push_back(servedBy[i]);
            }
        }
        // The pointers are only compared: the scratch objects are gone once the call returns.
        EXPECT_LE(distinct.size(), resolveThreadCount(threads, hits.size())) << "threads " << threads;
    }
}

TEST(ParallelForWithScratch, OneThreadReusesOneScratchForEveryItem) {
    std::vector<const int*> seen;
    std::vector<int> counts;  // the scratch's value as each item left it
    parallelForWithScratch<int>(5, 1, [&](std::size_t, int& scratch) {
        ++scratch;
        seen.push_back(&scratch);
        counts.push_back(scratch);
    });
    ASSERT_EQ(seen.size(), 5u);
    for (const int* p : seen) EXPECT_EQ(p, seen.front());
    EXPECT_EQ(counts, (std::vector<int>{1, 2, 3, 4, 5}));
}

TEST(ParallelForWithScratch, AnExceptionInABodyReachesTheCaller) {
    EXPECT_THROW(parallelForWithScratch<std::vector<int>>(10, 3,
                                                          [](std::size_t i, std::vector<int>&) {
                                                              if (i == 6) throw std::bad_alloc();
                                                          }),
                 std::bad_alloc);
}

}  // namespace
}  // namespace tpscope::core
