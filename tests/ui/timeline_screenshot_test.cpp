// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Screenshots a person can look at: the timeline on a simulated TP-4 decode, zoomed out and on
// two layers with one all-reduce selected. Written to <build>/screenshots/.

#include <QImage>

#include <gtest/gtest.h>

#include "core/hw/catalog.h"
#include "ui/jobs/sim_service.h"
#include "ui/timeline/timeline_view.h"
#include "ui_test_support.h"

namespace tpscope::ui {
namespace {

std::shared_ptr<const core::Trace> simulatedTp4() {
    auto catalog = core::Catalog::builtin();
    EXPECT_TRUE(catalog.ok());
    RunRequest req;
    req.model = *catalog->model("llama3-8b");
    req.gpu = *catalog->gpu("h100-sxm");
    req.fabric = *catalog->fabric("nvlink4");
    req.tp = 4;
    req.batch = 8;
    req.tokens = 2;
    auto trace = test::simulateRun(req);
    EXPECT_TRUE(trace.ok());
    return *trace;
}

TEST(TimelineScreenshot, WritesZoomedOutAndLayerViews) {
    test::ensureApp();
    TimelineView view;
    view.resize(1400, 760);
    view.setTrace(simulatedTp4());
    QImage image;
    view.renderTo(image);
    EXPECT_TRUE(image.save(test::screenshotDir() + "/timeline-fit.png"));

    // Two layers of the first step, with the first layer's MLP all-reduce of rank 1 selected.
    const auto& data = *view.data();
    ASSERT_GT(data.ranks()[0].nvtx.size(), 1u);
    const core::NvtxDepthRow layers = data.ranks()[0].nvtxRow(view.trace()->ranks[0], 1);
    ASSERT_GT(layers.size(), 3u);
    view.setVisibleRange(layers.startNs(1) - 2'000, layers.endNs(2) + 2'000);
    const auto calls = data.collectivesIn(*view.trace(), 1, view.trace()->startNs(), view.trace()->endNs());
    ASSERT_GT(calls.size(), 3u);
    view.selectEvent(calls[3]);
    ASSERT_TRUE(view.selectedMatch().has_value());
    view.renderTo(image);
    EXPECT_TRUE(image.save(test::screenshotDir() + "/timeline-layers.png"));
}

}  // namespace
}  // namespace tpscope::ui
