// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Smaller correctness items of issue 10: bad files get one clear error, numbers keep their digits,
// text is escaped and readable on a dark palette, the run panel keeps its input, progress per step.

#include <QApplication>
#include <QLabel>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>

#include <gtest/gtest.h>

#include <fstream>

#include "core/hw/catalog.h"
#include "ui/document/run_document.h"
#include "ui/jobs/io_services.h"
#include "ui/jobs/sim_service.h"
#include "ui/palette_colors.h"
#include "ui/timeline/event_details.h"
#include "ui/timeline/timeline_view.h"
#include "ui/window/error_banner.h"
#include "ui/window/main_window.h"
#include "ui/window/run_panel.h"
#include "ui_test_support.h"

namespace tpscope::ui {
namespace {

struct UiFixes : test::AppGuard, ::testing::Test {};

TEST_F(UiFixes, AJsonTraceWhoseOnlyKernelIsMalformedIsAnErrorNotAnEmptyRun) {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("bad.json"));
    std::ofstream(path.toStdString()) << R"({"traceEvents": [
      {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": "soon", "dur": 2}]})";
    const auto doc = openWithIo(path, {});
    ASSERT_FALSE(doc.ok()) << "opened as a run with TP " << doc->runs.front().request.tp;
    EXPECT_NE(doc.error().describe().find("bad.json"), std::string::npos) << doc.error().describe();
    EXPECT_NE(doc.error().describe().find("no GPU events"), std::string::npos) << doc.error().describe();
}

TEST_F(UiFixes, ADeviceIsNamedAsOneInsteadOfAnEmptyFile) {
    const auto doc = openWithIo(QStringLiteral("/dev/zero"), {});
    ASSERT_FALSE(doc.ok());
    EXPECT_NE(doc.error().message.find("not a regular file"), std::string::npos) << doc.error().describe();
    EXPECT_EQ(doc.error().message.find("empty"), std::string::npos) << doc.error().describe();
}

TEST_F(UiFixes, BandwidthKeepsThreeSignificantDigitsForTinyCollectives) {
    // 448 B moved in 5 us: 89.6 MB/s, not "0.0 GB/s".
    EXPECT_EQ(formatBandwidth(448.0 / 5e-6), QStringLiteral("89.6 MB/s"));
    EXPECT_EQ(formatBandwidth(312.4e9), QStringLiteral("312 GB/s"));
    EXPECT_EQ(formatBandwidth(std::nan("")), QStringLiteral("—"));
}

TEST_F(UiFixes, TooltipEscapesTheStreamLabel) {
    auto t = std::make_shared<core::Trace>();
    auto& rank = t->rank(core::RankId{0});
    rank.stream(core::StreamId{7}, "<b>stream</b>")
        .events.append({0, 10'000, t->intern("k"), core::EventKind::Gemm, 0, core::kNoPayload});
    t->finalize();
    TimelineView view;
    view.resize(800, 200);
    view.setTrace(t);
    TimelineHit hit;
    hit.area = TimelineHit::Area::Item;
    hit.rowKind = RowKind::Stream;
    hit.rank = 0;
    hit.event = EventRef{0, 0, 0};
    hit.count = 1;
    const QString html = itemTooltipHtml(*view.trace(), *view.data(), hit, view.originNs());
    EXPECT_TRUE(html.contains(QStringLiteral("&lt;b&gt;stream&lt;/b&gt;"))) << html.toStdString();
    EXPECT_FALSE(html.contains(QStringLiteral("<b>stream</b>")));
}

TEST_F(UiFixes, RankHeaderCountsKernelsWithoutMemcpyAndMemset) {
    auto t = std::make_shared<core::Trace>();
    auto& rank = t->rank(core::RankId{0});
    auto& s = rank.stream(core::StreamId{7}, "s");
    for (int i = 0; i < 5; ++i) {
        const auto kind = i < 3 ? core::EventKind::Gemm : (i == 3 ? core::EventKind::Memcpy : core::EventKind::Memset);
        s.events.append({i * 100, 50, t->intern("k"), kind, 0, core::kNoPayload});
    }
    t->finalize();
    const auto data = TimelineData::build(*t);
    EXPECT_EQ(data->ranks()[0].kernelCount(), 3u);
}

TEST_F(UiFixes, TheErrorBannerIsReadableOnADarkPalette) {
    const QPalette before = QApplication::palette();
    QPalette dark;
    dark.setColor(QPalette::Window, QColor(0x20, 0x20, 0x24));
    dark.setColor(QPalette::WindowText, QColor(0xEE, 0xEE, 0xEE));
    QApplication::setPalette(dark);
    for (const auto level : {ErrorBanner::Level::Error, ErrorBanner::Level::Warning, ErrorBanner::Level::Info}) {
        ErrorBanner banner;
        banner.showMessage(QStringLiteral("it failed"), level);
        auto* label = banner.findChild<QLabel*>();
        ASSERT_NE(label, nullptr);
        label->ensurePolished();
        const QColor text = label->palette().color(QPalette::WindowText);
        EXPECT_GE(contrastRatio(text, banner.backgroundColor()), 4.5) << text.name().toStdString();
    }
    QApplication::setPalette(before);
    EXPECT_GE(contrastRatio(errorTextColor(dark), dark.color(QPalette::Window)), 4.5);
    EXPECT_GE(contrastRatio(mutedTextColor(dark), dark.color(QPalette::Window)), 4.5);
    EXPECT_GE(contrastRatio(errorTextColor(before), before.color(QPalette::Window)), 4.5);
}

TEST_F(UiFixes, TypingSixThousandTokensGivesSixThousand) {
    auto catalog = core::Catalog::builtin();
    ASSERT_TRUE(catalog.ok());
    RunPanel panel(*catalog, {});
    QSpinBox* tokens = nullptr;
    for (auto* s : panel.findChildren<QSpinBox*>()) {
        if (s->toolTip().startsWith(QStringLiteral("Decode steps"))) tokens = s;
    }
    ASSERT_NE(tokens, nullptr);
    tokens->selectAll();
    QTest::keyClicks(tokens, QStringLiteral("6000"));
    EXPECT_EQ(tokens->value(), 6000);
    ASSERT_TRUE(panel.sweepRequest().ok());
    EXPECT_EQ(panel.sweepRequest()->base.tokens, 6000);
    EXPECT_TRUE(tokens->toolTip().contains(QStringLiteral("100,000")) ||
                tokens->toolTip().contains(QStringLiteral("100000")))
        << tokens->toolTip().toStdString();
}

TEST_F(UiFixes, TheRunPanelKeepsItsLastSettingsOnLaunch) {
    {
        MainWindow first(defaultServices());
        first.setUnsavedPrompt([](QWidget*) { return QMessageBox::Discard; });
        first.runPanel()->setDefaults();
        for (auto* s : first.runPanel()->findChildren<QSpinBox*>()) {
            if (s->toolTip().startsWith(QStringLiteral("Decode steps"))) s->setValue(16);
        }
        first.show();
        ASSERT_TRUE(first.close());  // saves the settings
    }
    MainWindow second(defaultServices());
    second.setUnsavedPrompt([](QWidget*) { return QMessageBox::Discard; });
    QSignalSpy finished(&second, &MainWindow::sweepFinished);
    ASSERT_TRUE(second.startDefaultSweep());  // what the launch does
    EXPECT_EQ(second.runPanel()->sweepRequest()->base.tokens, 16);
    ASSERT_TRUE(finished.wait(60'000));
    EXPECT_EQ(second.document()->runs().front().request.tokens, 4);  // the default sweep ran as it is
    second.runPanel()->setDefaults();
    second.show();
    second.close();  // leave the settings as the other tests expect them
}

TEST_F(UiFixes, ASimulatedRunReportsProgressEveryStep) {
    auto catalog = core::Catalog::builtin();
    ASSERT_TRUE(catalog.ok());
    auto sweep = defaultSweepRequest(*catalog, 1.0);
    ASSERT_TRUE(sweep.ok());
    sweep->tps = {8};
    sweep->base.tokens = 8;
    std::vector<double> fractions;
    int finished = 0;
    SweepCallbacks callbacks;
    callbacks.progress = [&](int index, double f) {
        EXPECT_EQ(index, 0);
        fractions.push_back(f);
    };
    callbacks.finished = [&](int index, RunOutcome outcome) {
        EXPECT_EQ(index, 0);
        EXPECT_NE(outcome.analysis, nullptr);
        EXPECT_NE(outcome.timeline, nullptr);
        ++finished;
    };
    const CancelFlag cancel{false};
    ASSERT_TRUE(runSimulatedSweep(*sweep, callbacks, cancel).ok());
    EXPECT_EQ(finished, 1);
    ASSERT_EQ(fractions.size(), 7u);  // after steps 1..7 of 8; the 8th is the finished run
    for (std::size_t i = 0; i < fractions.size(); ++i) EXPECT_DOUBLE_EQ(fractions[i], (i + 1) / 8.0);
}

TEST_F(UiFixes, SavingStopsWhenCancelled) {
    QTemporaryDir dir;
    RunRecord run;
    run.status = RunStatus::Done;
    run.trace = test::makeTrace(2, {{0, 1000, core::EventKind::Gemm, "g"}}, {});
    const CancelFlag cancel{true};
    const QString path = dir.filePath(QStringLiteral("w.tpscope"));
    const auto status = saveWithIo(path, {run}, TaskControl{{}, &cancel});
    ASSERT_FALSE(status.ok());
    EXPECT_EQ(status.error().code, core::ErrorCode::Cancelled);
    EXPECT_FALSE(QFileInfo::exists(path));
}

}  // namespace
}  // namespace tpscope::ui
