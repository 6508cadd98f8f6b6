// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// The Collective calls table is a virtual model (issue 18): every cell is read from core as shown.
// Checked against core's numbers computed here, against the QStandardItemModel + sorting proxy it
// replaced (the same rows in the same order for every column and direction), under
// QAbstractItemModelTester, and through the page's CSV export.

#include <QAbstractItemModelTester>
#include <QFile>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QTableView>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "core/analysis/collective_matching.h"
#include "core/sim/collective_model.h"
#include "core/util/units.h"
#include "tests/ui/charts/chart_fixture.h"
#include "ui/collective_calls/collective_calls_model.h"
#include "ui/collective_calls/collective_calls_page.h"

namespace tpscope::ui {
namespace {

using Model = CollectiveCallsModel;

const ChartRun& tp4Batch8() {
    for (const auto& r : test::smallSweep().runs) {
        if (r.gpus == 4 && r.batch == 8) return r;
    }
    ADD_FAILURE() << "no TP 4 batch 8 run";
    return test::smallSweep().runs.front();
}

struct CollectiveCallsModelTest : test::AppGuard, ::testing::Test {
    core::Catalog catalog = *core::Catalog::load();
    const ChartRun& run = tp4Batch8();
    core::sim::CollectiveModel collectiveModel() const {
        return *core::sim::CollectiveModel::create(*catalog.fabric("nvlink4"), std::nullopt, 4, 4);
    }
};

double raw(const QAbstractItemModel& m, int row, int column) {
    return m.data(m.index(row, column), Qt::UserRole).toDouble();
}

TEST_F(CollectiveCallsModelTest, EachCellIsCoresNumberForItsCall) {
    CollectiveCallsPage page(catalog);
    page.setRun(run.trace, run.analysis, "nvlink4");
    const auto& m = *page.tableModel();
    const auto& calls = run.analysis->matching.calls;
    ASSERT_GE(calls.size(), 2u);
    ASSERT_EQ(static_cast<std::size_t>(m.rowCount()), calls.size());
    ASSERT_EQ(m.columnCount(), 11);
    EXPECT_EQ(m.headerData(Model::Busbw, Qt::Horizontal).toString(), QStringLiteral("busbw"));
    const auto model = collectiveModel();
    std::size_t modelled = 0, unmodelled = 0;
    for (int r = 0; r < m.rowCount(); ++r) {
        const auto& c = calls[static_cast<std::size_t>(r)];
        const double busbw = core::analysis::busBandwidth(c);
        EXPECT_EQ(raw(m, r, Model::Step), static_cast<double>(c.step));
        EXPECT_EQ(raw(m, r, Model::Layer), static_cast<double>(c.layer));
        EXPECT_EQ(raw(m, r, Model::Bytes), static_cast<double>(c.bytes));
        EXPECT_EQ(raw(m, r, Model::Ranks), static_cast<double>(c.groupSize));
        EXPECT_EQ(raw(m, r, Model::Transfer), static_cast<double>(c.transferNs()));
        EXPECT_EQ(raw(m, r, Model::Algbw), core::analysis::algBandwidth(c));
        EXPECT_EQ(raw(m, r, Model::Busbw), busbw);
        // The model's curve is the all-reduce of the run's communicator: other ops have no model busbw.
        if (c.op == core::CollectiveOp::AllReduce && c.groupSize == 4 && c.bytes > 0) {
            ++modelled;
            const double modelBusbw = core::sim::allReduceBusbw(c.bytes, model.allReduce(c.bytes).timeNs(), 4);
            EXPECT_EQ(raw(m, r, Model::ModelBusbw), modelBusbw);
            EXPECT_EQ(raw(m, r, Model::Ratio), busbw / modelBusbw);
            EXPECT_EQ(m.index(r, Model::Ratio).data().toString().toStdString(),
                      core::formatPercent(busbw / modelBusbw));
        } else {
            ++unmodelled;
            EXPECT_FALSE(m.index(r, Model::ModelBusbw).data(Qt::UserRole).isValid());
            EXPECT_EQ(m.index(r, Model::Ratio).data().toString(), QStringLiteral("—"));
        }
        EXPECT_EQ(m.index(r, Model::Busbw).data().toString().toStdString(), core::formatSi(busbw, "B/s"));
        EXPECT_EQ(m.index(r, Model::Bytes).data().toString().toStdString(),
                  core::formatBytes(static_cast<double>(c.bytes)));
        EXPECT_FALSE(m.index(r, Model::Op).data(Qt::UserRole).isValid());  // text columns have no raw number
        const auto& first = run.analysis->matching.participants[c.firstParticipant];
        const auto& stream = run.trace->ranks[first.rankIndex].streams[first.streamIndex];
        EXPECT_EQ(m.index(r, Model::Kernel).data().toString().toStdString(),
                  run.trace->name(stream.events.name(first.eventIndex)));
        EXPECT_EQ(m.index(r, Model::Op).data().toString().toStdString(), core::toString(c.op));
    }
    EXPECT_GT(modelled, 0u);
    EXPECT_GT(unmodelled, 0u);  // the run's all-gathers: the missing-value path is exercised
    // No model curve for another communicator size: the Model busbw column is empty, not wrong.
    Model other;
    other.setRun(run.trace, run.analysis,
                 *core::sim::CollectiveModel::create(*catalog.fabric("nvlink4"), std::nullopt, 2, 2));
    EXPECT_FALSE(other.index(0, Model::ModelBusbw).data(Qt::UserRole).isValid());
    EXPECT_EQ(other.index(0, Model::ModelBusbw).data().toString(), QStringLiteral("—"));
}

TEST_F(CollectiveCallsModelTest, AHeaderClickSortsByTheRawNumber) {
    CollectiveCallsPage page(catalog);
    page.setRun(run.trace, run.analysis, "nvlink4");
    page.tableView()->sortByColumn(Model::Busbw, Qt::AscendingOrder);
    const auto* shown = page.tableView()->model();
    ASSERT_EQ(shown, page.tableModel());
    std::vector<double> column, expected;
    for (int r = 0; r < shown->rowCount(); ++r) column.push_back(raw(*shown, r, Model::Busbw));
    for (const auto& c : run.analysis->matching.calls) expected.push_back(core::analysis::busBandwidth(c));
    EXPECT_TRUE(std::is_sorted(column.begin(), column.end()));
    std::sort(expected.begin(), expected.end());
    EXPECT_EQ(column, expected);
    EXPECT_NE(expected.front(), expected.back());
}

// The rows a QSortFilterProxyModel (sort role Qt::UserRole) over a QStandardItemModel of the same
// cells shows: the table as it was before it became virtual. Each column, both directions, one
// after another (ties keep the previous sort's order in both). Column -1 (no sort) is call order in
// either direction; it is not compared with the proxy, whose (-1, descending) reverses the source
// rows from Qt 6.8 on (Debian 13) and keeps them before (Debian 12).
TEST_F(CollectiveCallsModelTest, SortsAsTheItemTableItReplacedDid) {
    Model m;
    m.setRun(run.trace, run.analysis, collectiveModel());
    QStandardItemModel items(m.rowCount(), m.columnCount());
    for (int r = 0; r < m.rowCount(); ++r) {
        for (int c = 0; c < m.columnCount(); ++c) {
            auto* item = new QStandardItem(m.index(r, c).data().toString());
            item->setData(m.index(r, c).data(Qt::UserRole), Qt::UserRole);
            items.setItem(r, c, item);
        }
    }
    QSortFilterProxyModel proxy;
    proxy.setSourceModel(&items);
    proxy.setSortRole(Qt::UserRole);
    for (const auto order : {Qt::AscendingOrder, Qt::DescendingOrder}) {
        m.sort(-1, order);
        for (int r = 0; r < m.rowCount(); ++r)
            ASSERT_EQ(m.callIndex(r), static_cast<std::size_t>(r)) << "order " << order;
    }
    m.sort(-1, Qt::AscendingOrder);
    proxy.sort(-1, Qt::AscendingOrder);
    for (int column = 0; column < m.columnCount(); ++column) {
        for (const auto order : {Qt::AscendingOrder, Qt::DescendingOrder}) {
            m.sort(column, order);
            proxy.sort(column, order);
            for (int r = 0; r < m.rowCount(); ++r) {
                ASSERT_EQ(m.callIndex(r), static_cast<std::size_t>(proxy.mapToSource(proxy.index(r, 0)).row()))
                    << "column " << column << " order " << order << " row " << r;
            }
        }
    }
}

TEST_F(CollectiveCallsModelTest, PassesQAbstractItemModelTester) {
    Model m;
    QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::Fatal);
    m.setRun(run.trace, run.analysis, collectiveModel());
    QPersistentModelIndex kept = m.index(1, Model::Busbw);
    const auto call = m.callIndex(1);
    m.sort(Model::Busbw, Qt::DescendingOrder);
    ASSERT_TRUE(kept.isValid());
    EXPECT_EQ(m.callIndex(kept.row()), call);  // a selection follows its call
    m.sort(Model::Op, Qt::AscendingOrder);     // no raw numbers: the order stays
    EXPECT_EQ(m.callIndex(kept.row()), call);
    m.sort(-1, Qt::AscendingOrder);  // call order
    EXPECT_EQ(kept.row(), static_cast<int>(call));
    m.setRun(nullptr, nullptr, std::nullopt);
    EXPECT_EQ(m.rowCount(), 0);
    m.setRun(run.trace, run.analysis, std::nullopt);
    EXPECT_EQ(static_cast<std::size_t>(m.rowCount()), run.analysis->matching.calls.size());
}

TEST_F(CollectiveCallsModelTest, CsvHasAHeaderAndOneLinePerCallWithTheRawNumbers) {
    CollectiveCallsPage page(catalog);
    page.setRun(run.trace, run.analysis, "nvlink4");
    QTemporaryDir dir;
    const QString csv = dir.filePath(QStringLiteral("calls.csv"));
    ASSERT_TRUE(page.exportTo({csv, {}, 1.0}).ok());
    QFile f(csv);
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    const auto& calls = run.analysis->matching.calls;
    ASSERT_EQ(static_cast<std::size_t>(lines.size()), calls.size() + 1);
    EXPECT_TRUE(lines[0].startsWith(QStringLiteral("Step,Layer,Op,Bytes,Ranks,Transfer,algbw,busbw,")))
        << lines[0].toStdString();
    const QStringList first = lines[1].split(QLatin1Char(','));
    ASSERT_GT(first.size(), Model::Busbw);
    EXPECT_DOUBLE_EQ(first[Model::Bytes].toDouble(), static_cast<double>(calls.front().bytes));
    EXPECT_DOUBLE_EQ(first[Model::Busbw].toDouble(), core::analysis::busBandwidth(calls.front()));
}

}  // namespace
}  // namespace tpscope::ui
