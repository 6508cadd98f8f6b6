// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Measured against a model in Compare (issue 13 part 2, issue 17 part 3): the residual chart plots
// measured - model per layer; "Simulate this configuration" runs the run's configuration through the
// window's sweep path and "What if on…" through core::sim::runWhatIf, and each opens Compare.

#include <qcustomplot.h>
#include <QAction>
#include <QItemSelectionModel>
#include <QSignalSpy>
#include <QTableView>

#include <gtest/gtest.h>

#include "compare_test_support.h"
#include "core/analysis/analysis.h"
#include "core/sim/whatif_report.h"
#include "ui/compare/compare_view.h"
#include "ui/compare/residual_page.h"
#include "ui/window/compare_controller.h"
#include "ui/window/runs_model.h"

namespace tpscope::ui {
namespace {

using core::analysis::TimeBreakdown;

struct MeasuredVsModel : test::AppGuard, ::testing::Test {};

// Mean per layer index of one part over steps and ranks, from core's layer table.
std::map<int, double> layerMeans(const core::analysis::RunAnalysis& a, std::int64_t TimeBreakdown::*part) {
    std::map<int, double> out;
    for (const auto& l : core::analysis::layerTable(a.breakdown)) out[l.layer] = l.mean(part);
    return out;
}

void expectResidualChartIsMeasuredMinusModel(const ResidualPage& page, const core::analysis::RunAnalysis& measured,
                                             const core::analysis::RunAnalysis& model) {
    const auto wallM = layerMeans(measured, &TimeBreakdown::wallNs), wallS = layerMeans(model, &TimeBreakdown::wallNs);
    const auto waitM = layerMeans(measured, &TimeBreakdown::exposedWaitNs),
               waitS = layerMeans(model, &TimeBreakdown::exposedWaitNs);
    const auto bars = page.wallBars()->data();
    ASSERT_EQ(static_cast<std::size_t>(bars->size()), std::min(wallM.size(), wallS.size()));
    double largest = 0;
    for (auto it = bars->constBegin(); it != bars->constEnd(); ++it) {
        const int layer = static_cast<int>(it->key);
        ASSERT_TRUE(wallM.count(layer) && wallS.count(layer)) << layer;
        EXPECT_DOUBLE_EQ(it->value, wallM.at(layer) - wallS.at(layer)) << "layer " << layer;
        largest = std::max(largest, std::abs(it->value));
    }
    EXPECT_GT(largest, 0.0);  // the two differ somewhere: the check above can tell
    const auto wait = page.partGraph(BreakdownPart::ExposedWait)->data();
    ASSERT_EQ(wait->size(), bars->size());
    for (auto it = wait->constBegin(); it != wait->constEnd(); ++it) {
        const int layer = static_cast<int>(it->key);
        EXPECT_DOUBLE_EQ(it->value, waitM.at(layer) - waitS.at(layer)) << "layer " << layer;
    }
    EXPECT_EQ(page.tableModel()->rowCount(), bars->size());
}

TEST_F(MeasuredVsModel, TheResidualChartIsMeasuredMinusSimulatedPerLayer) {
    const RunRecord measured = test::simulatedRecord(test::smallRequest(4), core::TraceOrigin::Imported);
    const RunRecord model = test::simulatedRecord(test::smallRequest(4, "pcie4"));
    CompareView view;
    view.resize(1200, 800);
    ASSERT_TRUE(
        view.setRuns({{measured.id, QStringLiteral("measured"), measured.trace, measured.timeline, measured.analysis},
                      {model.id, QStringLiteral("model"), model.trace, model.timeline, model.analysis}},
                     ResidualPair{0, 1})
            .ok());
    ASSERT_TRUE(view.hasResidual());
    expectResidualChartIsMeasuredMinusModel(*view.residualPage(), *measured.analysis, *model.analysis);
    // The other way round (model first in the panes), the residual is still measured - model.
    ASSERT_TRUE(
        view.setRuns({{model.id, QStringLiteral("model"), model.trace, model.timeline, model.analysis},
                      {measured.id, QStringLiteral("measured"), measured.trace, measured.timeline, measured.analysis}},
                     ResidualPair{1, 0})
            .ok());
    expectResidualChartIsMeasuredMinusModel(*view.residualPage(), *measured.analysis, *model.analysis);
    EXPECT_FALSE(view.setRuns({{}, {}}, ResidualPair{0, 0}).ok());
}

struct WindowWithMeasuredRun : MeasuredVsModel {
    WindowWithMeasuredRun() : window(defaultServices()) {
        window.setUnsavedPrompt([](QWidget*) { return QMessageBox::Discard; });
        measured = window.document()->add(test::simulatedRecord(test::smallRequest(4), core::TraceOrigin::Imported));
        window.selectRun(measured);
    }
    MainWindow window;
    RunId measured = RunId::None;
};

TEST_F(WindowWithMeasuredRun, SimulateThisConfigurationPrefillsFromTheTraceAndComparesWithTheResidual) {
    auto* controller = window.compareController();
    EXPECT_TRUE(controller->simulateAction()->isEnabled());
    QString note;
    RunConfigChoice choice = prefillFromRun(*window.document()->run(measured), window.catalog(), &note);
    // What the simulator wrote into the trace, not the window's request (an imported run has none).
    EXPECT_EQ(choice.modelId, "llama3-8b");
    EXPECT_EQ(choice.gpuId, "h100-sxm");
    EXPECT_EQ(choice.fabricId, "nvlink4");
    EXPECT_EQ(choice.tp, 4);
    EXPECT_EQ(choice.batch, 4);
    EXPECT_EQ(choice.contextLen, 512);
    EXPECT_TRUE(note.isEmpty()) << note.toStdString();
    choice.fabricId = "pcie4";  // the user's change in the dialog
    QSignalSpy shown(controller, &CompareController::comparisonShown);
    ASSERT_TRUE(controller->simulateConfiguration(measured, choice).ok());
    ASSERT_TRUE(shown.wait(120'000));
    ASSERT_EQ(window.document()->size(), 2u);
    // The document changed: its records are read again (run() pointers last until a change).
    const RunRecord& m = *window.document()->run(measured);
    const RunRecord& sim = window.document()->runs().back();
    EXPECT_EQ(sim.status, RunStatus::Done);
    EXPECT_EQ(sim.trace->origin, core::TraceOrigin::Simulated);
    EXPECT_EQ(sim.request.fabric.id, "pcie4");
    EXPECT_EQ(sim.request.tp, 4);
    EXPECT_EQ(sim.request.batch, 4);
    EXPECT_EQ(sim.request.contextLen, 512);
    CompareView* view = controller->view();
    ASSERT_EQ(view->paneCount(), 2);
    ASSERT_TRUE(view->hasResidual());
    expectResidualChartIsMeasuredMinusModel(*view->residualPage(), *m.analysis, *sim.analysis);
}

TEST_F(WindowWithMeasuredRun, WhatIfOnAnotherFabricAddsAPredictedRunAndComparesIt) {
    auto* controller = window.compareController();
    EXPECT_TRUE(controller->whatIfAction()->isEnabled());
    RunConfigChoice choice = prefillFromRun(*window.document()->run(measured), window.catalog());
    choice.fabricId = "pcie4";
    QSignalSpy shown(controller, &CompareController::comparisonShown);
    ASSERT_TRUE(controller->whatIf(measured, choice).ok());
    EXPECT_FALSE(controller->whatIf(measured, choice).ok());  // one replay at a time
    ASSERT_TRUE(shown.wait(120'000));
    ASSERT_EQ(window.document()->size(), 2u);
    const RunRecord& m = *window.document()->run(measured);
    const RunRecord& predicted = window.document()->runs().back();
    EXPECT_EQ(predicted.trace->origin, core::TraceOrigin::Predicted);
    EXPECT_TRUE(predicted.label().contains(QStringLiteral("pcie4"))) << predicted.label().toStdString();
    // The numbers of `tpscope-cli whatif` (core::sim::runWhatIf) on the same trace.
    core::sim::WhatIfOptions options;
    options.fabric = *window.catalog().fabric("pcie4");
    const auto expected = core::sim::runWhatIf(*m.trace, {}, options);
    ASSERT_TRUE(expected.ok());
    EXPECT_DOUBLE_EQ(predicted.analysis->summary.latencyMeanNs, expected->report.predictedStepNs);
    EXPECT_DOUBLE_EQ(m.analysis->summary.latencyMeanNs, expected->report.measuredStepNs);
    CompareView* view = controller->view();
    ASSERT_EQ(view->paneCount(), 2);
    ASSERT_TRUE(view->hasResidual());
    expectResidualChartIsMeasuredMinusModel(*view->residualPage(), *m.analysis, *predicted.analysis);
    // At another TP: the replay has that many ranks, its GEMMs scaled from the plan (core::sim::tpKernelScaling).
    choice.tp = 8;
    QSignalSpy again(controller, &CompareController::comparisonShown);
    ASSERT_TRUE(controller->whatIf(measured, choice).ok());
    ASSERT_TRUE(again.wait(120'000));
    ASSERT_EQ(window.document()->size(), 3u);
    const RunRecord& tp8 = window.document()->runs().back();
    EXPECT_EQ(tp8.trace->ranks.size(), 8u);
    EXPECT_TRUE(tp8.label().contains(QStringLiteral("at TP 8"))) << tp8.label().toStdString();
    // An unknown fabric is refused with its name.
    choice.fabricId = "no-such-fabric";
    const auto bad = controller->whatIf(measured, choice);
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().describe().find("no-such-fabric"), std::string::npos);
}

}  // namespace
}  // namespace tpscope::ui
