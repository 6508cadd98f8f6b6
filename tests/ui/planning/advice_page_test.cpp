// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// The Advice tab shows core::analysis::adviseTp's items for a simulated sweep, row for row, with the
// numbers behind each (issue 13 acceptance: "panel content equals adviseTp output"). The expected
// items are asked of core directly, from the runs' own analyses.

#include <QStandardItemModel>

#include <gtest/gtest.h>

#include "core/hw/memory_fit.h"
#include "tests/ui/charts/chart_fixture.h"
#include "ui/planning/advice_page.h"
#include "ui/planning/sweep_advice.h"

namespace tpscope::ui {
namespace {

constexpr double kPrice = 2.0;

// The chart fixture's simulated sweep (Llama-3 8B on H100, TP 1/2/4, batch 1 and 8) as the
// document's records of sweep 1.
std::vector<RunRecord> sweepRecords() {
    auto catalog = core::Catalog::load();
    std::vector<RunRecord> records;
    for (const auto& r : test::smallSweep().runs) {
        RunRecord rec;
        rec.sweep = 1;
        rec.status = RunStatus::Done;
        rec.request.model = *catalog->model("llama3-8b");
        rec.request.gpu = *catalog->gpu("h100-sxm");
        rec.request.contextLen = 256;
        rec.request.tp = r.gpus;
        rec.request.batch = r.batch;
        rec.request.pricePerGpuHour = kPrice;
        rec.trace = r.trace;
        rec.analysis = r.analysis;
        records.push_back(std::move(rec));
    }
    return records;
}

std::vector<core::analysis::AdviceItem> expectedAdvice(const std::vector<RunRecord>& records, double threshold) {
    std::vector<core::analysis::RunPoint> points;
    for (const auto& r : records) {
        points.push_back(
            core::analysis::runPointOf(*r.trace, *r.analysis, r.label().toStdString(), r.request.tp, r.request.batch));
    }
    auto report = core::analysis::analyzeScaling(points, {.pricePerGpuHour = kPrice, .efficiencyThreshold = threshold});
    EXPECT_TRUE(report.ok());
    core::analysis::AdviceOptions options;
    options.efficiencyThreshold = threshold;
    options.modelName = records.front().request.model.name;
    options.gpuName = records.front().request.gpu.name;
    options.minimumTpThatFits =
        core::minimumTpThatFits(core::PlanConfig{records.front().request.model, 1, 8, 256, core::Dtype::Fp16},
                                records.front().request.gpu, {1, 2, 4, 8, 16, 32, 64});
    return core::analysis::adviseTp(*report, options);
}

void expectTableEquals(const AdvicePage& page, const std::vector<core::analysis::AdviceItem>& expected) {
    const auto& t = *page.table();
    ASSERT_EQ(static_cast<std::size_t>(t.rowCount()), expected.size());
    const auto rawAt = [&](int r, int c) { return t.data(t.index(r, c), Qt::UserRole); };
    int pairs = 0;
    for (int r = 0; r < t.rowCount(); ++r) {
        const auto& e = expected[static_cast<std::size_t>(r)];
        EXPECT_EQ(t.data(t.index(r, AdvicePage::Kind)).toString().toStdString(), core::analysis::toString(e.kind));
        EXPECT_EQ(t.data(t.index(r, AdvicePage::Text)).toString().toStdString(), e.text);
        if (e.batch > 0) {
            EXPECT_EQ(rawAt(r, AdvicePage::Batch).toInt(), e.batch);
        }
        if (e.fromGpus > 0) {
            EXPECT_EQ(rawAt(r, AdvicePage::FromGpus).toInt(), e.fromGpus);
        }
        if (e.toGpus > 0) {
            EXPECT_EQ(rawAt(r, AdvicePage::ToGpus).toInt(), e.toGpus);
        }
        using core::analysis::AdviceKind;
        if (e.kind == AdviceKind::HigherTpPays || e.kind == AdviceKind::HigherTpDoesNotPay) {
            EXPECT_EQ(rawAt(r, AdvicePage::Speedup).toDouble(), e.speedup);
            EXPECT_EQ(rawAt(r, AdvicePage::Efficiency).toDouble(), e.efficiency);
            EXPECT_EQ(rawAt(r, AdvicePage::CostChange).toDouble(), e.costChange);
            EXPECT_EQ(t.data(t.index(r, AdvicePage::LargestLoss)).toString().toStdString(), e.largestLoss);
            EXPECT_EQ(rawAt(r, AdvicePage::LossShare).toDouble(), e.largestLossShare);
            ++pairs;
        }
    }
    EXPECT_GE(pairs, 2);  // TP 1 -> 2 and 2 -> 4 at each batch
}

struct AdviceTest : test::AppGuard, ::testing::Test {
    AdvicePage page;
};

TEST_F(AdviceTest, RowsEqualAdviseTpOfTheSimulatedSweep) {
    const auto records = sweepRecords();
    ASSERT_EQ(records.size(), 6u);
    const auto advice = adviceFor(scalingInputOf(records, records.front().id), kPrice, page.efficiencyThreshold());
    ASSERT_TRUE(advice.ok()) << advice.error().describe();
    page.setAdvice(advice);
    const auto expected = expectedAdvice(records, 0.8);
    ASSERT_FALSE(expected.empty());
    expectTableEquals(page, expected);
}

TEST_F(AdviceTest, ALowerThresholdIsCoresAdviceAtThatThreshold) {
    const auto records = sweepRecords();
    page.setAdvice(adviceFor(scalingInputOf(records, records.front().id), kPrice, 0.3));
    expectTableEquals(page, expectedAdvice(records, 0.3));
}

TEST_F(AdviceTest, OtherSweepsAndImportedRunsOfUnknownBatchGiveNoAdviceAndSayWhy) {
    auto records = sweepRecords();
    page.setAdvice(adviceFor(scalingInputOf(std::vector<RunRecord>{}, RunId::None), kPrice, 0.8));  // no run
    EXPECT_EQ(page.table()->rowCount(), 0);
    EXPECT_FALSE(page.summaryText().isEmpty());
    // Imported traces whose batch core does not know: their tokens/s would be a guess at batch 1.
    for (auto& r : records) {
        r.request.backend = BackendKind::Imported;
        auto unknown = std::make_shared<core::analysis::RunAnalysis>(*r.analysis);
        unknown->summary.batchKnown = false;
        r.analysis = unknown;
    }
    page.setAdvice(adviceFor(scalingInputOf(records, records.front().id), kPrice, 0.8));
    EXPECT_EQ(page.table()->rowCount(), 0);
    EXPECT_TRUE(page.summaryText().startsWith(QStringLiteral("No advice"))) << page.summaryText().toStdString();
}

}  // namespace
}  // namespace tpscope::ui
