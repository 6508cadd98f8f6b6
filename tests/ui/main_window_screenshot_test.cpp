// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Screenshots of the whole window a person can look at (<build>/screenshots/): the embedded default
// sweep on two layers and zoomed out, and a real public Kineto trace of 8 ranks when the shared
// traces exist. Each asserts what the picture must show: the collective colour in the first GPU's
// lanes (solid when zoomed in; the folded collective share when zoomed out). In a dark palette, no
// region of the window, any of its tabs or the Compare export stays near-white (issue 45 §3).

#include <QPainter>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "test_support.h"
#include "ui/compare/stacked_timelines.h"
#include "ui/document/run_document.h"
#include "ui/timeline/kind_palette.h"
#include "ui/timeline/timeline_panel.h"
#include "ui/timeline/timeline_view.h"
#include "ui/window/main_window.h"
#include "ui_test_support.h"

namespace tpscope::ui {
namespace {

constexpr int kWaitMs = 60'000;

// Pixels of `color` in the lanes (stream rows) of rank 0, in the window's image.
int pixelsInFirstGpuLanes(const MainWindow& window, const QImage& image, const QColor& color) {
    const TimelineView* view = window.timelinePanel()->view();
    const QPoint origin = view->mapTo(&window, QPoint(0, 0));
    int n = 0;
    for (const auto& row : view->layout().rows()) {
        if (row.rank != 0 || row.kind != RowKind::Stream) continue;
        const int top = origin.y() + TimelineView::kRulerHeight + row.y - view->verticalOffset();
        for (int y = top; y < top + row.height; ++y) {
            for (int x = origin.x() + view->timeAreaLeft(); x < origin.x() + view->width(); ++x) {
                if (y >= 0 && y < image.height() && image.pixel(x, y) == color.rgb()) ++n;
            }
        }
    }
    return n;
}

TEST(MainWindowScreenshot, DefaultSweepShowsTheLargestTpOnTwoLayersAndZoomedOut) {
    test::ensureApp();
    MainWindow window(defaultServices());
    window.setUnsavedPrompt([](QWidget*) { return QMessageBox::Discard; });
    window.resize(1600, 1000);
    window.show();
    QSignalSpy finished(&window, &MainWindow::sweepFinished);
    window.startDefaultSweep();
    ASSERT_TRUE(finished.wait(kWaitMs));
    window.focusTimelineOnExample();
    QApplication::processEvents();
    QImage image = window.grab().toImage();
    EXPECT_EQ(image.size(), QSize(1600, 1000));
    EXPECT_TRUE(image.save(test::screenshotDir() + "/main-default.png"));
    EXPECT_GT(pixelsInFirstGpuLanes(window, image, kindColor(core::EventKind::Collective)), 100);

    // Zoomed out, every kernel is narrower than a pixel: the folded bars carry the collective share.
    window.timelinePanel()->fitView();
    QApplication::processEvents();
    image = window.grab().toImage();
    EXPECT_TRUE(image.save(test::screenshotDir() + "/main-default-fit.png"));
    const int collective = pixelsInFirstGpuLanes(window, image, foldedColor(core::EventKind::Collective));
    const int gemm = pixelsInFirstGpuLanes(window, image, foldedColor(core::EventKind::Gemm));
    EXPECT_GT(collective, 200);
    EXPECT_GT(gemm, collective / 10);
    // Collapsed, each GPU keeps a summary strip.
    window.timelinePanel()->view()->setAllRanksCollapsed(true);
    QApplication::processEvents();
    EXPECT_TRUE(window.grab().save(test::screenshotDir() + "/main-default-collapsed.png"));
}

// test::darkPalette(), set for the application and put back afterwards.
struct DarkPalette {
    QPalette saved = QApplication::palette();
    DarkPalette() { QApplication::setPalette(test::darkPalette()); }
    ~DarkPalette() { QApplication::setPalette(saved); }
    DarkPalette(const DarkPalette&) = delete;
    DarkPalette& operator=(const DarkPalette&) = delete;
};

// The first 16×16 block of `image` of which nine pixels in ten are near-white (every channel at
// least 225): a light colour left over in a dark theme. Text and thin lines never fill a block.
std::optional<QPoint> nearWhiteBlock(const QImage& image) {
    constexpr int kBlock = 16;
    for (int by = 0; by + kBlock <= image.height(); by += kBlock) {
        for (int bx = 0; bx + kBlock <= image.width(); bx += kBlock) {
            int white = 0;
            for (int y = by; y < by + kBlock; ++y) {
                for (int x = bx; x < bx + kBlock; ++x) {
                    const QRgb c = image.pixel(x, y);
                    white += qRed(c) >= 225 && qGreen(c) >= 225 && qBlue(c) >= 225 ? 1 : 0;
                }
            }
            if (white * 10 >= kBlock * kBlock * 9) return QPoint(bx, by);
        }
    }
    return std::nullopt;
}

TEST(MainWindowScreenshot, ADarkPaletteLeavesNoNearWhiteRegion) {
    test::ensureApp();
    const DarkPalette dark;
    MainWindow window(defaultServices());
    window.setUnsavedPrompt([](QWidget*) { return QMessageBox::Discard; });
    window.resize(1600, 1000);
    window.show();
    QSignalSpy finished(&window, &MainWindow::sweepFinished);
    window.startDefaultSweep();
    ASSERT_TRUE(finished.wait(kWaitMs));
    // Everything the issue found light: the selected collective's wait wash, the NVTX rows, a range
    // with its label plate, and the error banner.
    window.focusTimelineOnExample();
    TimelineView* view = window.timelinePanel()->view();
    const std::int64_t span = view->viewEndNs() - view->viewStartNs();
    view->selectRange(view->viewStartNs() + span / 3, view->viewStartNs() + span / 2);
    window.showError(QStringLiteral("An error shown in the banner"));
    QApplication::processEvents();
    QTabWidget* tabs = window.tabs();
    for (int i = 0; i < tabs->count(); ++i) {
        tabs->setCurrentIndex(i);
        QApplication::processEvents();
        const QImage image = window.grab().toImage();
        const QString name = tabs->tabText(i).toLower().replace(QLatin1Char(' '), QLatin1Char('-'));
        EXPECT_TRUE(image.save(test::screenshotDir() + "/dark-" + name + ".png"));
        const auto block = nearWhiteBlock(image);
        EXPECT_FALSE(block.has_value()) << "tab " << tabs->tabText(i).toStdString() << ": a near-white region at ("
                                        << block->x() << ", " << block->y() << ") in dark-" << name.toStdString()
                                        << ".png";
    }
    // The Compare export paints its panes and titles on the palette's background too.
    std::vector<StackedPane> panes(2);
    panes[0].title = QStringLiteral("TP 4");
    panes[1].title = QStringLiteral("TP 8");
    QImage exported(800, 400, QImage::Format_RGB32);
    {
        QPainter p(&exported);
        paintStackedTimelines(p, panes, exported.size(), 1.0, window.font());
    }
    EXPECT_FALSE(nearWhiteBlock(exported).has_value()) << "the Compare export kept a white background";
}

TEST(MainWindowScreenshot, PublicKinetoTraceOfEightRanks) {
    TPSCOPE_REQUIRE_PUBLIC("param-dlrm_kineto-8rank");
    test::ensureApp();
    MainWindow window(defaultServices());
    window.setUnsavedPrompt([](QWidget*) { return QMessageBox::Discard; });
    window.resize(1600, 1000);
    window.show();
    QSignalSpy opened(&window, &MainWindow::documentOpened);
    QSignalSpy failed(&window, &MainWindow::openFailed);
    window.openPath(QString::fromStdString((test::publicTraces() / "param-dlrm_kineto-8rank").string()));
    ASSERT_TRUE(QTest::qWaitFor([&] { return opened.count() + failed.count() > 0; }, kWaitMs));
    ASSERT_EQ(failed.count(), 0) << window.lastError().toStdString();
    window.focusTimelineOnExample();
    QApplication::processEvents();
    const QImage image = window.grab().toImage();
    EXPECT_TRUE(image.save(test::screenshotDir() + "/main-dlrm-8rank.png"));
    ASSERT_NE(window.timelinePanel()->view()->trace(), nullptr);
    EXPECT_EQ(window.timelinePanel()->view()->trace()->ranks.size(), 8u);
    // The example view selects the collective with the largest arrival skew: its kernel is hatched
    // (the wait) and the same call on every GPU is linked by red lines across the lanes.
    const TimelineView* view = window.timelinePanel()->view();
    ASSERT_TRUE(view->selectedMatch().has_value());
    const QPoint origin = view->mapTo(&window, QPoint(view->timeAreaLeft(), TimelineView::kRulerHeight));
    int link = 0;
    for (int y = origin.y(); y < origin.y() + view->height() - TimelineView::kRulerHeight; ++y) {
        for (int x = origin.x(); x < origin.x() + view->timeAreaWidth(); ++x) {
            link += image.pixel(x, y) == QColor(0xC0, 0x1F, 0x1F).rgb() ? 1 : 0;
        }
    }
    EXPECT_GT(link, 200);
}

}  // namespace
}  // namespace tpscope::ui
