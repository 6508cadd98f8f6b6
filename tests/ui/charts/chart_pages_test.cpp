// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Each chart's plotted values, read back from the QCustomPlot graphs and bars, equal core's numbers
// for a simulated sweep (STYLE.md: headless tests read graph->data()).
#include <qcustomplot.h>
#include <QApplication>
#include <QPalette>
#include <QStandardItemModel>

#include <gtest/gtest.h>

#include <algorithm>

#include "chart_fixture.h"
#include "core/calc/cost.h"
#include "core/util/units.h"
#include "ui/charts/cost_page.h"
#include "ui/charts/layers_page.h"
#include "ui/charts/scaling_page.h"

namespace tpscope::ui {
namespace {

using core::analysis::TimeBreakdown;

std::vector<std::pair<double, double>> points(QCPBars* bars) {
    std::vector<std::pair<double, double>> out;
    for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it)
        out.emplace_back(it->key, it->value);
    return out;
}

std::vector<std::pair<double, double>> points(QCPGraph* graph) {
    std::vector<std::pair<double, double>> out;
    for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it) {
        out.emplace_back(it->key, it->value);
    }
    return out;
}

TEST(ChartPages, TheSweepRanEveryConfiguration) {
    EXPECT_EQ(test::smallSweep().runs.size(), 6u);
}

struct LayersChart : test::ChartsFixture {};

TEST_F(LayersChart, StackedBarsAreCoresPerLayerMeansAndSumToTheWall) {
    auto* page = charts->layers();
    const ChartRun* run = charts->controller()->currentChartRun();
    ASSERT_NE(run, nullptr);
    EXPECT_EQ(run->gpus, 4);  // without a choice: the largest TP
    const auto expected = core::analysis::layerTable(run->analysis->breakdown);
    ASSERT_FALSE(expected.empty());
    const auto compute = points(page->bars(BreakdownPart::Compute));
    const auto overlapped = points(page->bars(BreakdownPart::OverlappedComm));
    const auto transfer = points(page->bars(BreakdownPart::ExposedTransfer));
    const auto wait = points(page->bars(BreakdownPart::ExposedWait));
    const auto idle = points(page->bars(BreakdownPart::Idle));
    ASSERT_EQ(compute.size(), expected.size());
    double exposedTotal = 0;
    for (std::size_t i = 0; i < expected.size(); ++i) {
        const auto& l = expected[i];
        EXPECT_EQ(compute[i].first, l.layer);
        EXPECT_DOUBLE_EQ(compute[i].second, l.meanComputeOnlyNs());
        EXPECT_DOUBLE_EQ(overlapped[i].second, l.mean(&TimeBreakdown::overlappedCommNs));
        EXPECT_DOUBLE_EQ(transfer[i].second, l.mean(&TimeBreakdown::exposedTransferNs));
        EXPECT_DOUBLE_EQ(wait[i].second, l.mean(&TimeBreakdown::exposedWaitNs));
        EXPECT_DOUBLE_EQ(idle[i].second, l.mean(&TimeBreakdown::idleNs));
        const double stacked =
            compute[i].second + overlapped[i].second + transfer[i].second + wait[i].second + idle[i].second;
        EXPECT_NEAR(stacked, l.mean(&TimeBreakdown::wallNs), 1e-6 * l.mean(&TimeBreakdown::wallNs));
        exposedTotal += transfer[i].second + wait[i].second;
    }
    EXPECT_GT(exposedTotal, 0) << "a TP 4 decode exposes some all-reduce time";
    // The table holds the same numbers (raw value in Qt::UserRole, column 1 = wall).
    auto* table = page->tableModel();
    ASSERT_EQ(table->rowCount(), static_cast<int>(expected.size()));
    EXPECT_DOUBLE_EQ(table->item(0, 1)->data(Qt::UserRole).toDouble(), expected[0].mean(&TimeBreakdown::wallNs));
    EXPECT_TRUE(page->layerDetails(expected[0].layer).contains(QStringLiteral("Exposed wait")));
}

TEST_F(LayersChart, RankChoiceShowsOneRankOrTheSlowest) {
    auto* page = charts->layers();
    const ChartRun* run = charts->controller()->currentChartRun();
    page->setRankChoice(1);
    auto expected = core::analysis::layerTable(run->analysis->breakdown, 1);
    auto idle = points(page->bars(BreakdownPart::Idle));
    ASSERT_EQ(idle.size(), expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i)
        EXPECT_DOUBLE_EQ(idle[i].second, expected[i].mean(&TimeBreakdown::idleNs));
    page->setRankChoice(LayersPage::kSlowestRank);
    expected = core::analysis::layerTableSlowestRank(run->analysis->breakdown);
    const auto wait = points(page->bars(BreakdownPart::ExposedWait));
    for (std::size_t i = 0; i < expected.size(); ++i) {
        EXPECT_DOUBLE_EQ(wait[i].second, expected[i].mean(&TimeBreakdown::exposedWaitNs));
    }
}

TEST_F(LayersChart, ActivatingALayerGivesItsFirstInstanceSpan) {
    auto* page = charts->layers();
    const ChartRun* run = charts->controller()->currentChartRun();
    qint64 t0 = -1;
    qint64 t1 = -1;
    QObject::connect(page, &LayersPage::layerActivated, [&](int, qint64 a, qint64 b) {
        t0 = a;
        t1 = b;
    });
    page->activateLayer(2);
    const auto span = core::analysis::firstLayerSpan(run->analysis->breakdown, 2);
    ASSERT_TRUE(span.has_value());
    EXPECT_EQ(t0, span->startNs);
    EXPECT_EQ(t1, span->endNs);
}

// Issue 28 §4: the legend sits in a row of its own under the bars, tall enough for its items, never
// inside the axis rect where the bars are drawn.
TEST_F(LayersChart, TheLegendIsBelowTheBarsNotOverThem) {
    auto* page = charts->layers();
    page->resize(1200, 800);
    page->show();
    QCustomPlot* plot = page->plot();
    plot->replot(QCustomPlot::rpImmediateRefresh);
    const QRect bars = plot->axisRect()->outerRect();
    const QRect legend = plot->legend->outerRect();
    EXPECT_FALSE(plot->axisRect()->insetLayout()->elements(false).contains(plot->legend));
    EXPECT_FALSE(bars.intersects(legend))
        << "legend " << legend.y() << "+" << legend.height() << ", bars " << bars.y() << "+" << bars.height();
    EXPECT_GE(legend.top(), bars.bottom());
    EXPECT_GE(legend.height(), plot->legend->minimumOuterSizeHint().height());
    ASSERT_GT(plot->legend->itemCount(), 0);
    for (int i = 0; i < plot->legend->itemCount(); ++i) {
        const QRect item = plot->legend->item(i)->outerRect();
        EXPECT_TRUE(legend.contains(item)) << "item " << i << " is clipped";
        EXPECT_GT(item.height(), 5) << "item " << i;
    }
    const QString shot = test::screenshotDir() + QStringLiteral("/layers-legend.png");
    EXPECT_TRUE(page->grab().save(shot));
}

struct ScalingChart : test::ChartsFixture {};

TEST_F(ScalingChart, LinesAreCoresSpeedupsEfficienciesAndAmdahlFit) {
    const auto expected = test::expectedScaling(2.0);
    auto* page = charts->scaling();
    ASSERT_EQ(expected.batches.size(), 2u);
    for (const auto& b : expected.batches) {
        const auto speedup = points(page->speedupGraph(b.batch));
        ASSERT_EQ(speedup.size(), b.rows.size());
        for (std::size_t i = 0; i < b.rows.size(); ++i) {
            EXPECT_EQ(speedup[i].first, b.rows[i].gpus);
            EXPECT_DOUBLE_EQ(speedup[i].second, b.rows[i].speedup);
        }
        // Efficiency only where a smaller TP of the batch ran: not at the baseline.
        const auto efficiency = points(page->efficiencyGraph(b.batch));
        ASSERT_EQ(efficiency.size(), b.rows.size() - 1);
        for (std::size_t i = 0; i < efficiency.size(); ++i) {
            EXPECT_EQ(efficiency[i].first, b.rows[i + 1].gpus);
            EXPECT_DOUBLE_EQ(efficiency[i].second, b.rows[i + 1].efficiency);
        }
        ASSERT_TRUE(b.fit.valid);
        auto* amdahl = page->amdahlGraph(b.batch);
        ASSERT_NE(amdahl, nullptr);
        for (const auto& [n, s] : points(amdahl)) EXPECT_DOUBLE_EQ(s, core::analysis::fittedSpeedup(b, n));
        EXPECT_TRUE(amdahl->name().contains(QString::fromStdString(core::formatPercent(b.fit.serialFraction))));
    }
    const auto ideal = points(page->idealGraph());
    ASSERT_EQ(ideal.size(), 2u);
    EXPECT_DOUBLE_EQ(ideal.back().second, ideal.back().first / expected.batches[0].baselineGpus);
}

TEST_F(ScalingChart, LossBarsAreTheBatchsLossShares) {
    const auto expected = test::expectedScaling(2.0);
    auto* page = charts->scaling();
    page->setLossBatch(8);
    const auto& b = expected.batches[1];
    ASSERT_EQ(b.batch, 8);
    EXPECT_EQ(page->lossGpus().size(), b.rows.size());
    const auto transfer = points(page->lossBars(BreakdownPart::ExposedTransfer));
    const auto wait = points(page->lossBars(BreakdownPart::SyncWait));
    const auto imbalance = points(page->lossBars(BreakdownPart::Imbalance));
    const auto idle = points(page->lossBars(BreakdownPart::Idle));
    for (std::size_t i = 0; i < b.rows.size(); ++i) {
        EXPECT_EQ(page->lossGpus()[i], b.rows[i].gpus);
        EXPECT_DOUBLE_EQ(transfer[i].second, b.rows[i].loss.transfer);
        EXPECT_DOUBLE_EQ(wait[i].second, b.rows[i].loss.syncWait);
        EXPECT_DOUBLE_EQ(imbalance[i].second, b.rows[i].loss.imbalance);
        EXPECT_DOUBLE_EQ(idle[i].second, b.rows[i].loss.idle);
    }
}

// A batch of `n` GPU counts (1, 2, 4, ...) whose loss bars all reach the same height: wherever a legend
// stands inside the axes, it covers one of them. Only the loss shares matter to the layout.
core::analysis::ScalingReport evenLossReport(int n) {
    core::analysis::ScalingReport report;
    core::analysis::BatchScaling b;
    b.batch = 1;
    for (int k = 0; k < n; ++k) {
        core::analysis::ScalingRow row;
        row.gpus = 1 << k;
        row.loss.transfer = 0.2;
        row.loss.syncWait = 0.05;
        row.loss.imbalance = 0.03;
        row.loss.idle = 0.02;
        b.rows.push_back(row);
    }
    report.batches.push_back(b);
    return report;
}

// Issue 45 (GUI V): the loss legend stood in the axes' top left corner and covered the first bar. Each
// stacked column (from 0 to the sum of its shares, the bars' width wide) must be clear of it, for the
// sweep's batches and for 1 to 6 GPU counts of even bars.
// The Scaling page laid out as on screen, 1000 x 700.
ScalingPage* shownScalingPage(ChartSet& charts) {
    auto* page = charts.scaling();
    page->resize(1000, 700);
    page->show();
    QApplication::processEvents();
    return page;
}

TEST_F(ScalingChart, TheSpeedupLegendCoversNoPoint) {
    auto* page = shownScalingPage(*charts);
    const auto expectClear = [&](const std::string& what) {
        QCustomPlot* plot = page->plot();
        plot->replot(QCustomPlot::rpImmediateRefresh);
        QCPLegend* legend = plot->legend;
        ASSERT_TRUE(legend->visible());
        ASSERT_GT(legend->itemCount(), 0) << what;
        for (int i = 0; i < legend->itemCount(); ++i) {
            // Wrapped at two a row, the last row may have an empty cell.
            if (const QCPAbstractLegendItem* item = legend->item(i)) {
                EXPECT_TRUE(plot->rect().contains(item->outerRect())) << what << ": entry " << i << " cut off";
            }
        }
        // Every point of every graph (speed-up, efficiency, Amdahl, ideal) lies outside the legend.
        for (int g = 0; g < plot->graphCount(); ++g) {
            const QCPGraph* graph = plot->graph(g);
            for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it) {
                const QPointF point(graph->keyAxis()->coordToPixel(it->key),
                                    graph->valueAxis()->coordToPixel(it->value));
                EXPECT_FALSE(QRectF(legend->outerRect()).adjusted(-3, -3, 3, 3).contains(point))
                    << what << ": " << graph->name().toStdString() << " at " << it->key << " GPUs is under the legend";
            }
        }
    };
    expectClear("the sweep");
    for (int n = 1; n <= 6; ++n) {
        page->setReport(evenLossReport(n));
        expectClear(std::to_string(n) + " GPU counts");
    }
}

TEST_F(ScalingChart, TheLossLegendCoversNoBar) {
    auto* page = shownScalingPage(*charts);
    const auto expectClear = [&](const std::string& what) {
        QCustomPlot* plot = page->plot();
        plot->replot(QCustomPlot::rpImmediateRefresh);
        const QRect legend = page->lossLegend()->outerRect();
        ASSERT_TRUE(page->lossLegend()->visible());
        ASSERT_EQ(page->lossLegend()->itemCount(), static_cast<int>(std::size(ScalingPage::kLossParts)));
        ASSERT_GT(legend.width(), 0);
        const QRect axes = page->lossRect()->rect();
        EXPECT_FALSE(axes.intersects(legend)) << what;
        // Every legend entry is inside the plot (none cut off).
        for (int i = 0; i < page->lossLegend()->itemCount(); ++i)
            EXPECT_TRUE(plot->rect().contains(page->lossLegend()->item(i)->outerRect())) << what;
        auto* keyAxis = page->lossRect()->axis(QCPAxis::atBottom);
        auto* valueAxis = page->lossRect()->axis(QCPAxis::atLeft);
        const auto* first = page->lossBars(ScalingPage::kLossParts[0]);
        const int n = static_cast<int>(page->lossGpus().size());
        ASSERT_GT(n, 0) << what;
        for (int k = 1; k <= n; ++k) {
            double top = 0;
            for (const auto part : ScalingPage::kLossParts) {
                const auto* bars = page->lossBars(part);
                const auto it = bars->data()->findBegin(k, false);
                if (it != bars->data()->constEnd() && it->key == k) top += it->value;
            }
            const QRectF column(QPointF(keyAxis->coordToPixel(k - first->width() / 2), valueAxis->coordToPixel(top)),
                                QPointF(keyAxis->coordToPixel(k + first->width() / 2), valueAxis->coordToPixel(0)));
            EXPECT_FALSE(column.normalized().intersects(legend))
                << what << ": the bar of " << page->lossGpus()[k - 1] << " GPUs is under the legend";
        }
    };
    for (const auto& b : test::expectedScaling(2.0).batches) {
        page->setLossBatch(b.batch);
        expectClear("sweep batch " + std::to_string(b.batch));
    }
    for (int n = 1; n <= 6; ++n) {
        page->setReport(evenLossReport(n));
        expectClear(std::to_string(n) + " GPU counts");
    }
}

struct CostChart : test::ChartsFixture {};

TEST_F(CostChart, BarsAndLineAreCoresCostAndThroughputAndFollowThePrice) {
    auto* page = charts->cost();
    for (const double price : {2.0, 4.5}) {
        page->setPricePerGpuHour(price);  // as the user edits it: the controller recomputes through core
        const auto expected = test::expectedScaling(price);
        for (const auto& b : expected.batches) {
            page->setShownBatch(b.batch);
            const auto cost = points(page->costBars());
            const auto tps = points(page->throughputGraph());
            ASSERT_EQ(cost.size(), b.rows.size());
            QStringList premiums;
            for (std::size_t i = 0; i < b.rows.size(); ++i) {
                EXPECT_DOUBLE_EQ(cost[i].second, b.rows[i].costPerMillionTokens);
                EXPECT_DOUBLE_EQ(tps[i].second, b.rows[i].tokensPerSec);
                EXPECT_EQ(page->shownGpus()[i], b.rows[i].gpus);
                premiums << (b.rows[i].gpus == b.baselineGpus
                                 ? QStringLiteral("base")
                                 : QStringLiteral("+") +
                                       QString::fromStdString(core::formatPercent(b.rows[i].premiumVsBaseline)));
            }
            EXPECT_EQ(page->premiumLabels(), premiums);
        }
    }
}

TEST_F(CostChart, TheHighlightIsCoresCheapestConfigurationMeetingTheTarget) {
    auto* page = charts->cost();
    const auto candidates = core::analysis::costCandidates(test::expectedScaling(2.0));
    // Targets between the candidates' latencies, so each picks differently.
    std::vector<double> latencies;
    for (const auto& c : candidates) latencies.push_back(c.stepLatencyMs);
    std::sort(latencies.begin(), latencies.end());
    int checked = 0;
    for (const double target :
         {latencies.front() * 0.5, latencies.front() * 1.0001, latencies[2] * 1.0001, latencies.back() * 2}) {
        page->setLatencyTargetMs(target);
        const auto pick = core::cheapestMeeting(candidates, page->latencyTargetMs());
        const auto shown = page->highlighted();
        ASSERT_EQ(shown.has_value(), pick.has_value()) << target;
        if (!pick) {
            EXPECT_TRUE(page->highlightBars()->data()->isEmpty());
            continue;
        }
        ++checked;
        EXPECT_EQ(shown->gpus, candidates[*pick].gpus);
        EXPECT_EQ(shown->batch, candidates[*pick].batch);
        // The page opens on the highlighted batch and outlines that bar.
        EXPECT_EQ(page->shownBatch(), shown->batch);
        const auto hi = points(page->highlightBars());
        ASSERT_EQ(hi.size(), 1u);
        EXPECT_DOUBLE_EQ(hi[0].second, candidates[*pick].dollarsPerMillionTokens);
        EXPECT_TRUE(page->highlightText().contains(QString::number(shown->gpus)));
    }
    EXPECT_GE(checked, 2);
}

TEST(ChartTheme, PagesFollowADarkPalette) {
    test::ensureApp();
    ScalingPage page;
    QPalette dark;
    dark.setColor(QPalette::Base, QColor(0x20, 0x20, 0x24));
    dark.setColor(QPalette::Text, QColor(0xEE, 0xEE, 0xEE));
    dark.setColor(QPalette::Window, QColor(0x28, 0x28, 0x2C));
    page.setPalette(dark);  // delivers QEvent::PaletteChange
    EXPECT_EQ(page.plot()->axisRect()->backgroundBrush().color(), dark.color(QPalette::Base));
    EXPECT_EQ(page.plot()->xAxis->tickLabelColor(), dark.color(QPalette::Text));
    EXPECT_EQ(page.plot()->legend->textColor(), dark.color(QPalette::Text));
}

}  // namespace
}  // namespace tpscope::ui
