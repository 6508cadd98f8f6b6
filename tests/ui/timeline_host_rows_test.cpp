// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Issue 26 §1: the timeline draws each rank's host row (Rank::hostThreads) above its GPU streams, so a
// launch-bound step shows the GPU waiting for its launches: hovering a launch call names the kernel
// it launched (by correlation id) and the idle it caused, a click selects that kernel, and a folded
// rank folds its host row too.

#include <QImage>
#include <QTest>

#include <gtest/gtest.h>

#include "compare_test_support.h"
#include "ui/timeline/event_details.h"
#include "ui/timeline/kind_palette.h"
#include "ui/timeline/time_ruler.h"
#include "ui/timeline/timeline_view.h"
#include "ui_test_support.h"

namespace tpscope::ui {
namespace {

struct TimelineHostRows : test::AppGuard, ::testing::Test {
    TimelineHostRows() {
        RunRequest request = test::smallRequest(8);
        request.batch = 1;
        request.runtime = core::sim::Runtime::PytorchEager;
        record = test::simulatedRecord(request);
        view.resize(1400, 900);
        view.setTrace(record.trace, record.timeline);
    }
    const TimelineRow* hostRow(int rank) const {
        for (const auto& row : view.layout().rows()) {
            if (row.kind == RowKind::Host && row.rank == rank) return &row;
        }
        return nullptr;
    }
    QPoint centre(const TimelineRow& row, std::int64_t startNs, std::int64_t endNs) const {
        const double x = (view.xForTime(startNs) + view.xForTime(endNs)) / 2.0;
        return QPoint(static_cast<int>(x), TimelineView::kRulerHeight + row.y + row.height / 2 - view.verticalOffset());
    }
    RunRecord record;
    TimelineView view;
};

TEST_F(TimelineHostRows, EachRankHasItsHostRowAboveItsStreams) {
    const auto& trace = *view.trace();
    ASSERT_EQ(trace.ranks.size(), 8u);
    for (std::size_t r = 0; r < trace.ranks.size(); ++r) {
        const TimelineRow* host = hostRow(static_cast<int>(r));
        ASSERT_NE(host, nullptr) << "rank " << r;
        EXPECT_EQ(host->sub, 0);
        for (const auto& row : view.layout().rows()) {
            if (row.rank == static_cast<int>(r) && row.kind == RowKind::Stream) {
                EXPECT_LT(host->y, row.y);
            }
        }
    }
    // A folded rank folds its host row with its streams.
    view.setRankCollapsed(3, true);
    EXPECT_EQ(hostRow(3), nullptr);
    EXPECT_NE(hostRow(2), nullptr);
    view.setRankCollapsed(3, false);
    EXPECT_NE(hostRow(3), nullptr);
}

TEST_F(TimelineHostRows, HoveringALaunchNamesItsKernelAndTheIdleItCaused) {
    const auto& trace = *view.trace();
    const auto& rank = trace.ranks[0];
    const auto& host = rank.hostThreads.at(0).events;
    const auto& kernels = rank.streams.at(0).events;
    // A launch in the second step whose kernel the GPU waited for (host_idle's rule, computed here
    // from the trace: the call ended after the previous kernel had).
    std::size_t launch = host.size();
    std::size_t kernel = 0;
    for (std::size_t k = kernels.size() / 2; k < kernels.size() && launch == host.size(); ++k) {
        for (std::size_t i = 0; i < host.size(); ++i) {
            if (host.correlationId(i) != kernels.correlationId(k)) continue;
            if (host.endNs(i) > kernels.endNs(k - 1) && kernels.startNs(k) > kernels.endNs(k - 1)) {
                launch = i;
                kernel = k;
            }
            break;
        }
    }
    ASSERT_LT(launch, host.size()) << "an eager TP 8 run of a small model waits for launches";
    // Zoomed to the launch and its kernel, each wide enough to aim at.
    view.setVisibleRange(host.startNs(launch) - 2'000, kernels.endNs(kernel) + 2'000);
    const TimelineRow* row = hostRow(0);
    ASSERT_NE(row, nullptr);
    const QPoint at = centre(*row, host.startNs(launch), host.endNs(launch));
    const TimelineHit hit = view.indexAt(at);
    ASSERT_TRUE(hit.isItem());
    EXPECT_EQ(hit.rowKind, RowKind::Host);
    EXPECT_EQ(hit.count, 1u);
    EXPECT_EQ(hit.hostThread, 0);
    EXPECT_EQ(hit.hostIndex, launch);
    // The tooltip keeps each value on one line: spaces are non-breaking.
    const auto nb = [](QString text) { return text.replace(QLatin1Char(' '), QStringLiteral("&nbsp;")); };
    const QString html = itemTooltipHtml(trace, *view.data(), hit, view.originNs());
    const std::string kernelName(trace.name(kernels.name(kernel)));
    EXPECT_TRUE(html.contains(nb(QString::fromStdString(kernelName).toHtmlEscaped()))) << html.toStdString();
    EXPECT_TRUE(html.contains(QStringLiteral("cudaLaunchKernel"))) << html.toStdString();
    const QString wait = formatDuration(static_cast<double>(kernels.startNs(kernel) - kernels.endNs(kernel - 1)));
    EXPECT_TRUE(html.contains(nb(wait + QStringLiteral(" waiting for this launch")))) << html.toStdString();
    // The kernel's own tooltip names its launch, and a click on the launch selects the kernel.
    const TimelineRow* stream = nullptr;
    for (const auto& r : view.layout().rows()) {
        if (r.kind == RowKind::Stream && r.rank == 0 && r.sub == 0) stream = &r;
    }
    ASSERT_NE(stream, nullptr);
    const TimelineHit kernelHit = view.indexAt(centre(*stream, kernels.startNs(kernel), kernels.endNs(kernel)));
    ASSERT_TRUE(kernelHit.isItem());
    EXPECT_EQ(kernelHit.event, (EventRef{0, 0, kernel}));
    EXPECT_TRUE(
        itemTooltipHtml(trace, *view.data(), kernelHit, view.originNs()).contains(nb(QStringLiteral("launched by"))));
    QTest::mouseClick(&view, Qt::LeftButton, Qt::NoModifier, at);
    EXPECT_EQ(view.selectedEvent(), (EventRef{0, 0, kernel}));
}

TEST_F(TimelineHostRows, TheHostRowIsPaintedInTheHostColour) {
    const TimelineRow* row = hostRow(0);
    ASSERT_NE(row, nullptr);
    QImage image(view.size(), QImage::Format_ARGB32);
    view.renderTo(image);
    const int y = TimelineView::kRulerHeight + row->y + row->height / 2 - view.verticalOffset();
    int hostPixels = 0;
    for (int x = view.timeAreaLeft(); x < image.width(); ++x) {
        const QColor c = image.pixelColor(x, y);
        hostPixels += c == hostCallColor() || c == foldedHostColor() ? 1 : 0;
    }
    // Zoomed out, the launches of an eager host fill most of its row (the host is the bottleneck).
    EXPECT_GT(hostPixels, view.timeAreaWidth() / 2);
}

}  // namespace
}  // namespace tpscope::ui
