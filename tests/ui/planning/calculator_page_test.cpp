// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// The Calculator tab shows the numbers of `tpscope-cli plan --json`, `bounds --json` (on every
// catalog fabric) and `amdahl --json` for the same inputs, field by field: each plan row and fabric
// column names its CLI field, each cell keeps its raw number (issue 13 acceptance). Also: it follows
// the current run's request, and bad Amdahl input is named instead of tabulated.

#include <qcustomplot.h>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include <map>
#include <set>
#include <sstream>

#include "core/hw/catalog.h"
#include "core/util/units.h"
#include "core/workload/moe_routing.h"
#include "test_support.h"
#include "tests/ui/json_numbers.h"
#include "tests/ui/ui_test_support.h"
#include "ui/planning/calculator_page.h"

namespace tpscope::ui {
namespace {

using test::jsonAt;
using test::parseJson;

std::string planArgs(const CalculatorInputs& in) {
    std::ostringstream args;
    args << "--json --model " << in.plan.model.id << " --tp " << in.plan.tp << " --batch " << in.plan.batch
         << " --context " << in.plan.contextLen << " --dtype " << core::toString(in.plan.dtype);
    if (in.plan.model.isMoe()) {
        args << " --moe-parallel " << core::toString(in.plan.moeParallel) << " --routing-skew "
             << core::formatShortest(in.plan.model.moe.routingSkew);
    }
    return args.str();
}

double raw(const QStandardItemModel& m, int row, int column) {
    return m.data(m.index(row, column), Qt::UserRole).toDouble();
}

// Every plan row and every fabric cell against the CLI; returns how many numbers were compared.
// carried: how many fabrics the CLI's bounds accepts. only: the fabric ids to check (empty: every one);
// each check is one CLI process, so a test that repeats a case checks a few.
int expectPanelEqualsCli(const CalculatorPage& page, int* carried = nullptr, const std::set<std::string>& only = {}) {
    const CalculatorInputs& in = page.inputs();
    const std::string args = planArgs(in);
    const auto plan = test::runCli("plan " + args + " --gpu " + in.gpu.id);
    EXPECT_EQ(plan.exitCode, 0) << plan.out;
    const QJsonObject planJson = parseJson(plan.out);
    int compared = 0;
    std::optional<QJsonObject> anyBounds;

    const auto& fabrics = *page.fabricTable();
    EXPECT_EQ(static_cast<std::size_t>(fabrics.rowCount()), in.fabrics.size());
    for (int r = 0; r < fabrics.rowCount(); ++r) {
        const std::string id = fabrics.data(fabrics.index(r, 0), CalculatorPage::kFieldRole).toString().toStdString();
        if (!only.empty() && !only.contains(id)) continue;
        const auto bounds = test::runCli("bounds " + args + " --fabric " + id + " --gpu " + in.gpu.id);
        if (bounds.exitCode != 0) {
            // The CLI refuses this fabric: the row's note says why, in the CLI's words.
            const QString why = fabrics.data(fabrics.index(r, fabrics.columnCount() - 1)).toString();
            EXPECT_FALSE(why.isEmpty()) << id;
            EXPECT_NE(bounds.out.find(why.toStdString()), std::string::npos) << id << ": " << bounds.out;
            continue;
        }
        const QJsonObject b = parseJson(bounds.out);
        anyBounds = b;
        if (carried != nullptr) ++*carried;
        EXPECT_EQ(jsonAt(b, QStringLiteral("fabric")).toString().toStdString(), id);
        for (int c = 1; c < fabrics.columnCount(); ++c) {
            const QString field = fabrics.headerData(c, Qt::Horizontal, CalculatorPage::kFieldRole).toString();
            if (field.isEmpty()) continue;  // the note column
            const QJsonValue expected = jsonAt(b, field);
            if (expected.isUndefined()) {
                ADD_FAILURE() << "bounds --json has no " << field.toStdString();
                continue;
            }
            if (expected.isString()) {
                EXPECT_EQ(fabrics.data(fabrics.index(r, c)).toString(), expected.toString())
                    << id << " " << field.toStdString();
            } else {
                EXPECT_EQ(raw(fabrics, r, c), expected.toDouble()) << id << " " << field.toStdString();
            }
            ++compared;
        }
    }

    const auto& planRows = *page.planTable();
    for (int r = 0; r < planRows.rowCount(); ++r) {
        QString field = planRows.data(planRows.index(r, 0), CalculatorPage::kFieldRole).toString();
        if (field.isEmpty()) continue;  // a ratio of two compared rows
        const bool fromBounds = field.startsWith(QStringLiteral("bounds:"));
        if (fromBounds && !anyBounds) continue;
        const QJsonObject& source = fromBounds ? *anyBounds : planJson;
        if (fromBounds) field = field.mid(7);
        const QJsonValue expected = jsonAt(source, field);
        if (!expected.isDouble()) {
            ADD_FAILURE() << "no number " << field.toStdString();
            continue;
        }
        EXPECT_EQ(raw(planRows, r, 1), expected.toDouble()) << field.toStdString();
        ++compared;
    }

    std::ostringstream counts;
    for (std::size_t i = 0; i < in.gpuCounts.size(); ++i) counts << (i ? "," : "") << in.gpuCounts[i];
    std::ostringstream amdahlArgs;
    amdahlArgs << "amdahl --json --serial " << core::formatShortest(in.serialFraction) << " --gpu-counts "
               << counts.str();
    const auto amdahl = test::runCli(amdahlArgs.str());
    EXPECT_EQ(amdahl.exitCode, 0) << amdahl.out;
    const auto points = parseJson(amdahl.out).value(QStringLiteral("points")).toArray();
    const auto& table = *page.amdahlTable();
    EXPECT_EQ(table.rowCount(), points.size());
    for (int r = 0; r < std::min<int>(table.rowCount(), static_cast<int>(points.size())); ++r) {
        for (int c = 0; c < table.columnCount(); ++c) {
            const QString field = table.headerData(c, Qt::Horizontal, CalculatorPage::kFieldRole).toString();
            EXPECT_EQ(raw(table, r, c), points[r].toObject().value(field).toDouble()) << field.toStdString();
            ++compared;
        }
    }
    return compared;
}

struct CalculatorTest : test::AppGuard, ::testing::Test {
    core::Catalog catalog = *core::Catalog::load();
    CalculatorPage page{catalog};
};

TEST_F(CalculatorTest, Llama70bTp8OnH100EqualsPlanBoundsAndAmdahlJson) {
    page.setPlan("llama3-70b", "h100-sxm", 8, 1, 1024, core::Dtype::Fp16);
    page.setAmdahl(0.07, QStringLiteral("1,2,4,8"));
    ASSERT_TRUE(page.problem().isEmpty()) << page.problem().toStdString();
    EXPECT_EQ(page.inputs().plan.model.id, "llama3-70b");
    EXPECT_EQ(page.inputs().plan.tp, 8);
    // The seed's all-reduce message: batch x hidden x 2 bytes = 16 KiB at batch 1 (hidden 8192, fp16).
    EXPECT_EQ(raw(*page.planTable(), 0, 1), 1.0 * 8192 * 2);
    int carried = 0;
    const int compared = expectPanelEqualsCli(page, &carried);
    EXPECT_GE(carried, 5);  // the 8-GPU NVLink, NVLS and PCIe presets
    // 8 columns per fabric that carries it, 12 plan rows, 4 x 3 Amdahl cells.
    EXPECT_EQ(compared, carried * 8 + 12 + 12);
}

TEST_F(CalculatorTest, Tp16IsRefusedOnEveryFabricAsTheCliDoes) {
    // No catalog fabric but the NVL72 rack domain connects 16 GPUs in one node (inter-node fabrics are
    // refused as intra-node): every other row gives the CLI's reason; the plan and Amdahl still stand.
    page.setPlan("llama3-405b", "b200", 16, 32, 8192, core::Dtype::Bf16);
    page.setAmdahl(0, QStringLiteral("2,16,64"));
    ASSERT_TRUE(page.problem().isEmpty()) << page.problem().toStdString();
    int carried = 0;
    // One fabric of each refusal: too few GPUs (8), a pair bridge (2), a network.
    EXPECT_EQ(expectPanelEqualsCli(page, &carried, {"nvlink4", "nvlink4-pair", "ib-ndr"}), 8 + 9);
    EXPECT_EQ(carried, 0);
    for (int r = 0; r < page.fabricTable()->rowCount(); ++r) {
        const auto& t = *page.fabricTable();
        if (t.data(t.index(r, 0), CalculatorPage::kFieldRole).toString() == QStringLiteral("nvl72")) continue;
        EXPECT_FALSE(t.data(t.index(r, t.columnCount() - 1)).toString().isEmpty()) << "row " << r << " gives no reason";
    }
    // S = 0: no limit.
    EXPECT_EQ(raw(*page.amdahlTable(), 2, 1), 64.0);
}

TEST_F(CalculatorTest, Tp2Bf16Batch32OnA100EqualsTheCliIncludingPairFabrics) {
    page.setPlan("llama3-8b", "a100-sxm", 2, 32, 4096, core::Dtype::Bf16);
    page.setAmdahl(0.2, QStringLiteral("1,2"));
    int carried = 0;
    const int compared = expectPanelEqualsCli(page, &carried, {"nvlink3", "nvlink3-pair", "pcie4", "vidur-a100-net"});
    EXPECT_EQ(carried, 3);  // a pair bridge carries TP 2 too; a network does not
    EXPECT_EQ(compared, carried * 8 + 12 + 6);
}

TEST_F(CalculatorTest, MoeModelShowsTouchedExpertsAndWeightsReadAsThePlanJsonDoes) {
    page.setPlan("gpt-oss-120b", "h100-sxm", 8, 64, 1024, core::Dtype::Bf16);
    page.setAmdahl(0.05, QStringLiteral("1,8"));
    ASSERT_TRUE(page.problem().isEmpty()) << page.problem().toStdString();
    int carried = 0;
    const int compared = expectPanelEqualsCli(page, &carried, {"nvlink4"});
    EXPECT_EQ(carried, 1);
    // 12 dense plan rows + 6 MoE rows + the KV cache row, 8 fabric cells, 2 x 3 Amdahl cells.
    EXPECT_EQ(compared, 8 + 12 + 7 + 6);
    const auto& rows = *page.planTable();
    bool found = false;
    for (int r = 0; r < rows.rowCount(); ++r) {
        if (rows.data(rows.index(r, 0), CalculatorPage::kFieldRole).toString() !=
            QStringLiteral("moe_step.touched_experts_per_layer")) {
            continue;
        }
        found = true;
        EXPECT_NEAR(raw(rows, r, 1), 128.0 * (1.0 - std::pow(1.0 - 4.0 / 128.0, 64)), 1e-9);  // E (1 - (1 - k/E)^B)
    }
    EXPECT_TRUE(found);
}

TEST_F(CalculatorTest, ExpertParallelPlacesWholeExpertsAsPlanMoeParallelEpDoes) {
    page.setPlan("gpt-oss-120b", "h100-sxm", 8, 64, 1024, core::Dtype::Bf16);
    page.setAmdahl(0.05, QStringLiteral("1,8"));
    page.setExpertPlacement(core::MoeParallel::Expert);
    ASSERT_TRUE(page.problem().isEmpty()) << page.problem().toStdString();
    EXPECT_EQ(page.inputs().plan.moeParallel, core::MoeParallel::Expert);
    int carried = 0;
    EXPECT_GT(expectPanelEqualsCli(page, &carried, {"nvlink4"}), 8 + 12);
    const auto& rows = *page.planTable();
    bool found = false;
    for (int r = 0; r < rows.rowCount(); ++r) {
        if (rows.data(rows.index(r, 0), CalculatorPage::kFieldRole).toString() ==
            QStringLiteral("moe_step.experts_per_rank")) {
            found = true;
            EXPECT_EQ(raw(rows, r, 1), 128.0 / 8);  // whole experts, experts / TP per rank
        }
    }
    EXPECT_TRUE(found);
    // A dense model has no experts to place: the control is off and the plan stays tensor-parallel.
    page.setPlan("llama3-8b", "h100-sxm", 8, 64, 1024, core::Dtype::Bf16);
    EXPECT_EQ(page.inputs().plan.moeParallel, core::MoeParallel::Tensor);
    EXPECT_FALSE(page.findChild<QComboBox*>(QStringLiteral("calculatorExperts"))->isEnabled());
}

TEST_F(CalculatorTest, RoutingSkewReachesThePlanAsPlanRoutingSkewDoes) {
    page.setPlan("gpt-oss-120b", "h100-sxm", 8, 64, 1024, core::Dtype::Bf16);
    page.setAmdahl(0.05, QStringLiteral("1,8"));
    const auto* skew = page.findChild<QDoubleSpinBox*>(QStringLiteral("calculatorRoutingSkew"));
    ASSERT_NE(skew, nullptr);
    EXPECT_TRUE(skew->isEnabled());
    EXPECT_TRUE(skew->toolTip().contains(QStringLiteral("No public source calibrates")));
    const auto touched = [&] {
        const auto& rows = *page.planTable();
        for (int r = 0; r < rows.rowCount(); ++r) {
            if (rows.data(rows.index(r, 0), CalculatorPage::kFieldRole).toString() ==
                QStringLiteral("moe_step.touched_experts_per_layer"))
                return raw(rows, r, 1);
        }
        ADD_FAILURE() << "no touched-experts row";
        return 0.0;
    };
    const double uniform = touched();
    page.setRoutingSkew(1.5);
    ASSERT_TRUE(page.problem().isEmpty()) << page.problem().toStdString();
    EXPECT_EQ(page.inputs().plan.model.moe.routingSkew, 1.5);
    EXPECT_EQ(touched(), core::expectedTouchedExperts(128, 4, 64, 1.5));  // core's formula, skewed
    EXPECT_LT(touched(), uniform);
    EXPECT_GT(expectPanelEqualsCli(page, nullptr, {"nvlink4"}), 8 + 12);  // plan --routing-skew 1.5
    // A dense model: the skew is off and its plan untouched.
    page.setPlan("llama3-8b", "h100-sxm", 8, 64, 1024, core::Dtype::Bf16);
    EXPECT_FALSE(skew->isEnabled());
    EXPECT_EQ(page.inputs().plan.model.moe.routingSkew, 0);
}

TEST_F(CalculatorTest, TakesTheRunsExpertPlacementAndSkew) {
    RunRequest request;
    request.model = *catalog.model("gpt-oss-120b");
    request.model.moe.routingSkew = 0.5;
    request.moeParallel = core::MoeParallel::Expert;
    request.gpu = *catalog.gpu("h100-sxm");
    request.tp = 8;
    request.batch = 32;
    page.setRun(request);
    EXPECT_EQ(page.inputs().plan.moeParallel, core::MoeParallel::Expert);
    EXPECT_EQ(page.inputs().plan.model.moe.routingSkew, 0.5);
    request.moeParallel = core::MoeParallel::Tensor;
    page.setRun(request);
    EXPECT_EQ(page.inputs().plan.moeParallel, core::MoeParallel::Tensor);
}

// The fabric chart's legend sat in the axis rect's top-right corner, over the bars of the last
// fabrics (nvl72 at TP 4): it is now in a row of its own under the axes.
TEST_F(CalculatorTest, TheFabricLegendIsBelowTheBarsNotOverThem) {
    page.setPlan("llama3-70b", "h100-sxm", 4, 1, 1024, core::Dtype::Fp16);
    page.resize(1400, 900);
    page.show();
    QCustomPlot* plot = page.plot();
    plot->replot(QCustomPlot::rpImmediateRefresh);
    EXPECT_FALSE(plot->axisRect()->insetLayout()->elements(false).contains(plot->legend));
    const QRect axes = plot->axisRect()->outerRect();
    const QRect legend = plot->legend->outerRect();
    EXPECT_FALSE(axes.intersects(legend))
        << "legend " << legend.y() << "+" << legend.height() << ", axes " << axes.y() << "+" << axes.height();
    // The last fabric with bars (nvl72 among the catalog's) is drawn where no legend item is.
    const auto& fabrics = page.inputs().fabrics;
    const auto nvl72 = std::find_if(fabrics.begin(), fabrics.end(), [](const auto& f) { return f.id == "nvl72"; });
    ASSERT_NE(nvl72, fabrics.end());
    const double key = static_cast<double>(nvl72 - fabrics.begin() + 1);
    const QPoint bar(static_cast<int>(plot->xAxis->coordToPixel(key)), axes.center().y());
    for (int i = 0; i < plot->legend->itemCount(); ++i) EXPECT_FALSE(plot->legend->item(i)->outerRect().contains(bar));
    EXPECT_TRUE(page.grab().save(test::screenshotDir() + QStringLiteral("/calculator-legend.png")));
}

// Issue 45 (GUI V): at TP 4 the pair bridges and the networks carry no floor; their slots were empty,
// which on a log axis read as "below 1 ns". Each slot is the fabric table's row of the same index and
// shows either its two bars or an "n/a" label inside its own slot.
TEST_F(CalculatorTest, EveryFabricSlotShowsItsBarsOrNotAvailable) {
    page.setPlan("llama3-70b", "h100-sxm", 4, 1, 1024, core::Dtype::Fp16);
    page.resize(1400, 900);
    page.show();
    QCustomPlot* plot = page.plot();
    plot->replot(QCustomPlot::rpImmediateRefresh);
    const auto& table = *page.fabricTable();
    std::map<int, QCPItemText*> notAvailable;  // by slot key
    for (int i = 0; i < plot->itemCount(); ++i) {
        auto* text = qobject_cast<QCPItemText*>(plot->item(i));
        if (text == nullptr) continue;
        EXPECT_EQ(text->text(), QStringLiteral("n/a"));
        notAvailable[static_cast<int>(std::lround(text->position->key()))] = text;
    }
    std::set<int> barred;
    for (int i = 0; i < plot->plottableCount(); ++i) {
        auto* bars = qobject_cast<QCPBars*>(plot->plottable(i));
        if (bars == nullptr) continue;
        for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it) {
            if (it->value > 0) barred.insert(static_cast<int>(std::lround(it->key)));
        }
    }
    const double slot = plot->xAxis->coordToPixel(2) - plot->xAxis->coordToPixel(1);
    int refused = 0;
    for (int r = 0; r < table.rowCount(); ++r) {
        const int key = r + 1;
        const bool carried = table.data(table.index(r, table.columnCount() - 1)).toString().isEmpty();
        const std::string id = table.data(table.index(r, 0), CalculatorPage::kFieldRole).toString().toStdString();
        EXPECT_EQ(barred.contains(key), carried) << id;
        EXPECT_EQ(notAvailable.contains(key), !carried) << id << ": an empty slot";
        if (carried || !notAvailable.contains(key)) continue;
        ++refused;
        const QRectF label(notAvailable[key]->topLeft->pixelPosition(),
                           notAvailable[key]->bottomRight->pixelPosition());
        EXPECT_TRUE(QRectF(plot->axisRect()->rect()).contains(label)) << id;
        EXPECT_LT(std::abs(label.center().x() - plot->xAxis->coordToPixel(key)), 1.0) << id;
        EXPECT_LT(label.width(), slot) << id;
    }
    EXPECT_GE(refused, 2);  // the pair bridges at least
    EXPECT_EQ(barred.size() + notAvailable.size(), static_cast<std::size_t>(table.rowCount()));
    // A new plan replaces the labels: one per fabric that refuses it (at TP 16, all but the rack domain).
    page.setPlan("llama3-405b", "b200", 16, 32, 8192, core::Dtype::Bf16);
    int labels = 0;
    int refusing = 0;
    for (int i = 0; i < plot->itemCount(); ++i) labels += qobject_cast<QCPItemText*>(plot->item(i)) != nullptr;
    for (int r = 0; r < table.rowCount(); ++r)
        refusing += !table.data(table.index(r, table.columnCount() - 1)).toString().isEmpty();
    EXPECT_GT(refusing, refused);
    EXPECT_EQ(labels, refusing);
    plot->replot(QCustomPlot::rpImmediateRefresh);
    EXPECT_TRUE(page.grab().save(test::screenshotDir() + QStringLiteral("/calculator-not-available.png")));
}

TEST_F(CalculatorTest, FollowsTheRunsRequest) {
    RunRequest request;
    request.model = *catalog.model("llama3-8b");
    request.gpu = *catalog.gpu("a100-sxm");
    request.tp = 2;
    request.batch = 16;
    request.contextLen = 4096;
    request.dtype = core::Dtype::Bf16;
    page.setRun(request);
    const auto& in = page.inputs();
    EXPECT_EQ(in.plan.model.id, "llama3-8b");
    EXPECT_EQ(in.gpu.id, "a100-sxm");
    EXPECT_EQ(in.plan.tp, 2);
    EXPECT_EQ(in.plan.batch, 16);
    EXPECT_EQ(in.plan.contextLen, 4096);
    EXPECT_EQ(in.plan.dtype, core::Dtype::Bf16);
    // message = batch x hidden x dtype bytes (llama3-8b: hidden 4096).
    EXPECT_EQ(raw(*page.planTable(), 0, 1), 16.0 * request.model.hidden * 2);
    // A run without a model (an imported trace) leaves the plan alone.
    page.setRun(RunRequest{});
    EXPECT_EQ(page.inputs().plan.model.id, "llama3-8b");
}

// An edit in the panel's own widgets recomputes at once: ring wire bytes per call = 2(n-1)/n x message.
TEST_F(CalculatorTest, EditingTheTpRecomputesLive) {
    page.setPlan("llama3-70b", "h100-sxm", 8, 1, 1024, core::Dtype::Fp16);
    auto* tp = page.findChild<QSpinBox*>(QStringLiteral("calculatorTp"));
    ASSERT_NE(tp, nullptr);
    const double message = raw(*page.planTable(), 0, 1);
    EXPECT_EQ(raw(*page.planTable(), 1, 1), 2.0 * 7 / 8 * message);
    tp->setValue(2);
    EXPECT_EQ(page.inputs().plan.tp, 2);
    EXPECT_EQ(raw(*page.planTable(), 1, 1), 2.0 * 1 / 2 * message);
    auto* gpu = page.findChild<QComboBox*>(QStringLiteral("calculatorGpu"));
    ASSERT_NE(gpu, nullptr);
    gpu->setCurrentIndex(gpu->findText(QString::fromStdString(catalog.gpu("b200")->name)));
    EXPECT_EQ(page.inputs().gpu.id, "b200");
}

TEST_F(CalculatorTest, BadInputIsNamedNotTabulated) {
    page.setPlan("llama3-70b", "h100-sxm", 8, 1, 1024, core::Dtype::Fp16);
    page.setAmdahl(0.1, QStringLiteral("1,zero,4"));
    EXPECT_FALSE(page.problem().isEmpty());
    EXPECT_EQ(page.amdahlTable()->rowCount(), 0);
    EXPECT_GT(page.planTable()->rowCount(), 0);  // the rest stands
    // TP 3 does not divide llama3-70b's 64 heads: the whole plan is refused with core's reason.
    page.setPlan("llama3-70b", "h100-sxm", 3, 1, 1024, core::Dtype::Fp16);
    EXPECT_FALSE(page.problem().isEmpty());
    EXPECT_EQ(page.planTable()->rowCount(), 0);
    EXPECT_EQ(page.fabricTable()->rowCount(), 0);
}

TEST_F(CalculatorTest, ExportsChartAndAllThreeTables) {
    page.resize(1200, 800);
    page.setPlan("llama3-70b", "h100-sxm", 4, 1, 1024, core::Dtype::Fp16);
    QTemporaryDir dir;
    ASSERT_TRUE(page.exportTo({dir.filePath(QStringLiteral("calc.csv")), {}, 1.0}).ok());
    for (const char* name : {"calc.csv", "calc-plan.csv", "calc-amdahl.csv"}) {
        QFile f(dir.filePath(QString::fromLatin1(name)));
        ASSERT_TRUE(f.open(QIODevice::ReadOnly)) << name;
        EXPECT_GT(f.readAll().count('\n'), 2) << name;
    }
    const auto png = dir.filePath(QStringLiteral("calc.png"));
    ASSERT_TRUE(page.exportTo({png, QSize(800, 500), 1.0}).ok());
    EXPECT_EQ(QImage(png).size(), QSize(800, 500));
}

}  // namespace
}  // namespace tpscope::ui
