// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// StepMasks (step_masks.h): a step measured as the sum of its layers and the gaps between them equals
// the step swept whole, mask by mask, on random coverage lists; steps whose layers do not tile them
// are swept whole.

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <random>
#include <vector>

#include "core/analysis/interval_union.h"
#include "core/analysis/step_masks.h"

namespace tpscope::core::analysis {
namespace {

// A disjoint sorted list of intervals in [0, horizon), lengths and gaps drawn at random.
std::vector<Interval> randomList(std::mt19937& rng, std::int64_t horizon) {
    std::vector<Interval> out;
    std::int64_t t = static_cast<std::int64_t>(rng() % 50);
    while (t < horizon) {
        const std::int64_t len = 1 + static_cast<std::int64_t>(rng() % 40);
        out.push_back({t, std::min(t + len, horizon)});
        t += len + 1 + static_cast<std::int64_t>(rng() % 60);
    }
    return out;
}

struct Fixture {
    std::vector<StepWindow> steps;
    std::vector<LayerWindow> layers;
};

// Steps of 1,000 ns with gaps between them; inside each, layers of random length in order, with gaps.
Fixture tiledSteps(std::mt19937& rng, int stepCount) {
    Fixture f;
    std::int64_t t = 100;
    for (int s = 0; s < stepCount; ++s) {
        const StepWindow step{s, t, t + 1000};
        f.steps.push_back(step);
        std::int64_t l = step.startNs + static_cast<std::int64_t>(rng() % 30);
        for (int i = 0; l < step.endNs - 60; ++i) {
            const std::int64_t len = 20 + static_cast<std::int64_t>(rng() % 80);
            f.layers.push_back({s, i, l, std::min(l + len, step.endNs)});
            l += len + static_cast<std::int64_t>(rng() % 3) * 7;  // some layers touch, some leave a gap
        }
        t = step.endNs + static_cast<std::int64_t>(rng() % 200);
    }
    return f;
}

// Measures every layer with one sweep (as the breakdown does) and every step through StepMasks with
// another; each step must equal the step swept whole.
void expectStepsEqualWholeSweeps(const Fixture& f, const std::array<std::vector<Interval>, 3>& lists,
                                 std::size_t expectedTiled) {
    const std::array<std::span<const Interval>, 3> spans{lists[0], lists[1], lists[2]};
    const LayerWindows layers(f.layers);
    StepMasks steps(f.steps, layers);
    CoverageSweep layerSweep(spans);
    for (std::size_t i = 0; i < f.layers.size(); ++i) {
        steps.addLayer(i, layerSweep.measure({f.layers[i].startNs, f.layers[i].endNs}));
    }
    EXPECT_EQ(steps.tiledSteps(), expectedTiled);
    CoverageSweep stepSweep(spans);
    for (std::size_t s = 0; s < f.steps.size(); ++s) {
        const auto got = steps.measure(s, stepSweep);
        const auto want = measureLists(spans, {f.steps[s].startNs, f.steps[s].endNs});
        EXPECT_EQ(got, want) << "step " << s;
        std::int64_t total = 0;
        for (const auto v : got) total += v;
        EXPECT_EQ(total, f.steps[s].endNs - f.steps[s].startNs) << "step " << s;
    }
}

TEST(StepMasks, ATiledStepEqualsTheStepSweptWhole) {
    std::mt19937 rng(11);
    for (int trial = 0; trial < 20; ++trial) {
        const Fixture f = tiledSteps(rng, 6);
        const std::int64_t horizon = f.steps.back().endNs + 100;
        const std::array<std::vector<Interval>, 3> lists{randomList(rng, horizon), randomList(rng, horizon),
                                                         randomList(rng, horizon)};
        expectStepsEqualWholeSweeps(f, lists, f.steps.size());
    }
}

TEST(StepMasks, StepsWhoseLayersDoNotTileThemAreSweptWhole) {
    std::mt19937 rng(5);
    Fixture f = tiledSteps(rng, 5);
    // Step 1: a layer reaching past the step's end. Step 3: a layer overlapping the one before it.
    // A layer before step 4 that reaches into it. A layer between steps, touching none.
    auto lastOf = [&](std::int64_t step) {
        std::size_t i = 0;
        for (std::size_t k = 0; k < f.layers.size(); ++k) {
            if (f.layers[k].step == step) i = k;
        }
        return i;
    };
    f.layers[lastOf(1)].endNs = f.steps[1].endNs + 5;
    f.layers[lastOf(3)].startNs = f.layers[lastOf(3) - 1].endNs - 3;
    f.layers.push_back({9, 0, f.steps[4].startNs - 10, f.steps[4].startNs + 10});
    f.layers.push_back({9, 1, f.steps[2].endNs, f.steps[2].endNs + 1});
    std::stable_sort(f.layers.begin(), f.layers.end(),
                     [](const LayerWindow& a, const LayerWindow& b) { return a.startNs < b.startNs; });
    const std::int64_t horizon = f.steps.back().endNs + 100;
    const std::array<std::vector<Interval>, 3> lists{randomList(rng, horizon), randomList(rng, horizon),
                                                     randomList(rng, horizon)};
    expectStepsEqualWholeSweeps(f, lists, 2);  // steps 0 and 2
}

TEST(StepMasks, OverlappingStepsAreAllSweptWhole) {
    std::mt19937 rng(3);
    Fixture f = tiledSteps(rng, 3);
    f.steps[1].startNs = f.steps[0].endNs - 1;
    const std::int64_t horizon = f.steps.back().endNs + 100;
    const std::array<std::vector<Interval>, 3> lists{randomList(rng, horizon), randomList(rng, horizon),
                                                     randomList(rng, horizon)};
    expectStepsEqualWholeSweeps(f, lists, 0);
}

}  // namespace
}  // namespace tpscope::core::analysis
