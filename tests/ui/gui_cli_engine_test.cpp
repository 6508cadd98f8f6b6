// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// The run panel's all-reduce engine reaches the simulator through the same core path as the CLI
// (issue 12 §2): a sweep run in the window with the engine chosen in the panel equals
// `tpscope-cli simulate --json --allreduce ENGINE` run by run, and differs from NCCL's (so the
// choice is not dropped on the way). The panel is set through its own settings (restoreSettings).

#include <QComboBox>
#include <QJsonArray>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include "core/sim/allreduce_engine.h"
#include "run_panel_settings.h"
#include "test_support.h"
#include "tests/ui/json_numbers.h"
#include "ui/document/run_document.h"
#include "ui/jobs/io_services.h"
#include "ui/window/main_window.h"
#include "ui/window/run_panel.h"
#include "ui_test_support.h"

namespace tpscope::ui {
namespace {

constexpr const char* kEngine = "vllm-custom-ar";
const std::string kCliArgs =
    "simulate --json --model llama3-8b --gpu h100-sxm --fabric nvlink4 --nodes 1 --gpus-per-node 8 --tp 2,4 "
    "--batch 1 --tokens 2 --context 256 --dtype fp16 --seed 1 --runtime pytorch-eager";  // the panel: graphs off

void setPanel(RunPanel& panel, const QString& dir) {
    test::restoreRunPanel(panel, dir,
                          {{QStringLiteral("model"), QStringLiteral("llama3-8b")},
                           {QStringLiteral("tp"), QStringList{QStringLiteral("2"), QStringLiteral("4")}},
                           {QStringLiteral("batches"), QStringLiteral("1")},
                           {QStringLiteral("overlap"), false},
                           {QStringLiteral("graphs"), false},
                           {QStringLiteral("allReduceEngine"), QString::fromLatin1(kEngine)},
                           {QStringLiteral("price"), 2.5}});
}

TEST(GuiCliEngine, TheRunPanelsEngineEqualsSimulateAllreduceJson) {
    test::ensureApp();
    QTemporaryDir dir;
    MainWindow window(defaultServices());
    window.setUnsavedPrompt([](QWidget*) { return QMessageBox::Discard; });
    setPanel(*window.runPanel(), dir.path());
    const auto* combo = window.runPanel()->findChild<QComboBox*>(QStringLiteral("allReduceEngine"));
    ASSERT_NE(combo, nullptr);
    EXPECT_EQ(combo->count(), static_cast<int>(core::sim::allReduceEngines().size()));
    EXPECT_EQ(combo->currentData().toString(), QString::fromLatin1(kEngine));
    const auto request = window.runPanel()->sweepRequest();
    ASSERT_TRUE(request.ok()) << request.error().describe();
    EXPECT_EQ(request->base.allReduceEngine, core::sim::AllReduceEngine::VllmCustomAr);

    QSignalSpy finished(&window, &MainWindow::sweepFinished);
    ASSERT_TRUE(window.startSweep());
    ASSERT_TRUE(finished.wait(60'000));
    const auto& runs = window.document()->runs();
    ASSERT_EQ(runs.size(), 2u);

    const auto cli = test::runCli(kCliArgs + " --allreduce " + kEngine);
    ASSERT_EQ(cli.exitCode, 0) << cli.out;
    const auto json = test::parseJson(cli.out);
    EXPECT_EQ(json.value(QStringLiteral("allreduce_engine")).toString(), QString::fromLatin1(kEngine));
    const auto nccl = test::parseJson(test::runCli(kCliArgs + " --allreduce nccl").out);
    const auto cliRuns = json.value(QStringLiteral("runs")).toArray();
    const auto ncclRuns = nccl.value(QStringLiteral("runs")).toArray();
    ASSERT_EQ(cliRuns.size(), 2);
    ASSERT_EQ(ncclRuns.size(), 2);
    for (int i = 0; i < 2; ++i) {
        const auto c = cliRuns[i].toObject();
        const auto& run = runs[static_cast<std::size_t>(i)];
        ASSERT_EQ(run.status, RunStatus::Done) << run.error.toStdString();
        ASSERT_EQ(run.request.tp, c.value(QStringLiteral("tp")).toInt());
        ASSERT_TRUE(run.simStats.has_value());
        const auto& s = *run.simStats;
        EXPECT_EQ(s.meanStepNs, c.value(QStringLiteral("step_latency_ns")).toDouble()) << "TP " << run.request.tp;
        EXPECT_EQ(s.allreduceKernelNsPerStep, c.value(QStringLiteral("allreduce_time_ns_per_step")).toDouble());
        EXPECT_EQ(s.allreduceTransferNsPerStep, c.value(QStringLiteral("allreduce_transfer_ns_per_step")).toDouble());
        EXPECT_EQ(s.exposedCommNsPerStep, c.value(QStringLiteral("exposed_comm_ns_per_step")).toDouble());
        // The engine changed the all-reduce: NCCL's run of the same plan differs.
        EXPECT_NE(s.allreduceKernelNsPerStep,
                  ncclRuns[i].toObject().value(QStringLiteral("allreduce_time_ns_per_step")).toDouble());
        EXPECT_TRUE(run.request.backendText().contains(QString::fromLatin1(kEngine)));
    }
}

// Saved and reopened, a run keeps its engine; a workspace without the key (made by the CLI) takes
// it from the simulated trace's metadata.
TEST(GuiCliEngine, TheEngineSurvivesAWorkspaceRoundTrip) {
    RunRecord run;
    run.request.allReduceEngine = core::sim::AllReduceEngine::SymmMem;
    core::Run stored;
    stored.info = runInfoOf(run);
    EXPECT_EQ(runRecordOf(stored, QString()).request.allReduceEngine, core::sim::AllReduceEngine::SymmMem);

    std::erase_if(stored.info.spec, [](const auto& kv) { return kv.first == "allreduce_engine"; });
    EXPECT_EQ(runRecordOf(stored, QString()).request.allReduceEngine, core::sim::AllReduceEngine::Nccl);
    auto trace = std::make_shared<core::Trace>();
    trace->metadata.emplace_back("allreduce_engine", "trtllm");
    stored.trace = trace;
    EXPECT_EQ(runRecordOf(stored, QString()).request.allReduceEngine, core::sim::AllReduceEngine::TrtLlm);
}

}  // namespace
}  // namespace tpscope::ui
