// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Issue 32: the run panel chooses a MoE model's expert placement (`--moe-parallel tp|ep`) and routing
// skew (`--routing-skew`), off for dense models. The choices reach the simulator (an EP run has
// all-to-all collectives, a TP run none; a skewed router touches fewer experts), survive the panel's
// settings and a workspace, and a sweep run in the window equals `tpscope-cli simulate --json` with
// the same flags, run by run.

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QJsonArray>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include <algorithm>

#include "compare_test_support.h"
#include "core/hw/catalog.h"
#include "core/trace/kernel_classifier.h"
#include "core/workload/moe_routing.h"
#include "run_panel_settings.h"
#include "test_support.h"
#include "tests/ui/json_numbers.h"
#include "ui/document/run_description.h"
#include "ui/document/run_document.h"
#include "ui/jobs/io_services.h"
#include "ui/jobs/sim_service.h"
#include "ui/window/main_window.h"
#include "ui/window/run_panel.h"
#include "ui_test_support.h"

namespace tpscope::ui {
namespace {

constexpr const char* kMoeModel = "qwen3-30b-a3b";  // 128 experts, top-8, 48 layers
constexpr double kSkew = 0.5;

struct RunPanelMoe : test::AppGuard, ::testing::Test {
    core::Catalog catalog = *core::Catalog::load();
    RunPanel panel{catalog, LocalBackendInfo{}};
    QComboBox* model() const { return panel.findChild<QComboBox*>(QStringLiteral("model")); }
    QComboBox* placement() const { return panel.findChild<QComboBox*>(QStringLiteral("moeParallel")); }
    QDoubleSpinBox* skew() const { return panel.findChild<QDoubleSpinBox*>(QStringLiteral("routingSkew")); }
    void pickModel(const char* id) const { model()->setCurrentIndex(model()->findData(QString::fromLatin1(id))); }
};

// How many all-to-all kernels the trace's rank 0 ran, as the built-in kernel rules classify them.
int allToAllKernels(const core::Trace& trace) {
    const auto& rules = core::KernelClassifier::builtin();
    int count = 0;
    for (const auto& s : trace.ranks.at(0).streams) {
        for (std::size_t i = 0; i < s.events.size(); ++i) {
            const auto cls = rules.classify(trace.name(s.events.name(i)));
            if (cls.kind == core::EventKind::Collective && cls.collective.op == core::CollectiveOp::AllToAll) ++count;
        }
    }
    return count;
}

TEST_F(RunPanelMoe, TheChoicesAreOffForDenseModelsAndTravelWithAMoeModel) {
    ASSERT_NE(placement(), nullptr);
    ASSERT_NE(skew(), nullptr);
    panel.setDefaults();  // llama3-70b: dense
    EXPECT_FALSE(placement()->isEnabled());
    EXPECT_FALSE(skew()->isEnabled());
    placement()->setCurrentIndex(placement()->findData(QStringLiteral("ep")));
    skew()->setValue(kSkew);
    auto dense = panel.sweepRequest();
    ASSERT_TRUE(dense.ok()) << dense.error().describe();
    EXPECT_EQ(dense->base.moeParallel, core::MoeParallel::Tensor);  // a dense plan has no experts to place
    EXPECT_FALSE(dense->base.model.isMoe());

    pickModel(kMoeModel);
    EXPECT_TRUE(placement()->isEnabled());
    EXPECT_TRUE(skew()->isEnabled());
    const auto moe = panel.sweepRequest();
    ASSERT_TRUE(moe.ok()) << moe.error().describe();
    EXPECT_EQ(moe->base.moeParallel, core::MoeParallel::Expert);
    EXPECT_EQ(moe->base.model.moe.routingSkew, kSkew);
    const auto spec = sweepSpecOf(*moe);
    EXPECT_EQ(spec.moeParallel, core::MoeParallel::Expert);
    EXPECT_EQ(spec.configFor(4, 8).plan.moeParallel, core::MoeParallel::Expert);
    EXPECT_EQ(spec.configFor(4, 8).plan.model.moe.routingSkew, kSkew);
    RunRecord record;
    record.request = moe->base;
    EXPECT_TRUE(runDescriptionHtml(record).contains(QStringLiteral("expert-parallel")));
}

TEST_F(RunPanelMoe, ExpertParallelRunsAllToAllAndTensorParallelNone) {
    RunRequest request = test::smallRequest(4);
    request.model = *catalog.model(kMoeModel);
    request.batch = 8;
    request.moeParallel = core::MoeParallel::Tensor;
    const RunRecord tp = test::simulatedRecord(request);
    request.moeParallel = core::MoeParallel::Expert;
    const RunRecord ep = test::simulatedRecord(request);
    ASSERT_TRUE(tp.trace && ep.trace);
    EXPECT_EQ(allToAllKernels(*tp.trace), 0);
    // Dispatch and combine in every MoE layer of every step.
    const core::ModelSpec& m = request.model;
    EXPECT_EQ(allToAllKernels(*ep.trace), 2 * (m.layers - m.moe.denseLayers) * request.tokens);
}

TEST_F(RunPanelMoe, ASkewedRouterTouchesFewerExpertsAndShortensTheStep) {
    // A skew the model's routing makes a difference at this batch (core's formula, not a constant).
    const core::ModelSpec m = *catalog.model(kMoeModel);
    const int batch = 16;
    ASSERT_LT(core::expectedTouchedExperts(m.moe.experts, m.moe.topK, batch, 2.0),
              core::expectedTouchedExperts(m.moe.experts, m.moe.topK, batch, 0.0));
    RunRequest request = test::smallRequest(2);
    request.model = m;
    request.batch = batch;
    request.runtime = core::sim::Runtime::CudaGraphs;  // the GPU's time, not the host's launches
    const RunRecord uniform = test::simulatedRecord(request);
    request.model.moe.routingSkew = 2.0;
    const RunRecord skewed = test::simulatedRecord(request);
    ASSERT_GT(uniform.metrics.stepLatencyNs, 0);
    EXPECT_LT(skewed.metrics.stepLatencyNs, uniform.metrics.stepLatencyNs);  // fewer expert weights read
}

TEST_F(RunPanelMoe, SettingsKeepTheChoicesAndOlderSettingsReadAsUniformTensorParallel) {
    QTemporaryDir dir;
    panel.setDefaults();
    pickModel(kMoeModel);
    placement()->setCurrentIndex(placement()->findData(QStringLiteral("ep")));
    skew()->setValue(1.25);
    QSettings saved(dir.filePath(QStringLiteral("saved.ini")), QSettings::IniFormat);
    panel.saveSettings(saved);
    panel.setDefaults();
    ASSERT_EQ(panel.sweepRequest()->base.moeParallel, core::MoeParallel::Tensor);
    panel.restoreSettings(saved);
    auto request = panel.sweepRequest();
    ASSERT_TRUE(request.ok()) << request.error().describe();
    EXPECT_EQ(request->base.model.id, kMoeModel);
    EXPECT_EQ(request->base.moeParallel, core::MoeParallel::Expert);
    EXPECT_EQ(request->base.model.moe.routingSkew, 1.25);

    // A build before the MoE choices saved neither key.
    saved.remove(QStringLiteral("runPanel/moeParallel"));
    saved.remove(QStringLiteral("runPanel/routingSkew"));
    panel.restoreSettings(saved);
    request = panel.sweepRequest();
    ASSERT_TRUE(request.ok()) << request.error().describe();
    EXPECT_EQ(request->base.moeParallel, core::MoeParallel::Tensor);
    EXPECT_EQ(request->base.model.moe.routingSkew, 0);
}

TEST(RunMoeWorkspace, PlacementAndSkewSurviveAWorkspaceRoundTrip) {
    const auto catalog = core::Catalog::load();
    ASSERT_TRUE(catalog.ok());
    for (const auto mode : {core::MoeParallel::Tensor, core::MoeParallel::Expert}) {
        RunRecord run;
        run.request = test::smallRequest(4);
        run.request.model = *catalog->model(kMoeModel);
        run.request.model.moe.routingSkew = 0.75;
        run.request.moeParallel = mode;
        core::Run stored;
        stored.info = runInfoOf(run);
        const RunRequest back = runRecordOf(stored, QString()).request;
        EXPECT_EQ(back.moeParallel, mode);
        EXPECT_EQ(back.model.moe.routingSkew, 0.75);
        EXPECT_EQ(back.model.moe.experts, run.request.model.moe.experts);
        EXPECT_EQ(back.model.moe.topK, run.request.model.moe.topK);
    }
    // A dense run writes no MoE keys and reads back tensor-parallel.
    RunRecord dense;
    dense.request = test::smallRequest(4);
    core::Run stored;
    stored.info = runInfoOf(dense);
    EXPECT_TRUE(std::none_of(stored.info.spec.begin(), stored.info.spec.end(),
                             [](const auto& kv) { return kv.first == "moe_parallel"; }));
    EXPECT_EQ(runRecordOf(stored, QString()).request.moeParallel, core::MoeParallel::Tensor);
}

// The panel set through its own settings, as a user's saved panel would be.
void setPanel(RunPanel& panel, const QString& dir) {
    test::restoreRunPanel(panel, dir,
                          {{QStringLiteral("model"), QString::fromLatin1(kMoeModel)},
                           {QStringLiteral("dtype"), QStringLiteral("bf16")},
                           {QStringLiteral("tp"), QStringList{QStringLiteral("2"), QStringLiteral("4")}},
                           {QStringLiteral("batches"), QStringLiteral("8")},
                           {QStringLiteral("overlap"), false},
                           {QStringLiteral("runtime"), QStringLiteral("cuda-graphs")},
                           {QStringLiteral("allReduceEngine"), QStringLiteral("nccl")},
                           {QStringLiteral("moeParallel"), QStringLiteral("ep")},
                           {QStringLiteral("routingSkew"), kSkew},
                           {QStringLiteral("price"), 2.5}});
}

TEST(GuiCliMoe, AnExpertParallelSkewedSweepEqualsSimulateJsonWithTheSameFlags) {
    test::ensureApp();
    QTemporaryDir dir;
    MainWindow window(defaultServices());
    window.setUnsavedPrompt([](QWidget*) { return QMessageBox::Discard; });
    setPanel(*window.runPanel(), dir.path());
    const auto request = window.runPanel()->sweepRequest();
    ASSERT_TRUE(request.ok()) << request.error().describe();
    ASSERT_EQ(request->base.moeParallel, core::MoeParallel::Expert);
    ASSERT_EQ(request->base.model.moe.routingSkew, kSkew);

    QSignalSpy finished(&window, &MainWindow::sweepFinished);
    ASSERT_TRUE(window.startSweep());
    ASSERT_TRUE(finished.wait(120'000));
    const auto& runs = window.document()->runs();
    ASSERT_EQ(runs.size(), 2u);

    const std::string args = std::string("simulate --json --model ") + kMoeModel +
                             " --gpu h100-sxm --fabric nvlink4 --nodes 1 --gpus-per-node 8 --tp 2,4 --batch 8 "
                             "--tokens 2 --context 256 --dtype bf16 --seed 1 --runtime cuda-graphs";
    const auto cli = test::runCli(args + " --moe-parallel ep --routing-skew 0.5");
    ASSERT_EQ(cli.exitCode, 0) << cli.out;
    const auto cliRuns = test::parseJson(cli.out).value(QStringLiteral("runs")).toArray();
    const auto tpRuns =
        test::parseJson(test::runCli(args + " --routing-skew 0.5").out).value(QStringLiteral("runs")).toArray();
    ASSERT_EQ(cliRuns.size(), 2);
    ASSERT_EQ(tpRuns.size(), 2);
    for (int i = 0; i < 2; ++i) {
        const auto c = cliRuns[i].toObject();
        const auto& run = runs[static_cast<std::size_t>(i)];
        ASSERT_EQ(run.status, RunStatus::Done) << run.error.toStdString();
        ASSERT_EQ(run.request.tp, c.value(QStringLiteral("tp")).toInt());
        EXPECT_EQ(run.request.moeParallel, core::MoeParallel::Expert);
        ASSERT_TRUE(run.simStats.has_value());
        const auto& s = *run.simStats;
        EXPECT_EQ(s.meanStepNs, c.value(QStringLiteral("step_latency_ns")).toDouble()) << "TP " << run.request.tp;
        EXPECT_EQ(s.allreducesPerStep, c.value(QStringLiteral("allreduces_per_step")).toInt());
        EXPECT_EQ(s.collectivesPerStep, c.value(QStringLiteral("collectives_per_step")).toInt());
        EXPECT_EQ(s.exposedCommNsPerStep, c.value(QStringLiteral("exposed_comm_ns_per_step")).toDouble());
        EXPECT_EQ(static_cast<double>(s.events), c.value(QStringLiteral("events")).toDouble());
        // The placement was not dropped on the way: the tensor-parallel run of the same sweep differs.
        EXPECT_NE(s.allreducesPerStep, tpRuns[i].toObject().value(QStringLiteral("allreduces_per_step")).toInt());
        EXPECT_GT(allToAllKernels(*run.trace), 0);
    }
}

}  // namespace
}  // namespace tpscope::ui
