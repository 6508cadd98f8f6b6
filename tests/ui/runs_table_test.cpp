// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// The runs table and the run panel as a user sees them (issue 11 §1.4 and §5): the inline step bar
// carries core's loss breakdown and paints it in proportion, the Run column has room for the name,
// and the panel says which run is on screen: an opened trace by what the trace says.

#include <QHeaderView>
#include <QImage>
#include <QLabel>
#include <QTableView>

#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "core/analysis/analysis.h"
#include "core/hw/catalog.h"
#include "core/util/units.h"
#include "ui/charts/breakdown_palette.h"
#include "ui/charts/step_bar_delegate.h"
#include "ui/document/run_document.h"
#include "ui/jobs/services.h"
#include "ui/timeline/time_ruler.h"
#include "ui/timeline/timeline_panel.h"
#include "ui/window/main_window.h"
#include "ui/window/run_panel.h"
#include "ui/window/runs_model.h"
#include "ui_test_support.h"

namespace tpscope::ui {
namespace {

// A simulated TP 2 run of Llama-3 8B at batch 4, analysed the way the window's workers do.
RunRecord simulatedRun() {
    auto catalog = core::Catalog::builtin();
    EXPECT_TRUE(catalog.ok());
    RunRecord r;
    r.request.model = *catalog->model("llama3-8b");
    r.request.gpu = *catalog->gpu("h100-sxm");
    r.request.fabric = *catalog->fabric("nvlink4");
    r.request.tp = 2;
    r.request.batch = 4;
    r.request.tokens = 3;
    r.request.contextLen = 256;
    auto trace = test::simulateRun(r.request);
    EXPECT_TRUE(trace.ok()) << (trace.ok() ? "" : trace.error().describe());
    r.trace = *trace;
    r.status = RunStatus::Done;
    r.sweep = 1;
    deriveRunData(r);
    return r;
}

struct RunsTableFixture : test::AppGuard, ::testing::Test {};

// The window as a user has it on screen, with nothing run yet.
struct RunsWindowFixture : RunsTableFixture {
    MainWindow window{defaultServices()};
    RunsWindowFixture() {
        window.setUnsavedPrompt([](QWidget*) { return QMessageBox::Discard; });
        window.resize(1600, 1000);
        window.show();
    }
};

TEST_F(RunsTableFixture, StepBreakdownRoleIsTheCoreAnalysisOfASimulatedRun) {
    RunDocument doc;
    RunsModel model(&doc);
    const RunId id = doc.add(simulatedRun());
    const RunRecord& run = *doc.run(id);
    // Asked of core afresh, not read back from the record.
    core::analysis::AnalysisOptions options;
    options.batch = run.request.batch;
    const auto expected = core::analysis::analyzeTrace(*run.trace, options).summary;
    const QModelIndex cell = model.index(model.rowOf(id), RunsModel::StepBreakdown);
    const QVariant value = model.data(cell, RunsModel::LossRole);
    ASSERT_TRUE(value.canConvert<core::analysis::LossBreakdown>());
    const auto loss = value.value<core::analysis::LossBreakdown>();
    EXPECT_DOUBLE_EQ(loss.compute, expected.loss.compute);
    EXPECT_DOUBLE_EQ(loss.transfer, expected.loss.transfer);
    EXPECT_DOUBLE_EQ(loss.syncWait, expected.loss.syncWait);
    EXPECT_DOUBLE_EQ(loss.imbalance, expected.loss.imbalance);
    EXPECT_DOUBLE_EQ(loss.idle, expected.loss.idle);
    EXPECT_GT(loss.transfer, 0.0) << "TP 2 communicates";
    // The tooltip names each part with its share (core's formatter) and the mean step, with units.
    const QString tip = model.data(cell, Qt::ToolTipRole).toString();
    for (const auto& [part, share] : StepBarDelegate::segments(expected.loss)) {
        const QString expectedLine =
            QStringLiteral("%1: %2").arg(breakdownLabel(part), QString::fromStdString(core::formatPercent(share)));
        EXPECT_TRUE(tip.contains(expectedLine)) << tip.toStdString() << "\nmissing: " << expectedLine.toStdString();
    }
    EXPECT_TRUE(tip.contains(formatDuration(expected.latencyMeanNs))) << tip.toStdString();
    // Only that column carries it; a run without an analysis has none.
    EXPECT_FALSE(model.data(model.index(0, RunsModel::Tp), RunsModel::LossRole).isValid());
    const RunId pending = doc.add(RunRecord{});
    EXPECT_FALSE(
        model.data(model.index(model.rowOf(pending), RunsModel::StepBreakdown), RunsModel::LossRole).isValid());
}

TEST_F(RunsWindowFixture, TheWindowsTablePaintsTheStepBarInProportion) {
    const RunId id = window.document()->add(simulatedRun());
    QTableView* table = window.runsTable();
    ASSERT_NE(dynamic_cast<StepBarDelegate*>(table->itemDelegateForColumn(RunsModel::StepBreakdown)), nullptr);
    table->scrollTo(table->model()->index(0, RunsModel::StepBreakdown));
    table->clearSelection();
    QApplication::processEvents();
    const auto& loss = window.document()->run(id)->analysis->summary.loss;
    const QRect cell = table->visualRect(table->model()->index(0, RunsModel::StepBreakdown));
    ASSERT_GE(cell.width(), 90);
    const QImage image = table->viewport()->grab().toImage();
    // The delegate's bar: the cell less 3 px left and right, parts left to right at cumulative shares.
    const QRectF bar = QRectF(cell).adjusted(3, 4, -3, -4);
    double total = 0;
    for (const auto& [part, share] : StepBarDelegate::segments(loss)) total += std::max(0.0, share);
    double cumulative = 0;
    int probed = 0;
    for (const auto& [part, share] : StepBarDelegate::segments(loss)) {
        const double x0 = bar.left() + bar.width() * cumulative / total;
        cumulative += std::max(0.0, share);
        const double x1 = bar.left() + bar.width() * cumulative / total;
        if (x1 - x0 < 4) continue;  // too thin to probe without touching a neighbour
        const int x = static_cast<int>(std::floor((x0 + x1) / 2));
        EXPECT_EQ(image.pixelColor(x, static_cast<int>(bar.center().y())), breakdownColor(part))
            << breakdownLabel(part).toStdString() << " at x " << x;
        ++probed;
    }
    EXPECT_GE(probed, 2);
}

TEST_F(RunsWindowFixture, TheRunColumnHasRoomForTheNameAndItsTooltipHoldsIt) {
    RunRecord imported = simulatedRun();
    imported.request.backend = BackendKind::Imported;
    imported.source = QStringLiteral("/data/traces/param-dlrm_kineto-8rank");
    window.document()->add(imported);
    RunRecord failed;
    failed.request = imported.request;
    failed.request.backend = BackendKind::SimulatedCluster;
    failed.status = RunStatus::Failed;
    failed.error = QStringLiteral("does not fit: needs 141 GB per GPU of 77 GB usable on H100 SXM5 (short by 64 GB)");
    window.document()->add(failed);
    QApplication::processEvents();
    QTableView* table = window.runsTable();
    const QString name = QStringLiteral("param-dlrm_kineto-8rank");
    const auto* model = window.runsModel();
    EXPECT_EQ(model->data(model->index(0, RunsModel::Name), Qt::DisplayRole).toString(), name);
    EXPECT_GE(table->horizontalHeader()->sectionSize(RunsModel::Name), table->fontMetrics().horizontalAdvance(name));
    // Status keeps a fixed width: a long failure reason does not push the name out.
    EXPECT_LT(table->horizontalHeader()->sectionSize(RunsModel::Status),
              table->fontMetrics().horizontalAdvance(failed.error));
    const QString tip = model->data(model->index(0, RunsModel::Name), Qt::ToolTipRole).toString();
    EXPECT_TRUE(tip.contains(name));
    EXPECT_TRUE(tip.contains(imported.source));
}

TEST_F(RunsWindowFixture, ThePanelDescribesAnOpenedTraceByWhatTheTraceSays) {
    QApplication::processEvents();  // laid out with no run shown: the box is one line high
    auto trace = std::make_shared<core::Trace>(*test::makeTrace(4, {{0, 5000, core::EventKind::Gemm, "gemm"}}, {}));
    for (auto& rank : trace->ranks) rank.deviceName = "NVIDIA A100-SXM4-40GB";
    trace->origin = core::TraceOrigin::Imported;
    trace->metadata = {{"model", "llama3-8b"}};
    const auto doc = importedTraceDocument(QStringLiteral("/data/run-a100.json"), trace);
    const RunId id = window.document()->add(doc.runs.front());
    window.selectRun(id);
    const QString html = window.runPanel()->shownRunHtml();
    EXPECT_TRUE(html.contains(QStringLiteral("4 × NVIDIA A100-SXM4-40GB"))) << html.toStdString();
    EXPECT_TRUE(html.contains(QStringLiteral("llama3-8b")));
    EXPECT_TRUE(html.contains(QStringLiteral("imported")));
    EXPECT_TRUE(html.contains(QStringLiteral("run-a100.json")));
    EXPECT_TRUE(html.contains(QStringLiteral("do not describe this run")));
    // On screen in full once the window has laid itself out (not cut to the title line).
    QApplication::processEvents();
    const auto* label = window.runPanel()->findChild<QLabel*>(QStringLiteral("shownRun"));
    ASSERT_NE(label, nullptr);
    EXPECT_GE(label->height(), label->heightForWidth(label->width()));
    const auto* box = qobject_cast<const QWidget*>(label->parent());
    ASSERT_NE(box, nullptr);
    EXPECT_GE(box->height(), box->minimumSizeHint().height());
    // Not the panel's simulated cluster (H100 SXM over NVLink 4 by default).
    const auto request = window.runPanel()->sweepRequest();
    ASSERT_TRUE(request.ok());
    EXPECT_FALSE(html.contains(QString::fromStdString(request->base.gpu.name))) << html.toStdString();
    EXPECT_FALSE(html.contains(request->base.backendText()));

    // A simulated run is described by its request, and says nothing about a trace file.
    const RunId sim = window.document()->add(simulatedRun());
    window.selectRun(sim);
    const QString simHtml = window.runPanel()->shownRunHtml();
    EXPECT_TRUE(simHtml.contains(window.document()->run(sim)->request.backendText().toHtmlEscaped()))
        << simHtml.toStdString();
    EXPECT_TRUE(simHtml.contains(QString::fromStdString(window.document()->run(sim)->request.model.name)));
    EXPECT_FALSE(simHtml.contains(QStringLiteral("do not describe")));
}

TEST_F(RunsWindowFixture, ARunOpensOnOneWholeStepOfItsAnalysis) {
    const RunId id = window.document()->add(simulatedRun());
    window.selectRun(id);
    const RunRecord& run = *window.document()->run(id);
    const auto& steps = run.analysis->summary.steps;
    ASSERT_GE(steps.size(), 2u);
    const TimelineView* view = window.timelinePanel()->view();
    ASSERT_EQ(view->trace(), run.trace.get());
    // The second (warm) step, start to end, as core measured it.
    EXPECT_EQ(view->viewStartNs(), steps[1].startNs);
    EXPECT_EQ(view->viewEndNs(), steps[1].startNs + steps[1].latencyNs);
    EXPECT_LT(view->viewEndNs() - view->viewStartNs(), run.trace->endNs() - run.trace->startNs());
}

}  // namespace
}  // namespace tpscope::ui
