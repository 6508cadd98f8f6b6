// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/timeline/timeline_view.h"

#include <QImage>
#include <QSignalSpy>
#include <QTest>

#include <gtest/gtest.h>

#include <array>
#include <random>
#include <stdexcept>
#include <utility>

#include "ui/jobs/sim_service.h"
#include "ui/timeline/event_details.h"
#include "ui/timeline/kind_palette.h"
#include "ui_test_support.h"

namespace tpscope::ui {
namespace {

using test::KernelSpec;

std::vector<KernelSpec> backToBack(int n, std::int64_t durNs, std::int64_t gapNs) {
    static const core::EventKind kinds[] = {core::EventKind::Gemm, core::EventKind::Elementwise,
                                            core::EventKind::Attention};
    static const char* names[] = {"gemm", "norm", "attn"};
    std::vector<KernelSpec> out;
    for (int i = 0; i < n; ++i) out.push_back({i * (durNs + gapNs), durNs, kinds[i % 3], names[i % 3]});
    return out;
}

const TimelineRow& streamRow(const TimelineView& view, int rank, int stream) {
    for (const auto& row : view.layout().rows()) {
        if (row.kind == RowKind::Stream && row.rank == rank && row.sub == stream) return row;
    }
    throw std::runtime_error("no such row");
}

QPoint pointOf(const TimelineView& view, const TimelineRow& row, std::int64_t startNs, std::int64_t endNs) {
    const double x = (view.xForTime(startNs) + view.xForTime(endNs)) / 2.0;
    return QPoint(static_cast<int>(x), TimelineView::kRulerHeight + row.y + row.height / 2 - view.verticalOffset());
}

struct TimelineFixture : test::AppGuard, ::testing::Test {
    TimelineFixture() { view.resize(1200, 500); }
    TimelineView view;
};

TEST_F(TimelineFixture, HitTestingMapsPixelsToTheRightKernelAtSeveralZooms) {
    const auto compute = backToBack(50, 10'000, 2'000);
    view.setTrace(test::makeTrace(2, compute, {}));
    const auto& trace = *view.trace();
    const std::vector<std::pair<std::int64_t, std::int64_t>> ranges = {
        {view.viewStartNs(), view.viewEndNs()}, {0, 100'000}, {20'000, 30'000}, {47'000, 49'000}};
    for (const auto& [t0, t1] : ranges) {
        view.setVisibleRange(t0, t1);
        int checked = 0;
        for (int r = 0; r < 2; ++r) {
            const auto& row = streamRow(view, r, 0);
            const auto& ev = trace.ranks[static_cast<std::size_t>(r)].streams[0].events;
            for (std::size_t i = 0; i < ev.size(); ++i) {
                if (ev.endNs(i) <= t0 || ev.startNs(i) >= t1) continue;
                const std::int64_t s = std::max(ev.startNs(i), t0), e = std::min(ev.endNs(i), t1);
                if (view.xForTime(e) - view.xForTime(s) < 4) continue;  // too narrow to aim at its middle
                const TimelineHit hit = view.indexAt(pointOf(view, row, s, e));
                ASSERT_TRUE(hit.isItem()) << "kernel " << i << " in view " << t0 << ".." << t1;
                EXPECT_EQ(hit.event, (EventRef{r, 0, i}));
                EXPECT_EQ(hit.count, 1u);
                EXPECT_EQ(hit.kind, ev.kind(i));
                ++checked;
            }
        }
        EXPECT_GT(checked, 0);
    }
    // The gap between two kernels 2 us wide at 10 ns per pixel hits nothing.
    view.setVisibleRange(0, 12'000);
    const auto& row = streamRow(view, 0, 0);
    EXPECT_FALSE(view.indexAt(pointOf(view, row, 10'500, 11'500)).isItem());
}

TEST_F(TimelineFixture, ZoomedOutHitReturnsTheLongestKernelOfTheFoldedRun) {
    view.setTrace(test::makeTrace(1, backToBack(5000, 1'000, 100), {}));
    view.setVisibleRange(0, 5000 * 1100 * 20);  // ~100 kernels per pixel
    const auto& row = streamRow(view, 0, 0);
    const TimelineHit hit = view.indexAt(pointOf(view, row, 1'000'000, 1'000'001));
    ASSERT_TRUE(hit.isItem());
    EXPECT_GT(hit.count, 1u);
    const auto* spans = view.spansOfRow(hit.row);
    ASSERT_NE(spans, nullptr);
    bool inside = false;
    for (const auto& s : *spans) {
        inside = inside || (hit.event.index >= s.firstIndex && hit.event.index < s.firstIndex + s.count &&
                            s.startNs == hit.startNs);
    }
    EXPECT_TRUE(inside);
}

TEST_F(TimelineFixture, LevelOfDetailDrawsAtMostOneItemPerPixelColumnPerRow) {
    std::mt19937_64 rng(3);
    std::lognormal_distribution<double> dur(7.0, 1.5);
    std::vector<KernelSpec> kernels;
    std::int64_t t = 0;
    for (int i = 0; i < 100'000; ++i) {
        const auto d = std::max<std::int64_t>(1, static_cast<std::int64_t>(dur(rng)));
        kernels.push_back({t, d, static_cast<core::EventKind>(i % core::kEventKindCount), "k"});
        t += d + static_cast<std::int64_t>(rng() % 2000);
    }
    view.setTrace(test::makeTrace(3, kernels, {}));
    for (const std::int64_t span : {t, t / 50, t / 5000}) {
        view.setVisibleRange(t / 3, t / 3 + span);
        const auto& g = view.geometry();
        std::size_t rects = 0;
        for (const auto& batch : g.batches) rects += static_cast<std::size_t>(batch.size());
        EXPECT_GE(rects, g.itemCount);  // a folded item is stacked: one rectangle per kind in it
        ASSERT_FALSE(g.rows.empty());
        for (std::size_t slot = 0; slot < g.rows.size(); ++slot) {
            const auto& spans = g.spans[slot];
            EXPECT_LE(spans.size(), static_cast<std::size_t>(view.timeAreaWidth()));
            std::int64_t previous = -1;
            for (const auto& s : spans) {
                const auto column = std::max<std::int64_t>(
                    0, core::pixelColumn(s.startNs, view.viewStartNs(), view.viewEndNs(), view.timeAreaWidth()));
                EXPECT_GT(column, previous);
                previous = column;
            }
        }
    }
}

TEST_F(TimelineFixture, RangeSelectionStatisticsEqualSumsComputedFromTheTrace) {
    RunRequest req;
    req.model = core::ModelSpec{"tiny", "tiny", 1024, 4096, 16, 4, 64, 4, 32000, "test"};
    req.tp = 2;
    req.tokens = 2;
    req.gpu.id = "g";
    req.gpu.hbmBytesPerSec = 2e12;
    req.gpu.memoryBytes = 80ull << 30;
    req.gpu.fp16Flops = 300e12;
    req.fabric.id = "f";
    req.fabric.busbwBytesPerSec = 100e9;
    req.fabric.baseLatencyNs = 5000;
    auto trace = test::simulateRun(req);
    ASSERT_TRUE(trace.ok()) << trace.error().describe();
    view.setTrace(*trace);
    const std::int64_t a = (*trace)->startNs(), b = (*trace)->endNs();
    const std::int64_t t0 = a + (b - a) / 5, t1 = a + (b - a) * 3 / 5;
    QSignalSpy spy(&view, &TimelineView::rangeSelectionChanged);
    view.selectRange(t1, t0);  // reversed on purpose: the view orders the ends
    EXPECT_EQ(spy.count(), 1);
    const auto& stats = view.rangeStats();
    ASSERT_EQ(stats.ranks.size(), 2u);
    for (std::size_t r = 0; r < 2; ++r) {
        std::array<std::int64_t, core::kEventKindCount> expected{};
        for (const auto& s : (*trace)->ranks[r].streams) {
            for (std::size_t i = 0; i < s.events.size(); ++i) {
                const std::int64_t clipped = std::min(s.events.endNs(i), t1) - std::max(s.events.startNs(i), t0);
                if (clipped > 0) expected[static_cast<std::size_t>(s.events.kind(i))] += clipped;
            }
        }
        EXPECT_EQ(stats.ranks[r].kindNs, expected) << "rank " << r;
        EXPECT_GT(expected[static_cast<std::size_t>(core::EventKind::Collective)], 0);
    }
}

TEST_F(TimelineFixture, ClickingACollectiveLinksTheSameCallOnEveryRankWithItsWait) {
    const std::int64_t shift = 1'000;
    view.setTrace(
        test::makeTrace(4, backToBack(3, 10'000, 0),
                        {{30'000, 20'000, core::EventKind::Collective, "ncclDevKernel_AllReduce_Sum_f16_RING_LL"},
                         {60'000, 20'000, core::EventKind::Collective, "ncclDevKernel_AllReduce_Sum_f16_RING_LL"}},
                        shift));
    view.setVisibleRange(0, 100'000);
    const auto& row = streamRow(view, 2, 1);
    const auto& ev = view.trace()->ranks[2].streams[1].events;
    QSignalSpy spy(&view, &TimelineView::selectionChanged);
    QTest::mouseClick(&view, Qt::LeftButton, {}, pointOf(view, row, ev.startNs(1), ev.endNs(1)));
    EXPECT_EQ(spy.count(), 1);
    EXPECT_EQ(view.selectedEvent(), (EventRef{2, 1, 1}));
    const auto& match = view.selectedMatch();
    ASSERT_TRUE(match.has_value());
    EXPECT_EQ(match->ordinal, 1u);
    ASSERT_EQ(match->members.size(), 4u);
    EXPECT_EQ(match->skewNs, 3 * shift);
    for (std::size_t r = 0; r < 4; ++r) {
        EXPECT_EQ(match->members[r].waitNs, static_cast<std::int64_t>(3 - r) * shift);
    }
    // Every rank ends at 80 us; the last arrives at 63 us.
    EXPECT_EQ(match->transferNs, 80'000 - (60'000 + 3 * shift));
    const double algbw = static_cast<double>(1 << 20) / (static_cast<double>(match->transferNs) * 1e-9);
    EXPECT_NEAR(match->busbwBytesPerSec, algbw * 2.0 * 3 / 4, 1.0);

    // Painted: rank 0 waited 3 us for rank 3. Along the kernel's top edge (clear of its label) the
    // wait is washed out and hatched, the transfer that follows keeps the solid collective colour.
    QImage image;
    view.renderTo(image);
    const auto& row0 = streamRow(view, 0, 1);
    const int y = TimelineView::kRulerHeight + row0.y + 4;
    const QRgb solid = kindColor(core::EventKind::Collective).rgb();
    const auto solidShare = [&](std::int64_t t0, std::int64_t t1) {
        const int x0 = static_cast<int>(view.xForTime(t0)) + 3, x1 = static_cast<int>(view.xForTime(t1)) - 3;
        int n = 0;
        for (int x = x0; x < x1; ++x) n += (image.pixel(x, y) & 0xFFFFFF) == (solid & 0xFFFFFF);
        return static_cast<double>(n) / (x1 - x0);
    };
    EXPECT_LT(solidShare(60'000, 63'000), 0.05);
    EXPECT_GT(solidShare(63'000, 80'000), 0.9);
}

TEST_F(TimelineFixture, ClickOnARankHeaderCollapsesItsLanes) {
    view.setTrace(test::makeTrace(2, backToBack(3, 10'000, 0), {{30'000, 5'000, core::EventKind::Collective, "nccl"}}));
    const std::size_t before = view.layout().rows().size();
    const auto& header = view.layout().rows()[0];
    ASSERT_EQ(header.kind, RowKind::RankHeader);
    QTest::mouseClick(&view, Qt::LeftButton, {}, QPoint(20, TimelineView::kRulerHeight + header.y + 5));
    EXPECT_TRUE(view.rankCollapsed(0));
    // The header and both streams fold into one summary lane over the exposed strip.
    const auto& rows = view.layout().rows();
    EXPECT_EQ(rows.size(), before - 2);
    EXPECT_EQ(rows[0].kind, RowKind::Summary);
    EXPECT_EQ(rows[1].kind, RowKind::Exposed);
    EXPECT_EQ(rows[1].rank, 0);
    EXPECT_EQ(rows[2].kind, RowKind::RankHeader);
    // A click on the lane's GPU label expands the rank again.
    QTest::mouseClick(&view, Qt::LeftButton, {}, QPoint(20, TimelineView::kRulerHeight + rows[0].y + 3));
    EXPECT_FALSE(view.rankCollapsed(0));
    EXPECT_EQ(view.layout().rows().size(), before);
    view.setAllRanksCollapsed(true);
    view.setAllRanksCollapsed(false);
    EXPECT_EQ(view.layout().rows().size(), before);
}

// Issue 31: above 16 ranks the timeline opens folded, one lane per rank, so that an NVL72 domain
// (72 GPUs) fits on one 1080-line screen; 16 ranks open expanded. Any rank expands on its own.
TEST_F(TimelineFixture, MoreThanSixteenRanksOpenFoldedOneLanePerRank) {
    const auto kernels = backToBack(6, 10'000, 0);
    const std::vector<KernelSpec> comm = {{60'000, 5'000, core::EventKind::Collective, "nccl"}};
    view.setTrace(test::makeTrace(16, kernels, comm));
    EXPECT_FALSE(view.rankCollapsed(0));
    EXPECT_FALSE(view.rankCollapsed(15));

    view.setTrace(test::makeTrace(72, kernels, comm));
    const auto& rows = view.layout().rows();
    int lanes = 0;
    for (int r = 0; r < 72; ++r) EXPECT_TRUE(view.rankCollapsed(r)) << r;
    for (const auto& row : rows) {
        EXPECT_NE(row.kind, RowKind::RankHeader);
        EXPECT_NE(row.kind, RowKind::Stream);
        lanes += row.kind == RowKind::Summary ? 1 : 0;
    }
    EXPECT_EQ(lanes, 72);
    const RowHeights& h = view.layout().heights();
    EXPECT_EQ(view.layout().contentHeight(), 72 * (h.summary + h.foldedExposed + h.foldedGap));
    // 890 px of a 1080-line screen: the rest is the window title, menus, tabs, run table and status bar.
    EXPECT_LE(view.layout().contentHeight() + TimelineView::kRulerHeight, 900);

    // The lane shows the rank's kernels (stacked by kind when zoomed out) and its exposed strip.
    view.resize(1200, 1000);
    const QImage image = view.grab().toImage();
    const auto& lane = rows[2 * 40];
    ASSERT_EQ(lane.kind, RowKind::Summary);
    ASSERT_EQ(lane.rank, 40);
    int kernelPixels = 0;
    for (int x = view.timeAreaLeft(); x < view.width(); ++x) {
        const QRgb c = image.pixel(x, TimelineView::kRulerHeight + lane.y + lane.height / 2 - view.verticalOffset());
        for (const auto kind : {core::EventKind::Gemm, core::EventKind::Elementwise, core::EventKind::Attention}) {
            kernelPixels += c == kindColor(kind).rgb() || c == foldedColor(kind).rgb() ? 1 : 0;
        }
    }
    EXPECT_GT(kernelPixels, 100);

    // The label's tooltip carries what a header band would say.
    const QString tip = view.toolTipAt(QPoint(20, TimelineView::kRulerHeight + lane.y + 2 - view.verticalOffset()));
    EXPECT_TRUE(tip.contains(QStringLiteral("kernels"))) << tip.toStdString();
    EXPECT_TRUE(tip.contains(QString::fromStdString(view.trace()->ranks[40].deviceName))) << tip.toStdString();

    const std::size_t folded = rows.size();
    QTest::mouseClick(&view, Qt::LeftButton, {}, QPoint(20, TimelineView::kRulerHeight + lane.y + 2));
    EXPECT_TRUE(!view.rankCollapsed(40) && view.rankCollapsed(39) && view.rankCollapsed(41));
    // Rank 40 gets its header and two streams; its exposed strip stays, full height.
    EXPECT_EQ(view.layout().rows().size(), folded + 2);
}

TEST_F(TimelineFixture, WheelZoomKeepsTheTimeUnderTheCursorAndKeysZoomAndPan) {
    view.setTrace(test::makeTrace(1, backToBack(100, 10'000, 0), {}));
    view.setVisibleRange(0, 1'000'000);
    const int x = view.timeAreaLeft() + 300;
    const std::int64_t under = view.timeForX(x);
    QWheelEvent wheel(QPointF(x, 100), view.mapToGlobal(QPointF(x, 100)), QPoint(), QPoint(0, 120), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(&view, &wheel);
    EXPECT_LT(view.viewEndNs() - view.viewStartNs(), 1'000'000);
    EXPECT_NEAR(static_cast<double>(view.timeForX(x)), static_cast<double>(under), 1'000.0);

    const std::int64_t span = view.viewEndNs() - view.viewStartNs();
    QTest::keyClick(&view, Qt::Key_S);
    EXPECT_GT(view.viewEndNs() - view.viewStartNs(), span);
    const std::int64_t start = view.viewStartNs();
    QTest::keyClick(&view, Qt::Key_D);
    EXPECT_GT(view.viewStartNs(), start);
    QTest::keyClick(&view, Qt::Key_A);
    EXPECT_EQ(view.viewStartNs(), start);
    QTest::keyClick(&view, Qt::Key_F);
    EXPECT_LE(view.viewStartNs(), 0);
    EXPECT_GE(view.viewEndNs(), 1'000'000);
}

TEST_F(TimelineFixture, DraggingOnTheRulerSelectsARangeWithCoreStatistics) {
    view.setTrace(
        test::makeTrace(2, backToBack(60, 10'000, 2'000), {{100'000, 30'000, core::EventKind::Collective, "nccl"}}));
    view.setVisibleRange(0, 200'000);
    const int y = TimelineView::kRulerHeight / 2;
    const QPoint from(static_cast<int>(view.xForTime(50'000)), y), to(static_cast<int>(view.xForTime(150'000)), y);
    QTest::mousePress(&view, Qt::LeftButton, {}, from);
    QMouseEvent move(QEvent::MouseMove, QPointF(to), view.mapToGlobal(QPointF(to)), Qt::NoButton, Qt::LeftButton,
                     Qt::NoModifier);
    QApplication::sendEvent(&view, &move);
    QTest::mouseRelease(&view, Qt::LeftButton, {}, to);
    ASSERT_TRUE(view.hasSelectedRange());
    EXPECT_EQ(view.selectedRangeStartNs(), view.timeForX(from.x()));
    EXPECT_EQ(view.selectedRangeEndNs(), view.timeForX(to.x()));
    const auto expected = core::rangeStats(*view.trace(), view.selectedRangeStartNs(), view.selectedRangeEndNs());
    ASSERT_EQ(view.rangeStats().ranks.size(), expected.ranks.size());
    for (std::size_t r = 0; r < expected.ranks.size(); ++r) {
        EXPECT_EQ(view.rangeStats().ranks[r].kindNs, expected.ranks[r].kindNs);
        EXPECT_EQ(view.rangeStats().ranks[r].kindCount, expected.ranks[r].kindCount);
    }
    // The view did not pan while the range was dragged.
    EXPECT_EQ(view.viewStartNs(), 0);
}

TEST_F(TimelineFixture, TooltipOfACollectiveNamesItsDurationBytesBandwidthAndWait) {
    view.setTrace(test::makeTrace(
        4, backToBack(3, 10'000, 0),
        {{60'000, 20'000, core::EventKind::Collective, "ncclDevKernel_AllReduce_Sum_f16_RING_LL"}}, 1'000));
    view.setVisibleRange(0, 100'000);
    const auto& ev = view.trace()->ranks[0].streams[1].events;
    const TimelineHit hit = view.indexAt(pointOf(view, streamRow(view, 0, 1), ev.startNs(0), ev.endNs(0)));
    ASSERT_TRUE(hit.isItem());
    const QString html = itemTooltipHtml(*view.trace(), *view.data(), hit, view.originNs());
    EXPECT_TRUE(html.contains(QStringLiteral("ncclDevKernel_AllReduce_Sum_f16_RING_LL")));
    EXPECT_TRUE(html.contains(QStringLiteral("20.00&nbsp;µs")));  // duration of rank 0's kernel
    EXPECT_TRUE(html.contains(QStringLiteral("1.00&nbsp;MiB")));  // bytes
    EXPECT_TRUE(html.contains(QStringLiteral("busbw")));
    EXPECT_TRUE(html.contains(QStringLiteral("3.00&nbsp;µs")));  // wait: rank 3 arrives 3 us later
}

// NVTX rows read the trace's ranges (no copy of them): hovering a range finds it in its depth's row
// and the tooltip names it, with its start and span.
TEST_F(TimelineFixture, HoveringAnNvtxRangeNamesItAndItsSpan) {
    auto trace = std::make_shared<core::Trace>(*test::makeTrace(1, backToBack(10, 10'000, 0), {}));
    const core::NameId step = trace->intern("decode step"), layer = trace->intern("layer 7");
    const core::NameId attn = trace->intern("attention block"), mlp = trace->intern("mlp block");
    trace->ranks[0].ranges = {{0, 100'000, step, 0},    {0, 50'000, layer, 1},       {0, 20'000, attn, 2},
                              {20'000, 50'000, mlp, 2}, {50'000, 100'000, layer, 1}, {50'000, 70'000, attn, 2},
                              {70'000, 100'000, mlp, 2}};
    trace->finalize();
    view.setTrace(trace);
    view.setVisibleRange(0, 100'000);
    const TimelineRow* blocks = nullptr;
    for (const auto& row : view.layout().rows()) {
        if (row.kind == RowKind::Nvtx && row.rank == 0 && row.sub == 2) blocks = &row;
    }
    ASSERT_NE(blocks, nullptr);
    const TimelineHit hit = view.indexAt(pointOf(view, *blocks, 20'000, 50'000));
    ASSERT_TRUE(hit.isItem());
    EXPECT_EQ(hit.rowKind, RowKind::Nvtx);
    EXPECT_EQ(hit.nvtxIndex, 1u);  // the second range of depth 2
    EXPECT_EQ(hit.startNs, 20'000);
    EXPECT_EQ(hit.endNs, 50'000);
    const QString html = itemTooltipHtml(*view.trace(), *view.data(), hit, view.originNs());
    EXPECT_TRUE(html.contains(QStringLiteral("mlp block"))) << html.toStdString();
    EXPECT_TRUE(html.contains(QStringLiteral("30.00&nbsp;µs"))) << html.toStdString();  // its span
    const TimelineHit last = view.indexAt(pointOf(view, *blocks, 70'000, 100'000));
    ASSERT_TRUE(last.isItem());
    EXPECT_EQ(last.nvtxIndex, 3u);
    EXPECT_TRUE(
        itemTooltipHtml(*view.trace(), *view.data(), last, view.originNs()).contains(QStringLiteral("mlp block")));
}

// Step 0, layer 0 and the first block all start at 0 and are each the first of their depth's row: the
// tooltip names the range of the row hovered, not the first depth whose range has that index and start.
TEST_F(TimelineFixture, HoveringAnNvtxRangeNamesTheHoveredRowsRangeWhenDepthsStartTogether) {
    auto trace = std::make_shared<core::Trace>(*test::makeTrace(1, backToBack(10, 10'000, 0), {}));
    const core::NameId step = trace->intern("decode step"), layer = trace->intern("layer 7");
    const core::NameId attn = trace->intern("attention block");
    trace->ranks[0].ranges = {{0, 100'000, step, 0}, {0, 50'000, layer, 1}, {0, 20'000, attn, 2}};
    trace->finalize();
    view.setTrace(trace);
    view.setVisibleRange(0, 100'000);
    const std::array<std::pair<int, const char*>, 3> expected{
        {{0, "decode step"}, {1, "layer 7"}, {2, "attention block"}}};
    for (const auto& [depth, name] : expected) {
        const TimelineRow* hovered = nullptr;
        for (const auto& row : view.layout().rows()) {
            if (row.kind == RowKind::Nvtx && row.rank == 0 && row.sub == depth) hovered = &row;
        }
        ASSERT_NE(hovered, nullptr) << depth;
        const auto& range = trace->ranks[0].ranges[static_cast<std::size_t>(depth)];
        const TimelineHit hit = view.indexAt(pointOf(view, *hovered, range.startNs, range.endNs));
        ASSERT_TRUE(hit.isItem()) << depth;
        ASSERT_EQ(hit.nvtxIndex, 0u) << depth;
        const QString html = itemTooltipHtml(*view.trace(), *view.data(), hit, view.originNs());
        EXPECT_TRUE(html.contains(QLatin1String(name))) << depth << " " << html.toStdString();
        for (const auto& [other, otherName] : expected) {
            if (other != depth) {
                EXPECT_FALSE(html.contains(QLatin1String(otherName))) << depth << " " << otherName;
            }
        }
    }
}

TEST_F(TimelineFixture, ZoomToSelectionShowsTheSelectedRange) {
    view.setTrace(test::makeTrace(1, backToBack(100, 10'000, 0), {}));
    view.selectRange(200'000, 300'000);
    ASSERT_TRUE(view.zoomToSelection());
    EXPECT_LE(view.viewStartNs(), 200'000);
    EXPECT_GE(view.viewEndNs(), 300'000);
    EXPECT_LT(view.viewEndNs() - view.viewStartNs(), 130'000);
}

}  // namespace
}  // namespace tpscope::ui
