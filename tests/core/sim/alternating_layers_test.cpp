// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Issue 43 §3: a model whose layers alternate sliding-window and full attention (gpt-oss, Gemma 2/3)
// repeats its kernel sequence every two layers. Simulated with its NVTX ranges stripped, at TP 1 (no
// collective closes a block) and TP 8, its layers found are the simulator's own: the two-layer unit
// is split, never halved.

#include <gtest/gtest.h>

#include <set>

#include "core/analysis/layer_segmentation.h"
#include "sim_test_support.h"

namespace tpscope::test {
namespace {

using core::analysis::SegmentationSource;

std::shared_ptr<core::Trace> alternatingModel(int tp, bool graphs, int layers) {
    auto config = simConfig("llama3-8b", "h100-sxm", "nvlink4", tp, 1, 3);
    config.plan.model.layers = layers;
    config.plan.model.attentionPattern = {core::LayerAttention::Sliding, core::LayerAttention::Full};
    config.plan.model.slidingWindow = 128;
    config.params = core::sim::SimParams::deterministic();
    config.params.cudaGraphs = graphs;
    auto r = core::sim::simulate(config);
    EXPECT_TRUE(r) << r.error().describe();
    return r ? std::const_pointer_cast<core::Trace>(r->trace) : nullptr;
}

// Distinct attention kernel names of a trace: the two layer kinds run two kernels.
std::set<std::string> attentionNames(const core::Trace& t) {
    std::set<std::string> out;
    for (const auto& s : t.ranks.at(0).streams) {
        for (std::size_t i = 0; i < s.events.size(); ++i) {
            if (s.events.kind(i) == core::EventKind::Attention) out.emplace(t.name(s.events.name(i)));
        }
    }
    return out;
}

struct Case {
    int tp;
    bool graphs;
};

class AlternatingLayers : public ::testing::TestWithParam<Case> {};

TEST_P(AlternatingLayers, LayersWithoutNvtxAreTheSimulatorsLayers) {
    for (const int layers : {4, 5, 6, 36}) {
        const auto trace = alternatingModel(GetParam().tp, GetParam().graphs, layers);
        ASSERT_TRUE(trace);
        EXPECT_EQ(attentionNames(*trace).size(), 2u);
        const auto withNvtx = core::analysis::segmentLayers(*trace);
        const auto found = core::analysis::segmentLayers(withoutNvtx(*trace));
        ASSERT_EQ(found.ranks.size(), withNvtx.ranks.size());
        for (std::size_t r = 0; r < found.ranks.size(); ++r) {
            const auto& want = withNvtx.ranks[r];
            const auto& got = found.ranks[r];
            ASSERT_EQ(want.source, SegmentationSource::Nvtx);
            ASSERT_EQ(want.layers.size(), static_cast<std::size_t>(3 * layers));  // 3 tokens
            EXPECT_NE(got.source, SegmentationSource::None);
            ASSERT_EQ(got.layers.size(), want.layers.size())
                << "rank " << r << ", " << layers << " layers, " << toString(got.source);
            for (std::size_t i = 0; i < want.layers.size(); ++i) {
                EXPECT_EQ(got.layers[i].layer, want.layers[i].layer) << "rank " << r << " layer " << i;
                EXPECT_EQ(got.layers[i].step, want.layers[i].step) << "rank " << r << " layer " << i;
                if (got.source == SegmentationSource::Repeat) {
                    EXPECT_EQ(got.layers[i].startNs, want.layers[i].startNs) << "rank " << r << " layer " << i;
                    EXPECT_EQ(got.layers[i].endNs, want.layers[i].endNs) << "rank " << r << " layer " << i;
                }
            }
            // The repeating unit spans two layers, whichever rule gave the layers.
            EXPECT_EQ(got.repeatLayersPerUnit, 2u) << "rank " << r;
        }
    }
}

INSTANTIATE_TEST_SUITE_P(TpAndReplay, AlternatingLayers,
                         ::testing::Values(Case{1, false}, Case{1, true}, Case{8, false}, Case{8, true}),
                         [](const ::testing::TestParamInfo<Case>& p) {
                             return "tp" + std::to_string(p.param.tp) + (p.param.graphs ? "_graph" : "_eager");
                         });

TEST(AlternatingLayers, TheNotesSayTheUnitWasSplitAndWhy) {
    const auto trace = alternatingModel(1, false, 6);
    ASSERT_TRUE(trace);
    const auto found = core::analysis::segmentLayers(withoutNvtx(*trace));
    bool said = false;
    for (const auto& n : found.notes) said = said || n.find("holds 2 layers") != std::string::npos;
    EXPECT_TRUE(said);
}

}  // namespace
}  // namespace tpscope::test
