// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Chart axes label their ticks through core's formatters: the GUI's duration spelling ("µs"), and a
// bare "0" at zero, whatever the unit (a "0 ns" tick under "µs" ticks reads like another scale).
#include <qcustomplot.h>

#include <gtest/gtest.h>

#include "core/util/units.h"
#include "tests/ui/ui_test_support.h"
#include "ui/charts/unit_ticker.h"

namespace tpscope::ui {
namespace {

struct Ticks {
    QVector<double> values;
    QVector<QString> labels;
};

Ticks ticksOf(QSharedPointer<QCPAxisTicker> ticker, double lower, double upper) {
    QCustomPlot plot;
    plot.resize(400, 300);
    plot.yAxis->setTicker(ticker);
    plot.yAxis->setRange(lower, upper);
    plot.replot();
    return {plot.yAxis->tickVector(), plot.yAxis->tickVectorLabels()};
}

TEST(UnitTicker, DurationTicksUseTheMicroSignAndABareZero) {
    test::ensureApp();
    const auto [ticks, labels] = ticksOf(durationTicker(), 0, 150'000);
    ASSERT_EQ(labels.size(), ticks.size());
    ASSERT_GE(labels.size(), 3);
    EXPECT_EQ(labels.front(), QStringLiteral("0"));
    for (int i = 1; i < labels.size(); ++i) {
        const std::string expected = core::formatDurationNs(ticks[i], core::DurationStyle::Display);
        EXPECT_EQ(labels[i].toStdString(), expected);
        EXPECT_TRUE(labels[i].endsWith(QString::fromUtf8("\xC2\xB5s"))) << labels[i].toStdString();
    }
}

TEST(UnitTicker, ZeroIsBareForEveryUnit) {
    test::ensureApp();
    for (const auto& ticker : {dollarTicker(), percentTicker(), siTicker(), bandwidthTicker()}) {
        const QVector<QString> labels = ticksOf(ticker, 0, 10).labels;
        ASSERT_FALSE(labels.isEmpty());
        EXPECT_EQ(labels.front(), QStringLiteral("0"));
        EXPECT_NE(labels.back(), QStringLiteral("0"));
    }
}

}  // namespace
}  // namespace tpscope::ui
