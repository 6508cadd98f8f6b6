// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Issue 26: the run panel chooses the host runtime profile (pytorch-eager, cpp-runtime, cuda-graphs)
// as `simulate --runtime` does; the choice reaches the simulator, the workspace and the report's
// first line, and settings of a build with the older "CUDA graphs" checkbox still restore.

#include <QComboBox>
#include <QSettings>
#include <QTemporaryDir>

#include <map>

#include <gtest/gtest.h>

#include "compare_test_support.h"
#include "core/hw/catalog.h"
#include "core/sim/sweep.h"
#include "ui/jobs/io_services.h"
#include "ui/jobs/sim_service.h"
#include "ui/report/report_runs.h"
#include "ui/report/sweep_report.h"
#include "ui/window/run_panel.h"
#include "ui_test_support.h"

namespace tpscope::ui {
namespace {

QString idOf(core::sim::Runtime runtime) {
    return QString::fromLatin1(core::sim::toString(runtime));
}

struct RunPanelRuntime : test::AppGuard, ::testing::Test {
    core::Catalog catalog = *core::Catalog::load();
    RunPanel panel{catalog, LocalBackendInfo{}};
    QComboBox* combo() const { return panel.findChild<QComboBox*>(QStringLiteral("runtime")); }
};

TEST_F(RunPanelRuntime, OffersEveryProfileAndStartsOnTheEmbeddedDefaults) {
    ASSERT_NE(combo(), nullptr);
    ASSERT_EQ(combo()->count(), static_cast<int>(std::size(core::sim::kRuntimes)));
    for (const auto runtime : core::sim::kRuntimes) EXPECT_GE(combo()->findData(idOf(runtime)), 0);
    panel.setDefaults();
    const auto spec = core::sim::defaultSweepSpec(catalog);
    ASSERT_TRUE(spec.ok());
    const auto request = panel.sweepRequest();
    ASSERT_TRUE(request.ok()) << request.error().describe();
    EXPECT_EQ(request->base.runtime, spec->params.effectiveRuntime());
    // defaultSweepRequest (the window's first sweep) agrees with the panel's defaults.
    const auto sweep = defaultSweepRequest(catalog, 2.5);
    ASSERT_TRUE(sweep.ok());
    EXPECT_EQ(sweep->base.runtime, spec->params.effectiveRuntime());
}

TEST_F(RunPanelRuntime, TheChosenProfileIsWhatTheSimulatorRuns) {
    panel.setDefaults();
    std::map<core::sim::Runtime, double> stepNs;
    for (const auto runtime : core::sim::kRuntimes) {
        combo()->setCurrentIndex(combo()->findData(idOf(runtime)));
        const auto request = panel.sweepRequest();
        ASSERT_TRUE(request.ok()) << request.error().describe();
        ASSERT_EQ(request->base.runtime, runtime);
        EXPECT_EQ(sweepSpecOf(*request).params.effectiveRuntime(), runtime);
        // One small run of that request: the trace names the profile, and the profiles' host costs
        // give different steps (a small model at TP 8 is host-bound unless graphs replay it).
        RunRequest small = test::smallRequest(8);
        small.runtime = request->base.runtime;
        const RunRecord run = test::simulatedRecord(small);
        ASSERT_TRUE(run.trace);
        EXPECT_EQ(run.trace->metadataValue("runtime"), core::sim::toString(runtime));
        ASSERT_GT(run.metrics.stepLatencyNs, 0);
        stepNs[runtime] = run.metrics.stepLatencyNs;
        EXPECT_TRUE(small.backendText().contains(idOf(runtime))) << small.backendText().toStdString();
    }
    // Graphs < C++ runtime < eager (the sanity order of issue 26's acceptance).
    EXPECT_LT(stepNs[core::sim::Runtime::CudaGraphs], stepNs[core::sim::Runtime::CppRuntime]);
    EXPECT_LT(stepNs[core::sim::Runtime::CppRuntime], stepNs[core::sim::Runtime::PytorchEager]);
}

TEST_F(RunPanelRuntime, SettingsKeepTheProfileAndReadTheOlderGraphsCheckbox) {
    QTemporaryDir dir;
    panel.setDefaults();
    combo()->setCurrentIndex(combo()->findData(idOf(core::sim::Runtime::CppRuntime)));
    QSettings saved(dir.filePath(QStringLiteral("saved.ini")), QSettings::IniFormat);
    panel.saveSettings(saved);
    combo()->setCurrentIndex(0);
    panel.restoreSettings(saved);
    ASSERT_TRUE(panel.sweepRequest().ok());
    EXPECT_EQ(panel.sweepRequest()->base.runtime, core::sim::Runtime::CppRuntime);

    for (const bool graphs : {true, false}) {
        // An older build's settings: everything the panel saves, with the checkbox for the runtime.
        QSettings old(dir.filePath(QStringLiteral("old%1.ini").arg(graphs)), QSettings::IniFormat);
        panel.saveSettings(old);
        old.remove(QStringLiteral("runPanel/runtime"));
        old.setValue(QStringLiteral("runPanel/graphs"), graphs);
        panel.restoreSettings(old);
        const auto request = panel.sweepRequest();
        ASSERT_TRUE(request.ok()) << request.error().describe();
        EXPECT_EQ(request->base.runtime, graphs ? core::sim::Runtime::CudaGraphs : core::sim::Runtime::PytorchEager);
    }
}

TEST(RunRuntimeWorkspace, TheProfileSurvivesAWorkspaceRoundTripAndOlderFilesReadTheirSwitch) {
    for (const auto runtime : core::sim::kRuntimes) {
        RunRecord run;
        run.request.runtime = runtime;
        core::Run stored;
        stored.info = runInfoOf(run);
        EXPECT_EQ(runRecordOf(stored, QString()).request.runtime, runtime);
        // A workspace of a GUI before the runtime choice: only cuda_graphs.
        std::erase_if(stored.info.spec, [](const auto& kv) { return kv.first == "runtime"; });
        EXPECT_EQ(runRecordOf(stored, QString()).request.runtime, runtime == core::sim::Runtime::CudaGraphs
                                                                      ? core::sim::Runtime::CudaGraphs
                                                                      : core::sim::Runtime::PytorchEager);
    }
}

TEST(RunRuntimeReport, TheEmbeddedDefaultsReportNamesItsProfileInTheFirstLine) {
    test::ensureApp();
    const auto spec = core::sim::defaultSweepSpec(*core::Catalog::load());
    ASSERT_TRUE(spec.ok());
    const auto runs = loadDefaultReportRuns();
    ASSERT_TRUE(runs.ok()) << runs.error().describe();
    const QString expected =
        QStringLiteral("tpscope report: the embedded default sweep, runtime ") + idOf(spec->params.effectiveRuntime());
    EXPECT_EQ(runs->context.title, expected);
    // Several profiles: each named once, in the profiles' order.
    EXPECT_EQ(titleWithRuntimes(QStringLiteral("t"), {core::sim::Runtime::CudaGraphs, core::sim::Runtime::PytorchEager,
                                                      core::sim::Runtime::CudaGraphs}),
              QStringLiteral("t, runtimes pytorch-eager, cuda-graphs"));
    EXPECT_EQ(titleWithRuntimes(QStringLiteral("t"), {}), QStringLiteral("t"));
}

}  // namespace
}  // namespace tpscope::ui
