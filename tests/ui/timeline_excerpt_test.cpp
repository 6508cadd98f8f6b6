// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// A workspace's stored opening excerpt (issue 31: the 100 M-event open's first frame): handed over
// before the events, painted as the whole trace's preview paints, locked while it is only an excerpt,
// and replaced in place by the trace.

#include <QImage>

#include <gtest/gtest.h>

#include <QTemporaryDir>

#include <atomic>

#include "core/io/workspace/workspace.h"
#include "core/sim/sim_test_support.h"
#include "ui/jobs/io_services.h"
#include "ui/timeline/timeline_data.h"
#include "ui/timeline/timeline_panel.h"
#include "ui/timeline/timeline_view.h"
#include "ui_test_support.h"

namespace tpscope::ui {
namespace {

std::shared_ptr<const core::Trace> simulatedTp4(int tokens) {
    auto r = core::sim::simulate(test::simConfig("llama3-8b", "h100-sxm", "nvlink4", 4, 1, tokens));
    EXPECT_TRUE(r) << r.error().describe();
    return r ? r->trace : nullptr;
}

// Saved as `simulate --out` or the GUI's save writes a large run: with its excerpt (the threshold
// lowered, so a test-sized run has one).
QString savedWithExcerpt(const QTemporaryDir& dir, std::shared_ptr<const core::Trace> trace) {
    const QString path = dir.filePath(QStringLiteral("w.tpscope"));
    core::Workspace ws;
    ws.runs.push_back(core::Run{{"tp4", "llama3-8b", "h100-sxm", "nvlink4", 4, 1, 1024, {}}, std::move(trace), {}});
    core::WorkspaceOptions options;
    options.excerptMinEvents = 0;
    EXPECT_TRUE(core::saveWorkspace(ws, path.toStdString(), options));
    return path;
}

TEST(TimelineExcerpt, TheLoaderHandsTheExcerptBeforeTheTrace) {
    test::ensureApp();
    QTemporaryDir dir;
    const auto trace = simulatedTp4(4);
    const QString path = savedWithExcerpt(dir, trace);
    std::vector<RunRecord> previews;
    auto doc = openWithIo(path, {}, [&previews](const RunRecord& r) { previews.push_back(r); });
    ASSERT_TRUE(doc) << doc.error().describe();
    ASSERT_EQ(previews.size(), 2u);
    ASSERT_TRUE(previews[0].timeline && previews[0].timeline->excerpt());
    EXPECT_LT(previews[0].trace->eventCount(), trace->eventCount());
    EXPECT_EQ(previews[0].timeline->excerpt()->traceEventCount, trace->eventCount());
    EXPECT_NE(previews[0].trace->source.find("opening excerpt"), std::string::npos);
    ASSERT_TRUE(previews[1].timeline);
    EXPECT_FALSE(previews[1].timeline->excerpt());
    EXPECT_EQ(previews[1].trace, doc->runs.front().trace);
    EXPECT_EQ(doc->runs.front().trace->eventCount(), trace->eventCount());
}

TEST(TimelineExcerpt, AFileWithoutOneIsPreviewedAsBefore) {
    test::ensureApp();
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("small.tpscope"));
    RunRecord run;
    run.status = RunStatus::Done;
    run.trace = simulatedTp4(3);
    ASSERT_TRUE(saveWithIo(path, {run}, {}));  // below the excerpt threshold
    std::vector<RunRecord> previews;
    auto doc = openWithIo(path, {}, [&previews](const RunRecord& r) { previews.push_back(r); });
    ASSERT_TRUE(doc) << doc.error().describe();
    ASSERT_EQ(previews.size(), 1u);
    EXPECT_FALSE(previews[0].timeline->excerpt());
}

// The excerpt's frame is the whole trace's preview frame, pixel for pixel (the view; the panel's title
// says which is shown), on the same window; while it shows, zoom is off; the trace then takes over.
TEST(TimelineExcerpt, PaintsAsTheWholeTracesPreviewAndIsReplacedInPlace) {
    test::ensureApp();
    QTemporaryDir dir;
    const QString path = savedWithExcerpt(dir, simulatedTp4(5));
    std::vector<RunRecord> previews;
    auto doc = openWithIo(path, {}, [&previews](const RunRecord& r) { previews.push_back(r); });
    ASSERT_TRUE(doc) << doc.error().describe();
    ASSERT_EQ(previews.size(), 2u);

    TimelinePanel panel;
    panel.resize(1400, 900);
    panel.show();
    panel.showPreview(previews[0]);
    ASSERT_TRUE(panel.showsExcerpt());
    const auto window = *previews[0].timeline->excerpt();
    EXPECT_EQ(panel.view()->viewStartNs(), window.windowStartNs);
    EXPECT_EQ(panel.view()->viewEndNs(), window.windowEndNs);
    panel.fitView();
    panel.zoomIn();
    EXPECT_EQ(panel.view()->viewStartNs(), window.windowStartNs) << "zoom is off on an excerpt";
    EXPECT_EQ(panel.view()->viewEndNs(), window.windowEndNs);
    EXPECT_FALSE(panel.exportTo(ExportRequest{dir.filePath(QStringLiteral("x.png"))}));
    QImage excerptFrame;
    panel.view()->renderTo(excerptFrame);

    panel.showPreview(previews[1]);
    EXPECT_FALSE(panel.showsExcerpt());
    EXPECT_EQ(panel.view()->trace(), previews[1].trace.get());
    EXPECT_EQ(panel.view()->viewStartNs(), window.windowStartNs);
    EXPECT_EQ(panel.view()->viewEndNs(), window.windowEndNs);
    QImage traceFrame;
    panel.view()->renderTo(traceFrame);
    ASSERT_EQ(excerptFrame.size(), traceFrame.size());
    std::size_t differing = 0;
    for (int y = 0; y < traceFrame.height(); ++y) {
        for (int x = 0; x < traceFrame.width(); ++x) differing += excerptFrame.pixel(x, y) != traceFrame.pixel(x, y);
    }
    EXPECT_EQ(differing, 0u);
    panel.fitView();
    EXPECT_NE(panel.view()->viewEndNs() - panel.view()->viewStartNs(), window.windowEndNs - window.windowStartNs)
        << "zoom is back with the trace";
}

// The same comparison on a large workspace a person names (TPSCOPE_EXCERPT_WORKSPACE, e.g. the 100 M-event
// one of docs/PERFORMANCE.md): both frames are written to <build>/screenshots/ and must not differ.
TEST(TimelineExcerpt, ALargeWorkspacesExcerptFrameIsItsTracesFrame) {
    const QByteArray path = qgetenv("TPSCOPE_EXCERPT_WORKSPACE");
    if (path.isEmpty()) GTEST_SKIP() << "TPSCOPE_EXCERPT_WORKSPACE names no workspace";
    test::ensureApp();
    std::vector<RunRecord> previews;
    // Both previews come before the analysis; the analysis itself is not needed here.
    TaskControl control;
    std::atomic<bool> stop{false};
    control.cancel = &stop;
    auto doc = openWithIo(QString::fromLocal8Bit(path), control, [&](const RunRecord& r) {
        previews.push_back(r);
        if (previews.size() == 2) stop = true;
    });
    (void)doc;  // cancelled after the second preview
    ASSERT_EQ(previews.size(), 2u);
    ASSERT_TRUE(previews[0].timeline->excerpt()) << "the workspace has no opening excerpt";
    TimelinePanel panel;
    panel.resize(1240, 640);
    panel.show();
    panel.showPreview(previews[0]);
    QImage excerptFrame, traceFrame;
    panel.view()->renderTo(excerptFrame);
    panel.showPreview(previews[1]);
    panel.view()->renderTo(traceFrame);
    EXPECT_TRUE(excerptFrame.save(test::screenshotDir() + "/excerpt-frame.png"));
    EXPECT_TRUE(traceFrame.save(test::screenshotDir() + "/trace-frame.png"));
    ASSERT_EQ(excerptFrame.size(), traceFrame.size());
    std::size_t differing = 0;
    for (int y = 0; y < traceFrame.height(); ++y) {
        for (int x = 0; x < traceFrame.width(); ++x) differing += excerptFrame.pixel(x, y) != traceFrame.pixel(x, y);
    }
    EXPECT_EQ(differing, 0u) << "of " << traceFrame.width() * traceFrame.height() << " pixels";
}

}  // namespace
}  // namespace tpscope::ui
