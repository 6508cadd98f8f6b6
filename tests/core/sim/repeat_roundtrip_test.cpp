// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Issue 27 §1: a simulated trace with its NVTX ranges stripped is segmented by the repeating kernel
// sequence, and the layers found are the simulator's own (its NVTX layer ranges), exactly: same count,
// same index, same start and end, at TP 1 and TP 8, eager and CUDA-graph replay.

#include <gtest/gtest.h>

#include "core/analysis/layer_segmentation.h"
#include "sim_test_support.h"

namespace tpscope::test {
namespace {

using core::analysis::LayerWindow;
using core::analysis::SegmentationSource;

struct Case {
    int tp;
    bool graphs;
    int batch;
};

// The catalog's Llama-3 8B with `layers` layers.
std::shared_ptr<core::Trace> simulated(const Case& c, int layers) {
    return simulatedLayers("llama3-8b", c.tp, c.batch, c.graphs, layers);
}

class RepeatRoundTrip : public ::testing::TestWithParam<Case> {};

TEST_P(RepeatRoundTrip, LayersWithoutNvtxEqualTheSimulatorsLayers) {
    for (const int layers : {2, 4, 7}) {
        const auto trace = simulated(GetParam(), layers);
        ASSERT_TRUE(trace);
        const auto withNvtx = core::analysis::segmentLayers(*trace);
        const core::Trace stripped = withoutNvtx(*trace);
        const auto found = core::analysis::segmentLayers(stripped);
        ASSERT_EQ(found.ranks.size(), withNvtx.ranks.size());
        for (std::size_t r = 0; r < found.ranks.size(); ++r) {
            const auto& want = withNvtx.ranks[r];
            const auto& got = found.ranks[r];
            ASSERT_EQ(want.source, SegmentationSource::Nvtx);
            EXPECT_EQ(got.source, SegmentationSource::Repeat) << "rank " << r;
            ASSERT_EQ(want.layers.size(), static_cast<std::size_t>(3 * layers));  // 3 tokens
            ASSERT_EQ(got.layers.size(), want.layers.size()) << "rank " << r << ", " << layers << " layers";
            for (std::size_t i = 0; i < want.layers.size(); ++i) {
                const LayerWindow& w = want.layers[i];
                const LayerWindow& g = got.layers[i];
                EXPECT_EQ(g.layer, w.layer) << "rank " << r << " layer " << i;
                EXPECT_EQ(g.step, w.step) << "rank " << r << " layer " << i;
                EXPECT_EQ(g.startNs, w.startNs) << "rank " << r << " layer " << i;
                EXPECT_EQ(g.endNs, w.endNs) << "rank " << r << " layer " << i;
            }
            EXPECT_EQ(got.steps.size(), want.steps.size());
        }
        EXPECT_FALSE(found.notes.empty());
    }
}

INSTANTIATE_TEST_SUITE_P(TpAndReplay, RepeatRoundTrip,
                         ::testing::Values(Case{1, false, 1}, Case{1, true, 1}, Case{8, false, 1}, Case{8, true, 1},
                                           Case{8, false, 8}),
                         [](const ::testing::TestParamInfo<Case>& p) {
                             return "tp" + std::to_string(p.param.tp) + (p.param.graphs ? "_graph" : "_eager") +
                                    "_batch" + std::to_string(p.param.batch);
                         });

TEST(RepeatRoundTrip, PatternSettingsGivenByTheUserOverrideTheRepeatRule) {
    const auto trace = simulated({1, false, 1}, 4);
    ASSERT_TRUE(trace);
    const core::Trace stripped = withoutNvtx(*trace);
    core::analysis::SegmentationOptions o;
    o.patternOnly = true;
    const auto seg = core::analysis::segmentLayers(stripped, o);
    EXPECT_EQ(seg.ranks.at(0).source, SegmentationSource::Pattern);
    EXPECT_TRUE(seg.ranks.at(0).layers.empty());  // TP 1: no collective closes a block
}

}  // namespace
}  // namespace tpscope::test
