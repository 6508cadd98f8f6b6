// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// The timeline as a reusable piece (issue 10, part 3): views that share one TimeAxis stay aligned,
// the widget-free renderer exports the visible range to PNG (device-pixel ratio respected) and SVG,
// and the overview shows the mix of kinds rather than the dominant one.

#include <QBuffer>
#include <QFile>
#include <QImage>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

#include <gtest/gtest.h>

#include "core/analysis/collective_matching.h"
#include "ui/timeline/kind_palette.h"
#include "ui/timeline/timeline_panel.h"
#include "ui/timeline/timeline_view.h"
#include "ui_test_support.h"

namespace tpscope::ui {
namespace {

using test::KernelSpec;

std::vector<KernelSpec> kernels(int n, std::int64_t start, std::int64_t durNs, std::int64_t gapNs) {
    std::vector<KernelSpec> out;
    for (int i = 0; i < n; ++i) out.push_back({start + i * (durNs + gapNs), durNs, core::EventKind::Gemm, "gemm"});
    return out;
}

struct SharedAxis : test::AppGuard, ::testing::Test {};

TEST_F(SharedAxis, TwoViewsOnOneAxisShowTheSameRelativeRangeAtEveryZoom) {
    // Different clocks (origins 5 ms and 1 s) and different lengths (1.2 ms and 0.6 ms).
    TimelineView a, b;
    a.resize(1000, 300);
    b.resize(1000, 300);
    a.setTrace(test::makeTrace(2, kernels(100, 5'000'000, 10'000, 2'000), {}));
    b.setTrace(test::makeTrace(2, kernels(50, 1'000'000'000, 10'000, 2'000), {}));
    TimeAxis axis;
    a.setTimeAxis(&axis);
    b.setTimeAxis(&axis);
    a.fit();
    const auto aligned = [&](const char* step) {
        EXPECT_EQ(a.viewStartNs() - a.originNs(), b.viewStartNs() - b.originNs()) << step;
        EXPECT_EQ(a.viewEndNs() - a.originNs(), b.viewEndNs() - b.originNs()) << step;
        // The same relative time lands on the same pixel in both.
        for (const std::int64_t t : {std::int64_t{0}, std::int64_t{300'000}, std::int64_t{590'000}}) {
            EXPECT_DOUBLE_EQ(a.xForTime(a.originNs() + t), b.xForTime(b.originNs() + t)) << step << " at " << t;
        }
    };
    aligned("fit");
    // The fit covers the longer trace, not the view's own.
    EXPECT_GE(b.viewEndNs() - b.originNs(), 1'200'000 - 2'000);
    a.zoomAt(0.25, a.timeAreaLeft() + 100);
    aligned("zoom in on a");
    b.panPixels(-300);
    aligned("pan b");
    b.zoomAt(0.01, b.timeAreaLeft() + 700);
    aligned("deep zoom on b");
    a.setVisibleRange(a.originNs() + 1'100'000, a.originNs() + 1'150'000);  // past b's end
    aligned("range past the shorter trace");
    QTest::keyClick(&b, Qt::Key_S);
    aligned("key zoom on b");
}

TEST_F(SharedAxis, ExportsTheVisibleRangeAsPngAtTwiceThePixelsAndAsSvg) {
    TimelinePanel panel;
    panel.resize(900, 400);
    panel.setTrace(
        test::makeTrace(2, kernels(200, 0, 10'000, 2'000), {{1'000'000, 30'000, core::EventKind::Collective, "nccl"}}),
        nullptr, QStringLiteral("export"));
    panel.view()->setVisibleRange(0, 600'000);
    QTemporaryDir dir;
    const QString png = dir.filePath(QStringLiteral("t.png"));
    ASSERT_TRUE(panel.exportTo(ExportRequest{png, QSize(800, 300), 2.0}).ok());
    const QImage image(png);
    EXPECT_EQ(image.size(), QSize(1600, 600));
    // Level of detail in device pixels: kernels 10 us + 2 us gap over 600 us on 632 logical px are
    // 21 device px apart by 4; edges fall on odd device columns too, which a logical-pixel layout
    // scaled by 2 could never give.
    const int y = 2 * (TimelineView::kRulerHeight + 20 + 11);
    const QRgb gemmColor = kindColor(core::EventKind::Gemm).rgb();
    int gemm = 0, oddEdges = 0, runs = 0;
    for (int x = 2 * TimelineView::kGutterWidth; x < image.width(); ++x) {
        const bool on = image.pixel(x, y) == gemmColor;
        const bool before = image.pixel(x - 1, y) == gemmColor;
        gemm += on ? 1 : 0;
        if (on && !before) {
            ++runs;
            oddEdges += x % 2;
        }
    }
    EXPECT_GE(runs, 45);  // 50 kernels in view, each its own bar
    EXPECT_GT(oddEdges, 5);
    EXPECT_GT(gemm, 1264 / 2);

    const QString svg = dir.filePath(QStringLiteral("t.svg"));
    ASSERT_TRUE(panel.exportTo(ExportRequest{svg, QSize(800, 300), 1.0}).ok());
    QFile file(svg);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    QXmlStreamReader xml(&file);
    int elements = 0;
    while (!xml.atEnd()) elements += xml.readNext() == QXmlStreamReader::StartElement ? 1 : 0;
    EXPECT_FALSE(xml.hasError()) << xml.errorString().toStdString();
    EXPECT_GT(elements, 10);
    QSvgRenderer renderer(svg);
    EXPECT_TRUE(renderer.isValid());
    EXPECT_EQ(renderer.viewBoxF().size(), QSizeF(800, 300));

    EXPECT_FALSE(panel.exportTo(ExportRequest{dir.filePath(QStringLiteral("t.bmp")), QSize(800, 300), 1.0}).ok());
    const auto missing = panel.exportTo(ExportRequest{QStringLiteral("/nonexistent-dir/t.png"), QSize(800, 300), 1.0});
    ASSERT_FALSE(missing.ok());
    EXPECT_NE(missing.error().describe().find("/nonexistent-dir/t.png"), std::string::npos);
}

TEST_F(SharedAxis, AFoldedBarShowsItsCollectiveShareAndAClickZoomsToIt) {
    // One stream: 7 us GEMM then 3 us collective, repeated: 30 % of the time is communication.
    std::vector<KernelSpec> mix;
    for (int i = 0; i < 2000; ++i) {
        mix.push_back({i * 10'000, 7'000, core::EventKind::Gemm, "gemm"});
        mix.push_back({i * 10'000 + 7'000, 3'000, core::EventKind::Collective, "nccl"});
    }
    TimelineView view;
    view.resize(800, 300);
    view.setTrace(test::makeTrace(1, mix, {}));
    view.fit();  // ~30 pairs per pixel
    QImage image;
    view.renderTo(image);
    const TimelineRow* row = nullptr;
    for (const auto& r : view.layout().rows()) {
        if (r.kind == RowKind::Stream) row = &r;
    }
    ASSERT_NE(row, nullptr);
    const int x = view.timeAreaLeft() + view.timeAreaWidth() / 2;
    int collective = 0, gemm = 0;
    for (int y = TimelineView::kRulerHeight + row->y; y < TimelineView::kRulerHeight + row->y + row->height; ++y) {
        collective += image.pixel(x, y) == foldedColor(core::EventKind::Collective).rgb() ? 1 : 0;
        gemm += image.pixel(x, y) == foldedColor(core::EventKind::Gemm).rgb() ? 1 : 0;
    }
    ASSERT_GT(collective + gemm, 0);
    EXPECT_NEAR(static_cast<double>(collective) / (collective + gemm), 0.3, 0.1);

    const QPoint at(x, TimelineView::kRulerHeight + row->y + row->height / 2);
    const TimelineHit hit = view.indexAt(at);
    ASSERT_TRUE(hit.isItem());
    ASSERT_GT(hit.count, 1u);
    QTest::mouseClick(&view, Qt::LeftButton, {}, at);
    EXPECT_LE(view.viewStartNs(), hit.startNs);
    EXPECT_GE(view.viewEndNs(), hit.endNs);
    EXPECT_LT(view.viewEndNs() - view.viewStartNs(), 2 * (hit.endNs - hit.startNs) + 200);
    EXPECT_FALSE(view.selectedEvent().valid()) << "a folded bar zooms; it does not pick one of its kernels";
}

TEST_F(SharedAxis, DeepZoomOnALongTraceDrawsTheRangeOverlayInPlace) {
    // A trace over 3 s; 1 us visible near its end: x of the trace start is about -3e9 px.
    TimelineView view;
    view.resize(800, 300);
    view.setTrace(test::makeTrace(
        1, {{0, 1000, core::EventKind::Gemm, "a"}, {3'000'000'000, 1000, core::EventKind::Gemm, "b"}}, {}));
    view.setVisibleRange(3'000'000'000 - 500, 3'000'000'000 + 500);
    view.selectRange(0, 3'000'000'000);  // from far off screen left to the middle
    QImage image;
    view.renderTo(image);
    const int mid = static_cast<int>(view.xForTime(3'000'000'000));
    const int y = view.height() - 5;
    // Washed blue left of the range's end, plain background right of it.
    EXPECT_NE(image.pixel(mid - 50, y), image.pixel(mid + 50, y));
}

TEST_F(SharedAxis, TheSelectionPanelUsesCoresMatchingWithTwoCommunicators) {
    // Rank 0 runs an extra call on a second communicator first; k-th-kernel matching would pair
    // rank 0's extra call with rank 1's first call. Core matches per communicator.
    auto t = std::make_shared<core::Trace>();
    const auto comm = [&](const char* name) {
        core::CollectivePayload c{core::CollectiveOp::AllReduce,
                                  core::CollectiveAlgo::Ring,
                                  core::CollectiveProto::LL,
                                  core::Dtype::Fp16,
                                  2,
                                  t->intern(name),
                                  1 << 20};
        return t->intern(core::Payload::of(c));
    };
    const auto tp = comm("tp"), other = comm("dp");
    for (std::uint32_t r = 0; r < 2; ++r) {
        auto& rank = t->rank(core::RankId{r});
        auto& s = rank.stream(core::StreamId{13}, "nccl");
        if (r == 0) s.events.append({1'000, 2'000, t->intern("nccl"), core::EventKind::Collective, 0, other});
        s.events.append({10'000 + r * 1'000, 5'000 - r * 1'000, t->intern("nccl"), core::EventKind::Collective, 0, tp});
    }
    t->finalize();
    TimelineView view;
    view.resize(800, 300);
    view.setTrace(t);
    view.selectEvent(EventRef{0, 0, 1});
    const auto& match = view.selectedMatch();
    ASSERT_TRUE(match.has_value());
    ASSERT_EQ(match->members.size(), 2u);
    EXPECT_EQ(match->members[0].startNs, 10'000);
    EXPECT_EQ(match->members[1].startNs, 11'000);
    EXPECT_EQ(match->skewNs, 1'000);
    const auto core = core::analysis::matchCollectives(*t, view.data()->analysis().segmentation);
    for (const auto& call : core.calls) {
        if (call.participantCount != 2) continue;
        EXPECT_EQ(match->transferNs, call.transferNs());
        EXPECT_EQ(match->members[0].waitNs, core.waitNs(call.firstParticipant));
    }
}

}  // namespace
}  // namespace tpscope::ui
