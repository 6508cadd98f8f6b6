// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Issue 43 §4: what the analysis could not place, said first (core/analysis/understanding.h): over
// 20 % of kernel time "other", no layers, the batch assumed; each with the flag that fixes it.

#include <gtest/gtest.h>

#include <algorithm>

#include "core/analysis/analysis.h"
#include "tests/synthetic_trace.h"

namespace tpscope::test {
namespace {

using core::analysis::GapKind;

bool has(const core::analysis::Understanding& u, GapKind kind) {
    return std::any_of(u.gaps.begin(), u.gaps.end(), [&](const auto& g) { return g.kind == kind; });
}

TEST(Understanding, AKnownBatchAndClassedLayersAreUnderstood) {
    auto trace = makeSyntheticTrace({});
    trace->metadata.emplace_back("batch", "8");
    const auto a = core::analysis::analyzeTrace(*trace);
    EXPECT_TRUE(a.understanding.understood()) << a.understanding.headline();
    EXPECT_TRUE(a.understanding.headline().empty());
    EXPECT_DOUBLE_EQ(a.understanding.otherShare, 0.0);
}

TEST(Understanding, AnAssumedBatchIsAGapWithItsFlag) {
    const auto a = core::analysis::analyzeTrace(*makeSyntheticTrace({}));
    ASSERT_FALSE(a.summary.batchKnown);
    EXPECT_TRUE(has(a.understanding, GapKind::BatchAssumed));
    EXPECT_FALSE(has(a.understanding, GapKind::NoLayers));
    EXPECT_NE(a.understanding.headline().find("--batch N"), std::string::npos);
}

TEST(Understanding, UnclassedKernelsAndNoLayersAreGapsWithTheTopNames) {
    // One rank, one stream: kernels no rule classes, no NVTX, no collective, nothing repeating.
    core::Trace t;
    auto& stream = t.rank(core::RankId{0}).stream(core::StreamId{7});
    const char* names[] = {"mystery_kernel_a", "mystery_kernel_b", "sm90_xmma_gemm_bf16"};
    const std::int64_t durations[] = {500, 300, 100};
    for (int i = 0; i < 3; ++i) {
        core::EventRecord e;
        e.name = t.intern(names[i]);
        e.kind = i == 2 ? core::EventKind::Gemm : core::EventKind::Other;
        e.startNs = i * 1000;
        e.durNs = durations[i];
        stream.events.append(e);
    }
    t.metadata.emplace_back("batch", "1");
    t.finalize();
    const auto a = core::analysis::analyzeTrace(t);
    const auto& u = a.understanding;
    EXPECT_DOUBLE_EQ(u.otherShare, 800.0 / 900.0);
    EXPECT_TRUE(has(u, GapKind::OtherKernels));
    EXPECT_TRUE(has(u, GapKind::NoLayers));
    EXPECT_FALSE(has(u, GapKind::BatchAssumed));
    ASSERT_EQ(u.topOther.size(), 2u);
    EXPECT_EQ(u.topOther[0].name, "mystery_kernel_a");  // most time first
    EXPECT_EQ(u.topOther[0].ns, 500);
    EXPECT_NE(u.headline().find("--kernel-rules"), std::string::npos);
    EXPECT_NE(u.headline().find("--layers-per-step"), std::string::npos);
    EXPECT_NE(u.headline().find("mystery_kernel_a"), std::string::npos);
}

}  // namespace
}  // namespace tpscope::test
