// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Kernel time by class and the top names of a class (core/trace/kernel_time.h).

#include <gtest/gtest.h>

#include "core/trace/kernel_time.h"

namespace tpscope::core {
namespace {

void add(Trace& t, std::uint32_t rank, std::string_view name, EventKind kind, std::int64_t start, std::int64_t dur) {
    EventRecord e;
    e.startNs = start;
    e.durNs = dur;
    e.name = t.intern(name);
    e.kind = kind;
    t.rank(RankId{rank}).stream(StreamId{7}).events.append(e);
}

TEST(KernelTime, SharesAreOfKernelTimeWithoutCopies) {
    Trace t;
    add(t, 0, "gemm_a", EventKind::Gemm, 0, 300);
    add(t, 0, "mystery", EventKind::Other, 300, 100);
    add(t, 1, "mystery", EventKind::Other, 0, 50);
    add(t, 1, "odd", EventKind::Other, 50, 200);
    add(t, 1, "Memcpy HtoD", EventKind::Memcpy, 250, 1000);
    t.finalize();
    const KernelTime k = kernelTime(t);
    const std::int64_t kernels = 300 + 100 + 50 + 200;
    EXPECT_EQ(k.kernelNs, kernels);
    EXPECT_EQ(k.nsByKind[static_cast<std::size_t>(EventKind::Memcpy)], 1000);
    EXPECT_DOUBLE_EQ(k.share(EventKind::Other), (100.0 + 50.0 + 200.0) / static_cast<double>(kernels));
    EXPECT_DOUBLE_EQ(k.share(EventKind::Gemm), 300.0 / static_cast<double>(kernels));

    const auto top = topKernelNames(t, EventKind::Other, 5);
    ASSERT_EQ(top.size(), 2u);
    EXPECT_EQ(top[0].name, "odd");  // 200 ns > 100 + 50 ns
    EXPECT_EQ(top[0].ns, 200);
    EXPECT_EQ(top[1].name, "mystery");
    EXPECT_EQ(top[1].ns, 150);
    EXPECT_EQ(top[1].count, 2u);
    EXPECT_EQ(topKernelNames(t, EventKind::Other, 1).size(), 1u);
}

TEST(KernelTime, EmptyTraceHasNoShare) {
    const Trace t;
    EXPECT_EQ(kernelTime(t).share(EventKind::Other), 0.0);
    EXPECT_TRUE(topKernelNames(t, EventKind::Other, 3).empty());
}

}  // namespace
}  // namespace tpscope::core
