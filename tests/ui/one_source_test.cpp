// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Issue 45 §2: one source for every number. The window and `tpscope-cli scaling` form the same
// scaling groups from a mixed set of opened traces (core::analysis::groupScalingRuns), and a run whose
// decode steps have different batches has one tokens/s in the runs table, the scaling points (Scaling,
// Cost, Advice, the report) and Compare: the tokens its steps decoded over the time they took.
#include <qcustomplot.h>
#include <QApplication>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "compare_test_support.h"
#include "core/analysis/compare.h"
#include "core/io/export/chrome_writer.h"
#include "main_window_test_support.h"
#include "tests/test_support.h"
#include "ui/charts/chart_set.h"
#include "ui/charts/charts_controller.h"
#include "ui/charts/layers_page.h"
#include "ui/compare/compare_view.h"
#include "ui/document/run_document.h"
#include "ui/document/scaling_input.h"
#include "ui/window/chart_tabs.h"
#include "ui/window/compare_controller.h"
#include "ui/window/main_window.h"
#include "ui/window/report_export.h"
#include "ui/window/run_panel.h"

namespace tpscope::ui {
namespace {

using test::kWaitMs;

struct OneSource : test::AppGuard, ::testing::Test {
    QTemporaryDir dir;
};

void openAndWait(MainWindow& window, const QString& file) {
    QSignalSpy opened(&window, &MainWindow::documentOpened);
    window.openPath(file);
    ASSERT_TRUE(opened.count() > 0 || opened.wait(kWaitMs)) << window.lastError().toStdString();
}

// A simulated run of `model` on `gpu` at `tp`, written as a Chrome trace (its metadata names both).
std::string writeRun(const QTemporaryDir& dir, const std::string& model, const std::string& gpu, int tp) {
    const auto catalog = core::Catalog::load();
    EXPECT_TRUE(catalog.ok());
    RunRequest request = test::smallRequest(tp);
    request.model = *catalog->model(model);
    request.gpu = *catalog->gpu(gpu);
    const RunRecord run = test::simulatedRecord(request);
    const std::string path =
        dir.filePath(QString::fromStdString(model + "-" + gpu + "-tp" + std::to_string(tp) + ".json")).toStdString();
    EXPECT_TRUE(core::writeChromeJson(*run.trace, path).ok()) << path;
    return path;
}

using Partition = std::set<std::set<std::string>>;

// The groups `tpscope-cli scaling` names in its refusal: "...: NAME: a, b; NAME: c; scaling compares one group".
Partition cliGroups(const std::string& message) {
    Partition out;
    const std::string head = "one GPU type each): ";
    auto at = message.find(head);
    if (at == std::string::npos) return out;
    std::string rest = message.substr(at + head.size());
    rest = rest.substr(0, rest.find("; scaling compares one group"));
    std::stringstream groups(rest);
    std::string group;
    while (std::getline(groups, group, ';')) {
        const auto colon = group.find(": ");
        if (colon == std::string::npos) continue;
        std::set<std::string> members;
        std::stringstream labels(group.substr(colon + 2));
        std::string label;
        while (std::getline(labels, label, ',')) members.insert(label.substr(label.find_first_not_of(' ')));
        out.insert(members);
    }
    return out;
}

TEST_F(OneSource, TheWindowAndTheCliAgreeOnTheScalingGroupsOfMixedTraces) {
    // Two runs of one model on one GPU, one of another model, one on another GPU: three groups.
    const std::vector<std::string> files{
        writeRun(dir, "llama3-8b", "h100-sxm", 1), writeRun(dir, "llama3-8b", "h100-sxm", 2),
        writeRun(dir, "llama2-7b", "h100-sxm", 2), writeRun(dir, "llama3-8b", "a100-sxm", 2)};
    MainWindow window(defaultServices());
    for (const auto& f : files) ASSERT_NO_FATAL_FAILURE(openAndWait(window, QString::fromStdString(f)));
    ASSERT_EQ(window.document()->size(), files.size());
    Partition gui;
    for (const ScalingInput& group : scalingGroupsOf(window.document()->runs())) {
        std::set<std::string> members;
        for (const ChartRun& run : group.runs) members.insert(window.document()->run(run.id)->source.toStdString());
        gui.insert(members);
    }
    EXPECT_EQ(gui.size(), 3u) << "the window put runs of different models or GPUs into one scaling group";

    std::string args = "scaling --price-per-gpu-hour 2";
    for (const auto& f : files) args += " " + f;
    const auto cli = test::runCli(args);
    EXPECT_NE(cli.exitCode, 0) << cli.out;
    const Partition fromCli = cliGroups(cli.out);
    EXPECT_EQ(fromCli, gui) << cli.out;

    // The charts show one of those groups: the current run's.
    const auto* charts = window.chartTabs()->charts()->controller();
    const RunRecord* current = window.document()->run(window.currentRun());
    ASSERT_NE(current, nullptr);
    ASSERT_FALSE(charts->input().runs.empty());
    for (const ChartRun& run : charts->input().runs) {
        EXPECT_EQ(run.trace->metadataValue("model"), current->trace->metadataValue("model"));
        EXPECT_EQ(run.trace->metadataValue("gpu"), current->trace->metadataValue("gpu"));
    }
}

// A Kineto trace of one GPU whose decode steps (SGLang's step annotations) have different batches
// and different lengths.
std::string writeVaryingBatchTrace(const QTemporaryDir& dir) {
    const std::vector<int> batches{4, 8, 8, 16, 8, 4};
    std::ostringstream json;
    json << R"j({"traceEvents": [)j";
    bool first = true;
    const auto event = [&](const std::string& e) {
        json << (first ? "" : ",\n") << e;
        first = false;
    };
    int correlation = 1;
    for (std::size_t i = 0; i < batches.size(); ++i) {
        const long cpu = 200 + 200 * static_cast<long>(i);
        const long gpu = 2000 + 300 * static_cast<long>(i);
        event(R"j({"ph": "X","cat": "user_annotation","name": "step[DECODE bs=)j" + std::to_string(batches[i]) +
              R"j(]","pid": 1,"tid": 100,"ts": )j" + std::to_string(cpu) + R"j(,"dur": 30,"args": {}})j");
        event(R"j({"ph": "X","cat": "cuda_runtime","name": "cudaGraphLaunch","pid": 1,"tid": 100,"ts": )j" +
              std::to_string(cpu + 5) + R"j(,"dur": 3,"args": {"correlation": )j" + std::to_string(correlation) + "}}");
        const long gemm = 10 + 7 * static_cast<long>(i);
        event(
            R"j({"ph": "X","cat": "kernel","name": "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize64x64x64_cublas","pid": 0,"tid": 7,"ts": )j" +
            std::to_string(gpu) + R"j(,"dur": )j" + std::to_string(gemm) +
            R"j(,"args": {"device": 0,"stream": 7,"correlation": )j" + std::to_string(correlation) + "}}");
        event(
            R"j({"ph": "X","cat": "kernel","name": "void flash::flash_fwd_splitkv_kernel<Flash_fwd_params>(Flash_fwd_params)","pid": 0,"tid": 7,"ts": )j" +
            std::to_string(gpu + gemm + 1) + R"j(,"dur": 6,"args": {"device": 0,"stream": 7,"correlation": )j" +
            std::to_string(correlation) + "}}");
        ++correlation;
    }
    json << "]}\n";
    const std::string path = dir.filePath(QStringLiteral("varying-batch.json")).toStdString();
    std::ofstream(path) << json.str();
    return path;
}

TEST_F(OneSource, ARunOfVaryingStepBatchesHasOneTokensPerSecondEverywhere) {
    const QString file = QString::fromStdString(writeVaryingBatchTrace(dir));
    MainWindow window(defaultServices());
    ASSERT_NO_FATAL_FAILURE(openAndWait(window, file));
    ASSERT_NO_FATAL_FAILURE(openAndWait(window, file));  // a second copy, for Compare
    ASSERT_EQ(window.document()->size(), 2u);
    const RunRecord& run = window.document()->runs().front();
    ASSERT_TRUE(run.analysis);
    const auto& summary = run.analysis->summary;
    ASSERT_TRUE(summary.batchKnown);
    // The formula: tokens decoded over the time the decode steps took.
    double tokens = 0;
    double ns = 0;
    std::set<int> distinct;
    for (const auto& step : summary.steps) {
        if (step.prefill) continue;
        tokens += step.batch;
        ns += static_cast<double>(step.latencyNs);
        distinct.insert(step.batch);
    }
    ASSERT_GE(distinct.size(), 2u) << "the steps' batches must differ for this test to mean anything";
    const double expected = tokens / (ns * 1e-9);
    ASSERT_GT(expected, 0);
    // The runs table.
    EXPECT_NEAR(run.metrics.tokensPerSec, expected, expected * 1e-12);
    // Scaling, Cost, Advice and the report read the scaling points.
    const auto* charts = window.chartTabs()->charts()->controller();
    ASSERT_FALSE(charts->input().points.empty());
    for (const auto& point : charts->input().points) EXPECT_NEAR(point.tokensPerSec, expected, expected * 1e-12);
    // Compare.
    const auto ids = window.document()->ids();
    ASSERT_TRUE(window.compareController()->compare(ids).ok());
    for (const auto& column : window.compareController()->view()->comparison().runs) {
        EXPECT_TRUE(column.batchKnown);
        EXPECT_NEAR(column.tokensPerSec, expected, expected * 1e-12);
    }
}

TEST_F(OneSource, ExportingTheReportLeavesTheOnScreenChartsLaidOutForTheScreen) {
    MainWindow window(defaultServices());
    window.setUnsavedPrompt([](QWidget*) { return QMessageBox::Discard; });
    const RunId tp1 = window.document()->add(test::simulatedRecord(test::smallRequest(1)));
    window.document()->add(test::simulatedRecord(test::smallRequest(2)));
    window.selectRun(tp1);
    window.resize(1400, 900);
    window.show();
    auto* layers = window.chartTabs()->charts()->layers();
    window.tabs()->setCurrentWidget(layers);
    QApplication::processEvents();
    layers->plot()->replot(QCustomPlot::rpImmediateRefresh);
    const QRect before = layers->plot()->axisRect()->outerRect();
    ASSERT_TRUE(before.isValid());
    ASSERT_TRUE(window.reportExport()->exportReport(dir.filePath(QStringLiteral("report.pdf"))).ok());
    // Hover and clicks map through this geometry: it is the screen's, not the page's.
    EXPECT_EQ(layers->plot()->axisRect()->outerRect(), before);
}

TEST_F(OneSource, ResettingTheSweepKeepsTheWindowsOnePrice) {
    MainWindow window(defaultServices());
    auto* charts = window.chartTabs()->charts()->controller();
    const double price = charts->pricePerGpuHour() + 1.75;
    charts->setPricePerGpuHour(price);
    EXPECT_DOUBLE_EQ(window.runPanel()->pricePerGpuHour(), price);  // the run panel's field edits it
    window.runPanel()->setDefaults();                               // Reset to the default sweep
    EXPECT_DOUBLE_EQ(charts->pricePerGpuHour(), price) << "the sweep's reset changed Cost, Advice and the report";
}

}  // namespace
}  // namespace tpscope::ui
