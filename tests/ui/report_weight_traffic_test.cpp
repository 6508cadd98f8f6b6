// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Issue 32: a simulated MoE sweep's report says in words that the weight traffic grows with batch:
// the experts a step touches at each batch, E (1 - (1 - k/E)^B) under uniform routing, and the weight
// bytes one GPU reads per step. A dense sweep's report has no such section.
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>

#include <gtest/gtest.h>
#include <cmath>

#include "core/hw/catalog.h"
#include "core/util/units.h"
#include "core/workload/moe_summary.h"
#include "run_panel_settings.h"
#include "test_support.h"
#include "ui/document/run_document.h"
#include "ui/report/report_runs.h"
#include "ui/report/sweep_report.h"
#include "ui/window/chart_tabs.h"
#include "ui/window/main_window.h"
#include "ui/window/report_export.h"
#include "ui/window/run_panel.h"
#include "ui_test_support.h"

namespace tpscope::ui {
namespace {

constexpr int kContext = 256;

void setPanel(RunPanel& panel, const QString& dir, const QString& model) {
    test::restoreRunPanel(panel, dir,
                          {{QStringLiteral("model"), model},
                           {QStringLiteral("tp"), QStringList{QStringLiteral("1"), QStringLiteral("2")}},
                           {QStringLiteral("batches"), QStringLiteral("1,64")},
                           {QStringLiteral("context"), kContext}});
}

struct WeightTraffic : test::AppGuard, ::testing::Test {
    QTemporaryDir dir;
    MainWindow window{defaultServices()};
    WeightTraffic() {
        window.setUnsavedPrompt([](QWidget*) { return QMessageBox::Discard; });
    }
    void sweep(const QString& model) {
        setPanel(*window.runPanel(), dir.path(), model);
        QSignalSpy finished(&window, &MainWindow::sweepFinished);
        ASSERT_TRUE(window.startSweep());
        ASSERT_TRUE(finished.wait(120'000));
    }
};

TEST_F(WeightTraffic, AMoeSweepsReportSaysHowManyExpertsEachBatchTouches) {
    sweep(QStringLiteral("qwen3-30b-a3b"));
    const auto request = window.runPanel()->sweepRequest();
    ASSERT_TRUE(request.ok()) << request.error().describe();
    const core::ModelSpec& model = request->base.model;
    ASSERT_TRUE(model.isMoe());
    ASSERT_EQ(window.document()->runs().size(), 4u);

    const ReportContext context = window.reportExport()->reportContext();
    // Core's sentences over the four runs' plans, built here from the sweep's parameters.
    std::vector<core::PlanConfig> plans;
    for (const int tp : {1, 2}) {
        for (const int batch : {1, 64})
            plans.push_back(core::PlanConfig{model, tp, batch, kContext, core::Dtype::Fp16});
    }
    const auto expected = core::moeTrafficNotes(plans);
    ASSERT_GE(expected.size(), 2u);  // touched experts, then the weights read per step at each TP
    ASSERT_EQ(context.modelNotes.size(), static_cast<qsizetype>(expected.size()));
    for (std::size_t i = 0; i < expected.size(); ++i) {
        EXPECT_EQ(context.modelNotes[static_cast<qsizetype>(i)].toStdString(), expected[i]);
    }
    // The touched experts from the formula, as the report prints them (one decimal).
    const double e = model.moe.experts;
    const double k = model.moe.topK;
    for (const int b : {1, 64}) {
        const double touched = e * (1.0 - std::pow(1.0 - k / e, b));
        const std::string phrase = core::formatFixed(touched, 1) + " at batch " + std::to_string(b);
        EXPECT_NE(expected.front().find(phrase), std::string::npos) << expected.front() << " lacks " << phrase;
    }
    const QString html = reportSummaryHtml(context, *window.chartTabs()->charts());
    EXPECT_TRUE(html.contains(QStringLiteral("<h2>Weight traffic</h2>")));
    for (const auto& n : context.modelNotes) EXPECT_TRUE(html.contains(n.toHtmlEscaped())) << n.toStdString();
}

// The headless report of a saved MoE workspace (`tpscope --report file`) says it too.
TEST(WeightTrafficHeadless, AReportOfAMoeWorkspaceSaysHowManyExpertsEachBatchTouches) {
    test::ensureApp();
    QTemporaryDir dir;
    const std::string path = (dir.path() + QStringLiteral("/moe.tpscope")).toStdString();
    const auto cli = test::runCli(
        "simulate --model qwen3-30b-a3b --gpu h100-sxm --fabric nvlink4 --tp 1 --batch 1,64 "
        "--tokens 2 --context 256 --out " +
        path);
    ASSERT_EQ(cli.exitCode, 0) << cli.out;
    const auto runs = loadReportRuns({QString::fromStdString(path)}, defaultServices());
    ASSERT_TRUE(runs) << runs.error().describe();
    ASSERT_FALSE(runs->context.modelNotes.isEmpty());
    const auto catalog = core::Catalog::load();
    ASSERT_TRUE(catalog);
    const auto model = catalog->model("qwen3-30b-a3b");
    ASSERT_TRUE(model);
    const double e = model->moe.experts;
    const double k = model->moe.topK;
    for (const int b : {1, 64}) {
        const double touched = e * (1.0 - std::pow(1.0 - k / e, b));
        const QString phrase = QString::fromStdString(core::formatFixed(touched, 1) + " at batch " + std::to_string(b));
        EXPECT_TRUE(runs->context.modelNotes.front().contains(phrase))
            << runs->context.modelNotes.front().toStdString();
    }
}

TEST_F(WeightTraffic, ADenseSweepsReportHasNoWeightTrafficSection) {
    sweep(QStringLiteral("llama3-8b"));
    const ReportContext context = window.reportExport()->reportContext();
    EXPECT_TRUE(context.modelNotes.isEmpty());
    const QString html = reportSummaryHtml(context, *window.chartTabs()->charts());
    EXPECT_FALSE(html.contains(QStringLiteral("Weight traffic")));
}

}  // namespace
}  // namespace tpscope::ui
