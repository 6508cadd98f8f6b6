// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/window/runs_model.h"

#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>

#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "core/analysis/scaling.h"
#include "ui/document/run_scaling.h"
#include "ui/jobs/services.h"
#include "ui_test_support.h"

namespace tpscope::ui {
namespace {

// A finished simulated-looking run whose analysis is real (core::analyzeTrace on a small trace with
// NVTX steps of `stepNs`), so efficiency comes from core's scaling.
RunRecord done(int tp, int batch, std::int64_t stepNs, int sweep = 1) {
    auto trace = std::make_shared<core::Trace>();
    for (int r = 0; r < tp; ++r) {
        auto& rank = trace->rank(core::RankId{static_cast<std::uint32_t>(r)});
        rank.ranges = {{0, stepNs, trace->intern("step 0"), 0}, {stepNs, 2 * stepNs, trace->intern("step 1"), 0}};
        rank.stream(core::StreamId{7}, "compute")
            .events.append({0, stepNs / 2, trace->intern("gemm"), core::EventKind::Gemm, 0, core::kNoPayload});
    }
    trace->finalize();
    RunRecord r;
    r.request.model.id = "m";
    r.request.gpu.id = "g";
    r.request.fabric.id = "f";
    r.request.tp = tp;
    r.request.batch = batch;
    r.sweep = sweep;
    r.status = RunStatus::Done;
    r.trace = trace;
    deriveRunData(r);
    return r;
}

TEST(RunsModel, EfficiencyIsCoreScalingOfTheRunsSweep) {
    RunDocument doc;
    RunsModel model(&doc);
    const RunId tp1 = doc.add(done(1, 1, 1000));
    const RunId tp2 = doc.add(done(2, 1, 600));
    const RunId other = doc.add(done(4, 1, 400, 2));  // another sweep: its own baseline
    const auto input = scalingInputOf(doc.runs(), tp1);
    const auto report = scalingOfGroup(doc.runs(), tp1);
    ASSERT_TRUE(report.ok()) << report.error().describe();
    const auto* row = scalingRowOf(*report, input, tp2);
    ASSERT_NE(row, nullptr);
    // speedup = (batch / 600 ns) / (batch / 1000 ns); efficiency = speedup / (2 / 1).
    EXPECT_NEAR(row->efficiency, (1000.0 / 600.0) / 2.0, 1e-12);
    EXPECT_DOUBLE_EQ(model.efficiency(tp2), row->efficiency);
    EXPECT_EQ(model.data(model.index(1, RunsModel::Efficiency), Qt::DisplayRole).toString(),
              QStringLiteral("%1 %").arg(row->efficiency * 100, 0, 'f', 0));
    // Against itself a run is 100 % by definition: the baseline and a sweep's only run show none.
    EXPECT_DOUBLE_EQ(scalingRowOf(*report, input, tp1)->efficiency, 1.0);
    EXPECT_TRUE(std::isnan(model.efficiency(tp1)));
    EXPECT_TRUE(std::isnan(model.efficiency(other)));
    EXPECT_TRUE(model.data(model.index(0, RunsModel::Efficiency), Qt::DisplayRole).toString().isEmpty());
    EXPECT_TRUE(model.data(model.index(2, RunsModel::Efficiency), Qt::DisplayRole).toString().isEmpty());
}

// Issue 28: NaN (a baseline, a run alone in its sweep) as the Efficiency sort key left the table
// unsorted; it sorts below every efficiency now, and the others in order.
TEST(RunsModel, SortingByEfficiencyOrdersTheRunsWithRunsWithoutOneFirst) {
    test::ensureApp();
    RunDocument doc;
    RunsModel model(&doc);
    QSortFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    proxy.setSortRole(RunsModel::SortRole);
    const RunId tp2 = doc.add(done(2, 1, 600));
    const RunId tp1 = doc.add(done(1, 1, 1000));
    const RunId tp4 = doc.add(done(4, 1, 400));
    const RunId alone = doc.add(done(8, 1, 300, 2));
    ASSERT_FALSE(std::isnan(model.efficiency(tp2)));
    ASSERT_FALSE(std::isnan(model.efficiency(tp4)));
    ASSERT_GT(model.efficiency(tp2), model.efficiency(tp4));  // (1000/600)/2 > (1000/400)/4
    proxy.sort(RunsModel::Efficiency, Qt::AscendingOrder);
    std::vector<RunId> order;
    for (int r = 0; r < proxy.rowCount(); ++r) order.push_back(model.idAt(proxy.mapToSource(proxy.index(r, 0)).row()));
    ASSERT_EQ(order.size(), 4u);
    // The two without an efficiency first (in any order), then 62 % before 83 %.
    EXPECT_TRUE((order[0] == tp1 && order[1] == alone) || (order[0] == alone && order[1] == tp1));
    EXPECT_EQ(order[2], tp4);
    EXPECT_EQ(order[3], tp2);
    proxy.sort(RunsModel::Efficiency, Qt::DescendingOrder);
    EXPECT_EQ(model.idAt(proxy.mapToSource(proxy.index(0, 0)).row()), tp2);
    EXPECT_EQ(model.idAt(proxy.mapToSource(proxy.index(1, 0)).row()), tp4);
}

TEST(RunsModel, PassesTheItemModelTesterBehindASortProxyThroughAddsChangesRemovesAndResets) {
    test::ensureApp();
    RunDocument doc;
    RunsModel model(&doc);
    QSortFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    proxy.setSortRole(RunsModel::SortRole);
    proxy.sort(RunsModel::Tp, Qt::DescendingOrder);
    QAbstractItemModelTester sourceTester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::Fatal);
    const RunId a = doc.add(done(1, 1, 1000));
    doc.add(done(2, 1, 600));
    const RunId pending = doc.add(RunRecord{});
    EXPECT_EQ(model.rowCount(), 3);
    EXPECT_EQ(proxy.rowCount(), 3);
    // Sorted by TP, descending: TP 2 first.
    EXPECT_EQ(proxy.data(proxy.index(0, RunsModel::Tp)).toInt(), 2);
    doc.update(pending, [](RunRecord& r) {
        r.status = RunStatus::Running;
        r.progress = 0.25;
    });
    const int row = model.rowOf(pending);
    EXPECT_DOUBLE_EQ(model.data(model.index(row, RunsModel::Status), RunsModel::ProgressRole).toDouble(), 0.25);
    EXPECT_EQ(model.data(model.index(row, RunsModel::Status), Qt::DisplayRole).toString(), QStringLiteral("25 %"));
    doc.update(pending, [](RunRecord& r) { r = done(4, 1, 400); });
    EXPECT_EQ(proxy.data(proxy.index(0, RunsModel::Tp)).toInt(), 4);
    EXPECT_DOUBLE_EQ(model.data(model.index(row, RunsModel::Status), RunsModel::ProgressRole).toDouble(), -1.0);
    EXPECT_TRUE(doc.remove(a));
    EXPECT_EQ(model.rowCount(), 2);
    EXPECT_EQ(model.rowOf(a), -1);
    EXPECT_FALSE(doc.update(a, [](RunRecord&) {}));  // gone: a late result changes nothing
    doc.resetRuns({done(8, 1, 300)});
    EXPECT_EQ(proxy.rowCount(), 1);
    doc.clear();
    EXPECT_EQ(model.rowCount(), 0);
}

TEST(RunDocument, IdsAreStableAndNeverReused) {
    RunDocument doc;
    const RunId a = doc.add(RunRecord{});
    const RunId b = doc.add(RunRecord{});
    EXPECT_NE(a, b);
    EXPECT_NE(a, RunId::None);
    doc.remove(a);
    const RunId c = doc.add(RunRecord{});
    EXPECT_NE(c, a);
    EXPECT_EQ(doc.ids(), (std::vector<RunId>{b, c}));
    doc.resetRuns({RunRecord{}});
    EXPECT_EQ(doc.run(b), nullptr);
    EXPECT_EQ(doc.run(c), nullptr);
}

}  // namespace
}  // namespace tpscope::ui

namespace tpscope::ui {
namespace {

TEST(ImportedTraceDocument, OneRunWhoseTpIsTheRankCountAndWhoseStepComesFromNvtx) {
    auto trace = std::make_shared<core::Trace>();
    for (std::uint32_t r = 0; r < 4; ++r) {
        auto& rank = trace->rank(core::RankId{r});
        rank.ranges = {{0, 1000, trace->intern("step 0"), 0},
                       {1000, 3000, trace->intern("step 1"), 0},
                       {3000, 4500, trace->intern("step 2"), 0}};
    }
    trace->finalize();
    const auto doc = importedTraceDocument(QStringLiteral("/t/rank-folder"), trace);
    ASSERT_EQ(doc.runs.size(), 1u);
    const auto& run = doc.runs[0];
    EXPECT_EQ(run.request.backend, BackendKind::Imported);
    EXPECT_EQ(run.request.tp, 4);
    EXPECT_EQ(run.status, RunStatus::Done);
    EXPECT_DOUBLE_EQ(run.metrics.stepLatencyNs, (1000.0 + 2000.0 + 1500.0) / 3);  // the mean step
    EXPECT_EQ(run.metrics.tokensPerSec, 0.0);
    ASSERT_NE(run.analysis, nullptr);
    EXPECT_EQ(run.label(), QStringLiteral("rank-folder"));
}

}  // namespace
}  // namespace tpscope::ui
