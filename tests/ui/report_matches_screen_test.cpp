// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Issue 28 §1: one source for each number. The report and the screen give the same advice, price and
// scaling numbers for the same runs; an imported trace of unknown batch is neither charted nor
// reported at an assumed batch 1; core's notes sit beside the numbers; the Cost caption names a
// scaling error instead of asking for a price.
#include <QDoubleSpinBox>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QTabWidget>

#include <gtest/gtest.h>

#include <algorithm>

#include "core/util/units.h"
#include "tests/synthetic_trace.h"
#include "tests/ui/charts/chart_fixture.h"
#include "tests/ui/ui_test_support.h"
#include "ui/charts/chart_set.h"
#include "ui/document/run_document.h"
#include "ui/jobs/services.h"
#include "ui/planning/advice_page.h"
#include "ui/report/sweep_report.h"
#include "ui/window/chart_tabs.h"
#include "ui/window/main_window.h"
#include "ui/window/planning_tabs.h"
#include "ui/window/report_export.h"
#include "ui/window/run_panel.h"
#include "ui/window/runs_model.h"

namespace tpscope::ui {
namespace {

constexpr int kWaitMs = 120'000;

struct ReportAndScreen : test::AppGuard, ::testing::Test {
    MainWindow window{defaultServices()};
    ReportAndScreen() {
        window.setUnsavedPrompt([](QWidget*) { return QMessageBox::Discard; });
        QSignalSpy finished(&window, &MainWindow::sweepFinished);
        window.startDefaultSweep();
        EXPECT_TRUE(finished.wait(kWaitMs));
    }
    ChartSet* charts() const { return window.chartTabs()->charts(); }
    QString reportHtml() const { return reportSummaryHtml(window.reportExport()->reportContext(), *charts()); }
    // The text between a heading of the report and the next one.
    static QString section(const QString& html, const QString& heading) {
        const qsizetype at = html.indexOf(QStringLiteral("<h2>%1</h2>").arg(heading));
        if (at < 0) return {};
        const qsizetype end = html.indexOf(QStringLiteral("<h2>"), at + 4);
        return html.mid(at, end < 0 ? -1 : end - at);
    }
};

TEST_F(ReportAndScreen, TheReportSaysWhatTheAdvicePriceAndCostTabsShow) {
    // The user's own threshold on the Advice tab and price on the Cost tab, as typed there.
    auto* advice = window.planningTabs()->advice();
    auto* threshold = advice->findChild<QDoubleSpinBox*>();
    ASSERT_NE(threshold, nullptr);
    threshold->setValue(0.5);
    auto* costPrice = charts()->cost()->findChild<QDoubleSpinBox*>(QStringLiteral("costPrice"));
    ASSERT_NE(costPrice, nullptr);
    costPrice->setValue(3.75);
    // One price: the run panel shows what the Cost tab holds.
    EXPECT_DOUBLE_EQ(window.runPanel()->pricePerGpuHour(), 3.75);

    const QString html = reportHtml();
    EXPECT_TRUE(html.contains(QStringLiteral("Price $3.75 per GPU-hour"))) << html.toStdString();
    // Advice: the Advice tab's rows, each sentence, and no other (memory fit and threshold included).
    const QString adviceHtml = section(html, QStringLiteral("Advice"));
    const auto* rows = advice->table();
    ASSERT_GT(rows->rowCount(), 0);
    EXPECT_EQ(adviceHtml.count(QStringLiteral("<li>")), rows->rowCount()) << adviceHtml.toStdString();
    for (int r = 0; r < rows->rowCount(); ++r) {
        const QString text = rows->data(rows->index(r, AdvicePage::Text)).toString();
        EXPECT_TRUE(adviceHtml.contains(text.toHtmlEscaped())) << text.toStdString();
    }
    // Scaling and cost: each tokens/s of the runs table and each $/Mtok of the Cost tab is in the report.
    const auto* model = window.runsModel();
    int withThroughput = 0;
    for (int r = 0; r < model->rowCount(); ++r) {
        const QString tps = model->data(model->index(r, RunsModel::TokensPerSec), Qt::DisplayRole).toString();
        if (tps.isEmpty()) continue;
        ++withThroughput;
        EXPECT_TRUE(html.contains(QStringLiteral(">%1<").arg(tps))) << tps.toStdString();
    }
    EXPECT_EQ(withThroughput, static_cast<int>(charts()->controller()->input().points.size()));
    const auto* cost = charts()->cost()->tableModel();
    ASSERT_GT(cost->rowCount(), 0);
    for (int r = 0; r < cost->rowCount(); ++r) {
        const QString dollars = cost->data(cost->index(r, 4)).toString();
        EXPECT_TRUE(dollars.startsWith(QLatin1Char('$'))) << dollars.toStdString();
        EXPECT_TRUE(html.contains(QStringLiteral(">%1<").arg(dollars.toHtmlEscaped()))) << dollars.toStdString();
    }
    EXPECT_TRUE(section(html, QStringLiteral("Cost")).contains(charts()->cost()->highlightText().toHtmlEscaped()));
}

TEST_F(ReportAndScreen, TheReportListsTheRunThatDoesNotFitApartFromFailures) {
    // The default sweep's TP 1 does not fit one GPU: the report says so under its own heading, in
    // the runs table's words, and not among the runs that failed (issue 45 §3).
    const auto& runs = window.document()->runs();
    const auto tp1 = std::find_if(runs.begin(), runs.end(), [](const RunRecord& r) { return r.request.tp == 1; });
    ASSERT_NE(tp1, runs.end());
    ASSERT_EQ(tp1->status, RunStatus::DoesNotFit);
    const QString html = reportHtml();
    const QString line = (tp1->label() + QStringLiteral(": ") + tp1->error).toHtmlEscaped();
    const qsizetype heading = html.indexOf(QStringLiteral("Configurations that do not fit the GPU memory"));
    ASSERT_GE(heading, 0) << html.toStdString();
    EXPECT_GT(html.indexOf(line), heading) << html.toStdString();
    EXPECT_FALSE(html.contains(QStringLiteral("Runs that did not finish"))) << html.toStdString();
}

TEST_F(ReportAndScreen, NoPriceIsNoPriceOnEveryViewAndInTheReport) {
    window.runPanel()->setPricePerGpuHour(0);
    EXPECT_DOUBLE_EQ(charts()->controller()->pricePerGpuHour(), 0.0);
    EXPECT_DOUBLE_EQ(charts()->cost()->pricePerGpuHour(), 0.0);
    const auto* cost = charts()->cost()->tableModel();
    ASSERT_GT(cost->rowCount(), 0);
    for (int r = 0; r < cost->rowCount(); ++r) EXPECT_EQ(cost->data(cost->index(r, 4)).toString(), QStringLiteral("—"));
    const QString html = reportHtml();
    EXPECT_TRUE(html.contains(QStringLiteral("No price per GPU-hour"))) << html.toStdString();
    EXPECT_FALSE(section(html, QStringLiteral("Runs")).contains(QStringLiteral("\">$"))) << "no cell in dollars";
    ASSERT_TRUE(window.planningTabs()->currentAdvice().ok());
    EXPECT_DOUBLE_EQ(window.planningTabs()->currentAdvice()->scaling.pricePerGpuHour, 0.0);
}

struct OneSourceCharts : test::AppGuard, ::testing::Test {
    ChartSet charts;
};

TEST_F(OneSourceCharts, AnImportedTraceOfUnknownBatchIsNotScaledAtAnAssumedBatchAndTheNotesSayWhy) {
    RunDocument doc;
    RunsModel table(&doc);
    RunRecord run;
    run.request.backend = BackendKind::Imported;
    run.request.batch = 0;
    run.status = RunStatus::Done;
    run.source = QStringLiteral("/traces/rank-folder");
    run.trace = test::makeSyntheticTrace({});  // no "batch" in its metadata
    deriveRunData(run);
    ASSERT_FALSE(run.analysis->summary.batchKnown);
    const RunId id = doc.add(run);
    charts.controller()->setPricePerGpuHour(2.0);
    charts.controller()->setInput(scalingInputOf(doc.runs(), id));
    // The table shows no tokens/s; neither do the charts, the cost or the report.
    EXPECT_TRUE(table.data(table.index(0, RunsModel::TokensPerSec), Qt::DisplayRole).toString().isEmpty());
    EXPECT_TRUE(charts.controller()->input().points.empty());
    ASSERT_TRUE(charts.controller()->scaling().ok());
    EXPECT_TRUE(charts.controller()->scaling()->batches.empty());
    EXPECT_TRUE(charts.controller()->candidates().empty());
    // The run is still on the Layers tab, with core's notes beside it.
    ASSERT_NE(charts.controller()->currentChartRun(), nullptr);
    EXPECT_EQ(charts.controller()->currentChartRun()->id, id);
    for (const auto& note : run.analysis->notes)
        EXPECT_TRUE(charts.layers()->notes().contains(QString::fromStdString(note))) << note;
    EXPECT_TRUE(charts.scaling()->notes().contains(QStringLiteral("batch size is unknown")))
        << charts.scaling()->notes().toStdString();
    EXPECT_EQ(charts.cost()->notes(), charts.scaling()->notes());
    const QString html = reportSummaryHtml(ReportContext{}, charts);
    EXPECT_FALSE(html.contains(QStringLiteral("rank-folder</td>"))) << "no scaling row at an assumed batch";
    EXPECT_TRUE(html.contains(QStringLiteral("batch size is unknown"))) << html.toStdString();
    // Issue 43 §4: the run still has its row, "—" for what is unknown and the reason beside its name,
    // and the report opens with core's finding that the trace was not understood.
    const QString label = run.label().toHtmlEscaped();
    EXPECT_TRUE(html.contains(label + QStringLiteral("<br/><i>batch size unknown (--batch N)"))) << html.toStdString();
    EXPECT_TRUE(html.contains(QStringLiteral("<td align=\"right\">—</td>"))) << html.toStdString();
    ASSERT_FALSE(run.analysis->understanding.understood());
    const auto notUnderstood = html.indexOf(QStringLiteral("not understood"));
    EXPECT_GE(notUnderstood, 0) << html.toStdString();
    EXPECT_LT(notUnderstood, html.indexOf(QStringLiteral("<h2>Runs</h2>")));
    EXPECT_TRUE(html.contains(QStringLiteral("--batch N")));
}

TEST_F(OneSourceCharts, TheCostCaptionNamesTheScalingErrorNotThePrice) {
    // Two runs at the same GPUs and batch: core's scaling refuses them.
    auto runs = test::smallSweep().runs;
    ASSERT_GE(runs.size(), 1u);
    ChartRun twin = runs.front();
    twin.id = static_cast<RunId>(999);
    runs.push_back(twin);
    charts.controller()->setPricePerGpuHour(2.0);
    charts.controller()->setRuns(runs);
    ASSERT_FALSE(charts.controller()->scaling().ok());
    const QString why = QString::fromStdString(charts.controller()->scaling().error().describe());
    EXPECT_EQ(charts.cost()->highlightText(), why);
    EXPECT_FALSE(charts.cost()->highlightText().contains(QStringLiteral("price")));
}

}  // namespace
}  // namespace tpscope::ui
