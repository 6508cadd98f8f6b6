#include "ui/runs_model.h"
#include "ui/services.h"

#include <QAbstractItemModelTester>

#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "ui_test_support.h"

namespace tpscope::ui {
namespace {

RunRecord done(int tp, int batch, double tokensPerSec) {
    RunRecord r;
    r.request.model.id = "m";
    r.request.gpu.id = "g";
    r.request.fabric.id = "f";
    r.request.tp = tp;
    r.request.batch = batch;
    r.status = RunStatus::Done;
    r.metrics.tokensPerSec = tokensPerSec;
    r.metrics.stepLatencyNs = batch * 1e9 / tokensPerSec;
    return r;
}

TEST(RunsModel, EfficiencyIsSpeedupOverGpuRatioAgainstTheSmallestFinishedTpOfTheGroup) {
    std::vector<RunRecord> runs = {done(1, 1, 100), done(2, 1, 180), done(8, 1, 400), done(2, 8, 900),
                                   done(4, 8, 1500)};
    RunRecord failed = done(1, 8, 0);
    failed.status = RunStatus::Failed;
    runs.push_back(failed);
    const auto eff = scalingEfficiencies(runs);
    EXPECT_DOUBLE_EQ(eff[0], 1.0);
    EXPECT_DOUBLE_EQ(eff[1], (180.0 / 100) / 2);
    EXPECT_DOUBLE_EQ(eff[2], (400.0 / 100) / 8);
    // Batch 8 has no finished TP 1: TP 2 is its baseline.
    EXPECT_DOUBLE_EQ(eff[3], 1.0);
    EXPECT_DOUBLE_EQ(eff[4], (1500.0 / 900) / 2);
    EXPECT_TRUE(std::isnan(eff[5]));
}

TEST(RunsModel, PassesTheItemModelTesterThroughAppendsUpdatesAndResets) {
    test::ensureApp();
    RunsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    EXPECT_EQ(model.appendRuns({done(1, 1, 100), done(2, 1, 150)}), 0);
    EXPECT_EQ(model.appendRuns({RunRecord{}}), 2);
    model.setProgress(2, 0.25);
    EXPECT_DOUBLE_EQ(model.data(model.index(2, RunsModel::Status), RunsModel::ProgressRole).toDouble(), 0.25);
    EXPECT_EQ(model.data(model.index(2, RunsModel::Status), Qt::DisplayRole).toString(), QStringLiteral("25 %"));
    model.updateRun(2, done(4, 1, 250));
    EXPECT_EQ(model.data(model.index(2, RunsModel::Efficiency), Qt::DisplayRole).toString(), QStringLiteral("63 %"));
    EXPECT_EQ(model.data(model.index(1, RunsModel::TokensPerSec), Qt::DisplayRole).toString(), QStringLiteral("150.0"));
    EXPECT_DOUBLE_EQ(model.data(model.index(2, RunsModel::Status), RunsModel::ProgressRole).toDouble(), -1.0);
    model.clear();
    EXPECT_EQ(model.rowCount(), 0);
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
    EXPECT_DOUBLE_EQ(run.metrics.stepLatencyNs, 1500.0);  // median of 1000, 2000, 1500
    EXPECT_EQ(run.metrics.tokensPerSec, 0.0);
    EXPECT_EQ(run.label(), QStringLiteral("rank-folder"));
}

}  // namespace
}  // namespace tpscope::ui
