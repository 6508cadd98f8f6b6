// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// What a trace shows: launch-bound steps named with their idle share, and a single-rank trace's
// all-reduce share and bus bandwidth against the fabric's bound. Expected values from the fixture.

#include <gtest/gtest.h>

#include <cmath>

#include "core/analysis/analysis.h"
#include "trace_builder_fixtures.h"

namespace tpscope::core::analysis {
namespace {

TEST(TraceFindings, StepIdleMostOfTheTimeIsCalledLaunchBoundWithItsIdleShare) {
    test::TraceBuilder b;
    // Step 0: 2 µs of kernels in 10 µs (80 % idle). Step 1: 9 µs of kernels in 10 µs.
    b.step(0, 0, 0, 10'000).gemm(0, 0, 1'000).gemm(0, 5'000, 6'000);
    b.step(0, 1, 10'000, 20'000).gemm(0, 10'000, 19'000);
    const auto t = b.build();
    const auto a = analyzeTrace(*t);
    ASSERT_EQ(a.findings.size(), 1u);
    const auto& f = a.findings[0];
    EXPECT_EQ(f.kind, FindingKind::LaunchBound);
    EXPECT_DOUBLE_EQ(f.value, 8'000.0 / 10'000.0);
    ASSERT_EQ(f.steps.size(), 1u);
    EXPECT_EQ(f.steps[0], 0);
    EXPECT_NE(f.text.find("80 %"), std::string::npos) << f.text;
    EXPECT_NE(f.text.find("CUDA graph"), std::string::npos);
}

TEST(TraceFindings, BusyStepsGiveNoLaunchBoundFinding) {
    test::TraceBuilder b;
    b.step(0, 0, 0, 10'000).gemm(0, 0, 9'000);
    EXPECT_TRUE(analyzeTrace(*b.build()).findings.empty());
}

TEST(TraceFindings, SingleRankGivesAllReduceShareAndBusbwAgainstTheFabric) {
    test::TraceBuilder b;
    const std::uint64_t bytes = 1 << 20;
    b.gemm(0, 0, 3'000).collective(0, 3'000, 4'000, bytes, CollectiveOp::AllReduce, test::kComputeStream, "tp", 8);
    const auto t = b.build();
    AnalysisOptions o;
    o.findings.fabricBusbwBytesPerSec = 100e9;
    o.findings.fabricId = "nvlink-test";
    const auto a = analyzeTrace(*t, o);
    const TraceFinding* f = nullptr;
    for (const auto& x : a.findings) {
        if (x.kind == FindingKind::SingleRankCollectives) f = &x;
    }
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->communicatorSize, 8u);
    EXPECT_DOUBLE_EQ(f->value, 1'000.0 / 4'000.0);
    const double busbw = static_cast<double>(bytes) / 1e-6 * 2.0 * 7.0 / 8.0;
    EXPECT_NEAR(f->busbwBytesPerSec, busbw, busbw * 1e-12);
    EXPECT_DOUBLE_EQ(f->fabricBusbwBytesPerSec, 100e9);
    EXPECT_NE(f->text.find("8-rank communicator"), std::string::npos) << f->text;
    EXPECT_NE(f->text.find("nvlink-test"), std::string::npos);
}

TEST(TraceFindings, SeveralRanksGiveNoSingleRankFinding) {
    test::TraceBuilder b;
    b.gemm(0, 0, 3'000).allReduce(0, 3'000, 4'000, 1024);
    b.gemm(1, 0, 3'000).allReduce(1, 3'000, 4'000, 1024);
    for (const auto& f : analyzeTrace(*b.build()).findings) EXPECT_NE(f.kind, FindingKind::SingleRankCollectives);
}

}  // namespace
}  // namespace tpscope::core::analysis
