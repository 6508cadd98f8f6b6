// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// The timeline's rank headers state each rank's clock offset as core estimates it from the
// collectives (issue 17 §2, as `tpscope-cli info`): offsets injected into a 4-rank trace come back
// in the headers with their residual, and a rank without collectives says it was not estimated.

#include <gtest/gtest.h>

#include "core/analysis/clock_sync.h"
#include "core/util/units.h"
#include "ui/timeline/rank_clock_text.h"
#include "ui/timeline/timeline_data.h"
#include "ui/timeline/timeline_view.h"
#include "ui_test_support.h"

namespace tpscope::ui {
namespace {

// Four ranks on one clock running 6 all-reduces that end together, plus a fifth rank that only computes;
// then rank r's clock is moved by kInjected[r].
constexpr std::int64_t kInjected[] = {0, 1'500'000, -40'000'000, 7'000, 0};

std::shared_ptr<const core::Trace> tracewithOffsets() {
    std::vector<test::KernelSpec> compute, comm;
    for (int i = 0; i < 6; ++i) {
        compute.push_back({i * 20'000, 8'000, core::EventKind::Gemm, "gemm"});
        comm.push_back({i * 20'000 + 9'000, 4'000, core::EventKind::Collective, "ncclKernel_AllReduce"});
    }
    auto t = std::make_shared<core::Trace>(*test::makeTrace(4, compute, comm));
    auto& lone = t->rank(core::RankId{4});
    lone.stream(core::StreamId{7}, "compute");
    lone.streams[0].events.append({0, 5'000, t->intern("gemm"), core::EventKind::Gemm, 0, core::kNoPayload});
    t->finalize();
    for (std::size_t r = 0; r < t->ranks.size(); ++r) core::shiftRank(t->ranks[r], kInjected[r]);
    return t;
}

TEST(RankClockHeader, HeadersShowTheEstimatedOffsetsAndResiduals) {
    test::ensureApp();
    const auto trace = tracewithOffsets();
    ASSERT_EQ(trace->ranks.size(), 5u);
    const auto expected = core::analysis::estimateClockOffsets(*trace);
    ASSERT_EQ(expected.referenceRankIndex, 0);
    TimelineView view;
    view.resize(1200, 600);
    view.setTrace(trace);
    const auto& data = *view.renderer().scene().data;
    for (std::size_t r = 0; r < 4; ++r) {
        const auto& e = data.clock().ranks[r];
        ASSERT_TRUE(e.known) << r;
        EXPECT_EQ(e.offsetNs, expected.ranks[r].offsetNs);
        EXPECT_EQ(e.residualNs, expected.ranks[r].residualNs);
        // The correction undoes the injection (relative to rank 0) to within a few µs.
        EXPECT_LE(std::llabs(e.offsetNs + kInjected[r]), 5'000) << r;
        const QString header = view.renderer().rankSummaryText(static_cast<int>(r));
        if (r == 0) {
            EXPECT_TRUE(header.contains(QStringLiteral("clock reference"))) << header.toStdString();
            continue;
        }
        const QString offset = QString::fromStdString(
            core::formatDurationNs(static_cast<double>(e.offsetNs), core::DurationStyle::Detail));
        const QString residual =
            QString::fromStdString(core::formatDurationNs(e.residualNs, core::DurationStyle::Detail));
        EXPECT_TRUE(header.contains(QStringLiteral("clock offset ") +
                                    (e.offsetNs > 0 ? QStringLiteral("+") : QString()) + offset +
                                    QStringLiteral(" ± ") + residual))
            << header.toStdString();
        EXPECT_TRUE(header.contains(QStringLiteral("(%1 calls)").arg(e.calls))) << header.toStdString();
    }
    EXPECT_FALSE(data.clock().ranks[4].known);
    EXPECT_TRUE(
        view.renderer().rankSummaryText(4).contains(QStringLiteral("clock offset not estimated (no collectives)")))
        << view.renderer().rankSummaryText(4).toStdString();
}

TEST(RankClockHeader, ASingleRankTraceStatesNoClock) {
    test::ensureApp();
    TimelineView view;
    view.setTrace(test::makeTrace(1, {{0, 1000, core::EventKind::Gemm, "gemm"}}, {}));
    EXPECT_FALSE(view.renderer().rankSummaryText(0).contains(QStringLiteral("clock")));
}

TEST(RankClockHeader, ARankWithCollectivesButNoLinkGivesCoresReason) {
    core::analysis::ClockEstimate e;
    e.ranks.resize(2);
    e.ranks[1].rankIndex = 1;
    e.ranks[1].reason = "no collective shared with another rank";
    EXPECT_EQ(rankClockText(e, 1, true),
              QStringLiteral("clock offset not estimated (no collective shared with another rank)"));
}

}  // namespace
}  // namespace tpscope::ui
