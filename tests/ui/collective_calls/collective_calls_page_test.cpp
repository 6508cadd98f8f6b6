// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// The Collective calls tab plots each call's busbw (core::analysis::busBandwidth, as
// `analyze --calls --json`) against its size, over the collective model's all-reduce curve
// (core::sim::CollectiveModel) for the chosen fabric (issue 17 §1). Read back from the graphs.

#include <qcustomplot.h>
#include <QHeaderView>
#include <QJsonArray>
#include <QStandardItemModel>
#include <QTableView>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "core/analysis/collective_matching.h"
#include "core/io/import/trace_reader.h"
#include "core/sim/collective_model.h"
#include "test_support.h"
#include "tests/ui/charts/chart_fixture.h"
#include "tests/ui/json_numbers.h"
#include "ui/collective_calls/collective_calls_page.h"

namespace tpscope::ui {
namespace {

using Points = std::vector<std::pair<double, double>>;

Points graphPoints(const QCPGraph& g) {
    Points out;
    for (auto it = g.data()->constBegin(); it != g.data()->constEnd(); ++it) out.emplace_back(it->key, it->value);
    std::sort(out.begin(), out.end());
    return out;
}

const ChartRun& runWithGpus(int gpus, int batch) {
    for (const auto& r : test::smallSweep().runs) {
        if (r.gpus == gpus && r.batch == batch) return r;
    }
    ADD_FAILURE() << "no run TP " << gpus;
    return test::smallSweep().runs.front();
}

struct CollectiveCallsPageTest : test::AppGuard, ::testing::Test {
    core::Catalog catalog = *core::Catalog::load();
    CollectiveCallsPage page{catalog};
};

TEST_F(CollectiveCallsPageTest, PointsArePerCallBusbwAndTheCurveIsTheCollectiveModel) {
    const auto& run = runWithGpus(4, 8);
    page.setRun(run.trace, run.analysis, "nvlink4");
    EXPECT_EQ(page.fabricId(), "nvlink4");

    Points expected;
    std::uint64_t lo = UINT64_MAX, hi = 0;
    for (const auto& c : run.analysis->matching.calls) {
        if (c.op != core::CollectiveOp::AllReduce) continue;
        const double busbw = core::analysis::busBandwidth(c);
        ASSERT_TRUE(std::isfinite(busbw));  // a simulated call has its size and transfer
        expected.emplace_back(static_cast<double>(c.bytes), busbw);
        lo = std::min(lo, c.bytes);
        hi = std::max(hi, c.bytes);
    }
    ASSERT_GE(expected.size(), 2u);
    std::sort(expected.begin(), expected.end());
    EXPECT_EQ(graphPoints(*page.allReducePoints()), expected);

    ASSERT_EQ(page.curveRanks(), 4);
    auto model = core::sim::CollectiveModel::create(*catalog.fabric("nvlink4"), std::nullopt, 4, 4);
    ASSERT_TRUE(model.ok());
    const auto curve = graphPoints(*page.modelCurve());
    ASSERT_GE(curve.size(), 3u);
    EXPECT_LE(curve.front().first, static_cast<double>(lo));
    EXPECT_GE(curve.back().first, static_cast<double>(hi));
    for (const auto& [bytes, busbw] : curve) {
        const auto b = static_cast<std::uint64_t>(bytes);
        EXPECT_EQ(busbw, core::sim::allReduceBusbw(b, model->allReduce(b).timeNs(), 4)) << bytes;
    }
    // The table: one row per call, its busbw the same number.
    const auto& table = *page.tableModel();
    ASSERT_EQ(static_cast<std::size_t>(table.rowCount()), run.analysis->matching.calls.size());
    for (int r = 0; r < table.rowCount(); ++r) {
        const auto& c = run.analysis->matching.calls[static_cast<std::size_t>(r)];
        EXPECT_EQ(table.data(table.index(r, 7), Qt::UserRole).toDouble(), core::analysis::busBandwidth(c));
        EXPECT_EQ(table.data(table.index(r, 3), Qt::UserRole).toDouble(), static_cast<double>(c.bytes));
    }
}

TEST_F(CollectiveCallsPageTest, AnotherFabricRedrawsTheCurveNotThePoints) {
    const auto& run = runWithGpus(2, 1);
    page.setRun(run.trace, run.analysis, "nvlink4");
    const auto points = graphPoints(*page.allReducePoints());
    const auto nvlink = graphPoints(*page.modelCurve());
    page.setFabric("pcie4");
    EXPECT_EQ(graphPoints(*page.allReducePoints()), points);
    const auto pcie = graphPoints(*page.modelCurve());
    ASSERT_EQ(pcie.size(), nvlink.size());
    auto model = core::sim::CollectiveModel::create(*catalog.fabric("pcie4"), std::nullopt, 2, 2);
    ASSERT_TRUE(model.ok());
    for (const auto& [bytes, busbw] : pcie) {
        const auto b = static_cast<std::uint64_t>(bytes);
        EXPECT_EQ(busbw, core::sim::allReduceBusbw(b, model->allReduce(b).timeNs(), 2));
    }
    EXPECT_NE(pcie.back().second, nvlink.back().second);
}

// The table is refilled with its sorted view detached (one sort at the end): the order the user
// chose still holds for the next run's rows.
TEST_F(CollectiveCallsPageTest, TheSortTheUserChoseHoldsForTheNextRunsRows) {
    page.setRun(runWithGpus(2, 1).trace, runWithGpus(2, 1).analysis, "nvlink4");
    constexpr int kBusbw = 7;
    page.tableView()->sortByColumn(kBusbw, Qt::DescendingOrder);
    const auto& run = runWithGpus(4, 8);
    page.setRun(run.trace, run.analysis, "nvlink4");
    ASSERT_EQ(static_cast<std::size_t>(page.tableModel()->rowCount()), run.analysis->matching.calls.size());
    const auto* sorted = page.tableView()->model();
    ASSERT_EQ(sorted->rowCount(), page.tableModel()->rowCount());
    std::vector<double> shown, expected;
    for (int r = 0; r < sorted->rowCount(); ++r)
        shown.push_back(sorted->index(r, kBusbw).data(Qt::UserRole).toDouble());
    for (const auto& c : run.analysis->matching.calls) expected.push_back(core::analysis::busBandwidth(c));
    std::sort(expected.begin(), expected.end(), std::greater<>());
    EXPECT_EQ(shown, expected);
    EXPECT_NE(expected.front(), expected.back());  // the order is not trivially true
}

TEST_F(CollectiveCallsPageTest, ARunWithoutCollectivesSaysSoAndDrawsNoCurve) {
    const auto& run = runWithGpus(1, 1);
    page.setRun(run.trace, run.analysis, "nvlink4");
    EXPECT_TRUE(page.allReducePoints()->data()->isEmpty());
    EXPECT_TRUE(page.modelCurve()->data()->isEmpty());
    EXPECT_TRUE(page.statusText().contains(QStringLiteral("no model curve"))) << page.statusText().toStdString();
    page.setRun(nullptr, nullptr, {});
    EXPECT_EQ(page.tableModel()->rowCount(), 0);
}

// A real 8-rank PyTorch-profiler trace (the public param DLRM trace): the plotted all-reduces are
// exactly the all_reduce rows of `tpscope-cli analyze --calls --json` that have a busbw.
TEST_F(CollectiveCallsPageTest, OnTheParamTraceThePointsAreAnalyzeCallsJson) {
    constexpr const char* kParam = "param-dlrm_kineto-8rank";
    TPSCOPE_REQUIRE_PUBLIC(kParam);
    const std::string path = (test::publicTraces() / kParam).string();
    auto trace = core::readTrace(path);
    ASSERT_TRUE(trace.ok()) << trace.error().describe();
    auto analysis = std::make_shared<const core::analysis::RunAnalysis>(core::analysis::analyzeTrace(**trace));
    page.setRun(*trace, analysis, "nvlink3");
    const auto cli = test::runCli("analyze --calls --json " + path);
    ASSERT_EQ(cli.exitCode, 0) << cli.out;
    Points expected;
    for (const auto& v : test::parseJson(cli.out).value(QStringLiteral("calls")).toArray()) {
        const auto call = v.toObject();
        const auto busbw = call.value(QStringLiteral("busbw_bytes_per_sec"));
        if (call.value(QStringLiteral("op")).toString() != QStringLiteral("all_reduce") || !busbw.isDouble()) continue;
        expected.emplace_back(call.value(QStringLiteral("bytes")).toDouble(), busbw.toDouble());
    }
    std::sort(expected.begin(), expected.end());
    ASSERT_GE(expected.size(), 2u);
    EXPECT_EQ(graphPoints(*page.allReducePoints()), expected);
    EXPECT_EQ(page.curveRanks(), 8);
    EXPECT_FALSE(page.modelCurve()->data()->isEmpty());
    EXPECT_FALSE(page.otherPoints()->data()->isEmpty());  // its send/recv calls
}

}  // namespace
}  // namespace tpscope::ui
