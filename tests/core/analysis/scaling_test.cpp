// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "core/analysis/advice.h"
#include "core/analysis/scaling.h"
#include "core/calc/amdahl.h"
#include "core/util/units.h"

namespace tpscope::core::analysis {
namespace {

RunPoint point(int gpus, int batch, double tps) {
    RunPoint p;
    p.label = "tp" + std::to_string(gpus) + "-b" + std::to_string(batch);
    p.gpus = gpus;
    p.batch = batch;
    p.tokensPerSec = tps;
    p.stepLatencyNs = batch / tps * 1e9;
    return p;
}

TEST(Scaling, ExactAmdahlDataRecoversTheSerialFraction) {
    const double s = 0.1;
    std::vector<RunPoint> runs;
    for (const int n : {1, 2, 4, 8}) runs.push_back(point(n, 1, 50.0 * amdahlSpeedup(s, n)));
    const auto report = analyzeScaling(runs);
    ASSERT_TRUE(report.ok()) << report.error().describe();
    ASSERT_EQ(report->batches.size(), 1u);
    const auto& bs = report->batches[0];
    EXPECT_EQ(bs.baselineGpus, 1);
    ASSERT_TRUE(bs.fit.valid);
    EXPECT_NEAR(bs.fit.serialFraction, s, 1e-6);
    EXPECT_NEAR(bs.fit.rmsResidual, 0.0, 1e-6);
    EXPECT_NEAR(bs.fit.maxSpeedup, 1.0 / s, 1e-3);
    ASSERT_EQ(bs.rows.size(), 4u);
    EXPECT_NEAR(bs.rows[3].speedup, 1.0 / (s + (1 - s) / 8), 1e-9);
    EXPECT_NEAR(bs.rows[3].efficiency, bs.rows[3].speedup / 8, 1e-12);
    EXPECT_NEAR(bs.rows[3].amdahlSpeedup, bs.rows[3].speedup, 1e-5);
    EXPECT_TRUE(report->notes.empty());
}

TEST(Scaling, NoisyDataGivesTheLeastSquaresFitAndItsResidual) {
    // Speedups 1, 1.85, 3.4, 6.0 (the seed article's 70B table): the fitted S must minimise the SSE,
    // so nudging it either way cannot do better.
    std::vector<RunPoint> runs{point(1, 1, 1.0), point(2, 1, 1.85), point(4, 1, 3.4), point(8, 1, 6.0)};
    const auto report = analyzeScaling(runs);
    ASSERT_TRUE(report.ok());
    const auto& fit = report->batches[0].fit;
    auto sse = [](double s) {
        double sum = 0;
        const std::pair<int, double> pts[] = {{1, 1.0}, {2, 1.85}, {4, 3.4}, {8, 6.0}};
        for (const auto& [n, v] : pts) sum += std::pow(v - amdahlSpeedup(s, n), 2);
        return sum;
    };
    EXPECT_GT(fit.serialFraction, 0.0);
    EXPECT_LT(fit.serialFraction, 0.1);
    EXPECT_LE(sse(fit.serialFraction), sse(fit.serialFraction + 1e-4));
    EXPECT_LE(sse(fit.serialFraction), sse(fit.serialFraction - 1e-4));
    EXPECT_NEAR(fit.rmsResidual, std::sqrt(sse(fit.serialFraction) / 4), 1e-12);
    EXPECT_GT(fit.rmsResidual, 0.0);
}

TEST(Scaling, WithoutAOneGpuRunTheSmallestTpIsTheBaselineAndTheReportSaysSo) {
    const double s = 0.05;
    std::vector<RunPoint> runs;
    for (const int n : {2, 4, 8}) runs.push_back(point(n, 4, 100.0 * amdahlSpeedup(s, n)));
    const auto report = analyzeScaling(runs);
    ASSERT_TRUE(report.ok());
    const auto& bs = report->batches[0];
    EXPECT_EQ(bs.baselineGpus, 2);
    EXPECT_DOUBLE_EQ(bs.rows[0].speedup, 1.0);
    EXPECT_NEAR(bs.rows[2].speedup, amdahlSpeedup(s, 8) / amdahlSpeedup(s, 2), 1e-9);
    EXPECT_NEAR(bs.rows[2].efficiency, bs.rows[2].speedup / 4.0, 1e-12);
    EXPECT_NEAR(bs.fit.serialFraction, s, 1e-6);
    EXPECT_NEAR(bs.fit.maxSpeedupVsBaseline, (s + (1 - s) / 2) / s, 1e-3);
    ASSERT_EQ(report->notes.size(), 1u);
    EXPECT_NE(report->notes[0].find("relative to 2 GPUs"), std::string::npos);
}

TEST(Scaling, CostPerMillionTokensAndPremiumFollowTheFormula) {
    std::vector<RunPoint> runs{point(1, 1, 50), point(2, 1, 92), point(4, 1, 170), point(8, 1, 300)};
    const auto report = analyzeScaling(runs, ScalingOptions{.pricePerGpuHour = 3.0});
    ASSERT_TRUE(report.ok());
    const auto& rows = report->batches[0].rows;
    auto cost = [](int n, double tps) { return n * 3.0 / (tps * 3600 / 1e6); };
    EXPECT_NEAR(rows[0].costPerMillionTokens, cost(1, 50), 1e-12);
    EXPECT_NEAR(rows[3].costPerMillionTokens, cost(8, 300), 1e-12);
    EXPECT_NEAR(rows[3].premiumVsBaseline, cost(8, 300) / cost(1, 50) - 1, 1e-12);
}

TEST(Scaling, FittedCurvePassesThroughTheRowsModelAndFollowsAmdahlBetweenThem) {
    std::vector<RunPoint> runs{point(2, 1, 92), point(4, 1, 170), point(8, 1, 300)};
    const auto report = analyzeScaling(runs);
    ASSERT_TRUE(report.ok());
    const auto& b = report->batches[0];
    ASSERT_TRUE(b.fit.valid);
    for (const auto& r : b.rows) EXPECT_NEAR(fittedSpeedup(b, r.gpus), r.amdahlSpeedup, 1e-12);
    const double s = b.fit.serialFraction;
    EXPECT_NEAR(fittedSpeedup(b, 6), (1 / (s + (1 - s) / 6)) / (1 / (s + (1 - s) / 2)), 1e-12);
    BatchScaling noFit = b;
    noFit.fit.valid = false;
    EXPECT_EQ(fittedSpeedup(noFit, 4), 0);
}

TEST(Scaling, CostCandidatesCarryEveryRowInMsAndDollars) {
    std::vector<RunPoint> runs{point(1, 1, 50), point(2, 1, 92), point(1, 8, 320), point(2, 8, 600)};
    const auto report = analyzeScaling(runs, ScalingOptions{.pricePerGpuHour = 2.0});
    ASSERT_TRUE(report.ok());
    const auto c = costCandidates(*report);
    ASSERT_EQ(c.size(), 4u);
    EXPECT_EQ(c[2].batch, 8);
    EXPECT_EQ(c[2].gpus, 1);
    EXPECT_DOUBLE_EQ(c[3].tokensPerSec, 600);
    EXPECT_NEAR(c[3].stepLatencyMs, 8.0 / 600 * 1e3, 1e-9);
    EXPECT_NEAR(c[3].dollarsPerMillionTokens, 2 * 2.0 / (600 * 3600 / 1e6), 1e-12);
    // At a 15 ms target batch 8 on 1 GPU (25 ms) is out; of the rest the cheapest is batch 8 on 2 GPUs.
    const auto pick = core::cheapestMeeting(c, 15);
    ASSERT_TRUE(pick.has_value());
    EXPECT_EQ(c[*pick].gpus, 2);
    EXPECT_EQ(c[*pick].batch, 8);
}

TEST(Scaling, SmallestEfficientBatchIsWhereEfficiencyFirstReachesTheThreshold) {
    // tokens/s = batch x 100 x N x efficiency(N, batch)
    const std::map<std::pair<int, int>, double> eff{{{2, 1}, 0.7}, {{2, 4}, 0.85},  {{2, 16}, 0.95}, {{4, 1}, 0.5},
                                                    {{4, 4}, 0.7}, {{4, 16}, 0.82}, {{8, 16}, 0.6}};
    std::vector<RunPoint> runs;
    for (const int b : {1, 4, 16}) runs.push_back(point(1, b, b * 100.0));
    for (const auto& [key, e] : eff) runs.push_back(point(key.first, key.second, key.second * 100.0 * key.first * e));
    const auto report = analyzeScaling(runs, ScalingOptions{.efficiencyThreshold = 0.8});
    ASSERT_TRUE(report.ok());
    ASSERT_EQ(report->efficientBatches.size(), 3u);
    EXPECT_EQ(report->efficientBatches[0].gpus, 2);
    EXPECT_EQ(report->efficientBatches[0].smallestBatch, 4);
    EXPECT_NEAR(report->efficientBatches[0].efficiency, 0.85, 1e-12);
    EXPECT_EQ(report->efficientBatches[1].smallestBatch, 16);
    EXPECT_EQ(report->efficientBatches[2].smallestBatch, 0);
    EXPECT_NEAR(report->efficientBatches[2].efficiency, 0.6, 1e-12);
    EXPECT_EQ(report->efficientBatches[2].atBatch, 16);
}

TEST(Scaling, BadSweepsAreRejectedWithOneClearError) {
    EXPECT_FALSE(analyzeScaling({}).ok());
    const auto dup = analyzeScaling({point(2, 1, 10), point(2, 1, 11)});
    ASSERT_FALSE(dup.ok());
    EXPECT_NE(dup.error().message.find("two runs with 2 GPUs at batch 1"), std::string::npos);
    EXPECT_FALSE(analyzeScaling({point(0, 1, 10)}).ok());
    EXPECT_FALSE(analyzeScaling({point(1, 1, 0)}).ok());
}

TEST(Scaling, OneGpuCountGivesNoFit) {
    const auto report = analyzeScaling({point(4, 8, 100)});
    ASSERT_TRUE(report.ok());
    EXPECT_FALSE(report->batches[0].fit.valid);
}

ScalingReport sweep(double tp2, double tp4, double tp8, double price, double waitShareAt8) {
    std::vector<RunPoint> runs{point(2, 1, tp2), point(4, 1, tp4), point(8, 1, tp8)};
    runs[2].loss.syncWait = waitShareAt8;
    runs[2].loss.transfer = 0.1;
    auto r = analyzeScaling(runs, ScalingOptions{.pricePerGpuHour = price});
    return *r;
}

TEST(Advice, HigherTpThatBarelySpeedsUpDoesNotPayAndSaysWhy) {
    const auto report = sweep(600, 1000, 1070, 3.0, 0.38);
    const auto advice = adviseTp(report, AdviceOptions{.efficiencyThreshold = 0.8, .minimumTpThatFits = 2});
    const AdviceItem* eight = nullptr;
    for (const auto& a : advice) {
        if (a.kind == AdviceKind::HigherTpDoesNotPay && a.toGpus == 8) eight = &a;
    }
    ASSERT_NE(eight, nullptr);
    EXPECT_EQ(eight->fromGpus, 4);
    EXPECT_NEAR(eight->speedup, 1.07, 1e-12);
    EXPECT_NEAR(eight->efficiency, 1.07 / 2, 1e-12);
    EXPECT_NEAR(eight->costChange, (8.0 / 1070) / (4.0 / 1000) - 1, 1e-12);
    EXPECT_EQ(eight->largestLoss, "sync wait");
    EXPECT_NE(eight->text.find("1.07x faster"), std::string::npos) << eight->text;
    EXPECT_NE(eight->text.find("87 % more $/Mtok"), std::string::npos) << eight->text;
    EXPECT_NE(eight->text.find("sync wait is 38 %"), std::string::npos) << eight->text;
}

TEST(Advice, AHigherTpThatIsSlowerSaysSlowerNotFaster) {
    const auto report = sweep(600, 1000, 830, 3.0, 0.5);  // TP 8 serves fewer tokens/s than TP 4
    const auto advice = adviseTp(report, AdviceOptions{.efficiencyThreshold = 0.8, .minimumTpThatFits = 2});
    const AdviceItem* eight = nullptr;
    for (const auto& a : advice) {
        if (a.kind == AdviceKind::HigherTpDoesNotPay && a.toGpus == 8) eight = &a;
    }
    ASSERT_NE(eight, nullptr);
    EXPECT_NEAR(eight->speedup, 830.0 / 1000, 1e-12);
    // 1000 / 830 = 1.2048...: "1.20x slower", never "0.83x faster".
    EXPECT_NE(eight->text.find(core::formatFixed(1000.0 / 830, 2) + "x slower"), std::string::npos) << eight->text;
    EXPECT_EQ(eight->text.find("faster"), std::string::npos) << eight->text;
    EXPECT_EQ(eight->text.find("unless latency matters"), std::string::npos) << eight->text;
    EXPECT_NE(eight->text.find("slower in latency too"), std::string::npos) << eight->text;
}

TEST(Advice, EagerLaunchesThatLimitTheRecommendedRunAreNamed) {
    std::vector<RunPoint> runs{point(2, 1, 600), point(4, 1, 1100), point(8, 1, 2100)};
    for (auto& r : runs) r.loss.idle = 0.4;  // the host leaves the GPU idle: the largest loss
    const auto report = *analyzeScaling(runs, {});
    AdviceOptions options{.minimumTpThatFits = 2};
    const auto plain = adviseTp(report, options);
    EXPECT_EQ(plain.back().text.find("pytorch-eager"), std::string::npos) << plain.back().text;
    options.eagerLaunches = true;
    const auto eager = adviseTp(report, options);
    ASSERT_EQ(eager.back().kind, AdviceKind::Recommendation);
    EXPECT_EQ(eager.back().largestLoss, "idle");
    EXPECT_NE(eager.back().text.find("pytorch-eager"), std::string::npos) << eager.back().text;
    EXPECT_NE(eager.back().text.find("cuda-graphs"), std::string::npos) << eager.back().text;
}

TEST(Advice, RecommendationClimbsWhileTheNextTpPays) {
    const auto report = sweep(600, 1100, 1200, 0, 0.3);  // 2->4: 92 % efficient, 4->8: 55 %
    const auto advice = adviseTp(report, AdviceOptions{.minimumTpThatFits = 2});
    ASSERT_FALSE(advice.empty());
    EXPECT_EQ(advice.front().kind, AdviceKind::MinimumTp);
    EXPECT_NE(advice.front().text.find("TP >= 2"), std::string::npos);
    const auto& rec = advice.back();
    EXPECT_EQ(rec.kind, AdviceKind::Recommendation);
    EXPECT_EQ(rec.toGpus, 4);
    EXPECT_NE(rec.text.find("use TP 4"), std::string::npos);
    EXPECT_EQ(advice[1].kind, AdviceKind::HigherTpPays);
}

TEST(Advice, RecommendationStartsAtTheMinimumTpThatFits) {
    const auto report = sweep(600, 1100, 2100, 0, 0.1);  // every step pays
    const auto advice = adviseTp(report, AdviceOptions{.minimumTpThatFits = 4});
    EXPECT_EQ(advice.back().fromGpus, 4);
    EXPECT_EQ(advice.back().toGpus, 8);
    EXPECT_NE(advice.front().text.find("TP 2 run at batch 1 should not fit"), std::string::npos);
}

}  // namespace
}  // namespace tpscope::core::analysis
