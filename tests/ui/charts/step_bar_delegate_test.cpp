// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// The runs table's inline step bar: each part's width is its share of step time, in the chart colour.
#include <QImage>
#include <QPainter>
#include <QStandardItemModel>
#include <QStyleOptionViewItem>

#include <gtest/gtest.h>

#include "tests/ui/ui_test_support.h"
#include "ui/charts/step_bar_delegate.h"

namespace tpscope::ui {
namespace {

TEST(StepBarDelegate, PartsAreAsWideAsTheirShares) {
    test::ensureApp();
    core::analysis::LossBreakdown loss;
    loss.compute = 0.5;
    loss.transfer = 0.25;
    loss.syncWait = 0.1;
    loss.imbalance = 0.05;
    loss.idle = 0.1;
    QImage image(400, 10, QImage::Format_ARGB32);
    image.fill(Qt::white);
    {
        QPainter p(&image);
        StepBarDelegate::paintBar(p, QRectF(0, 0, 400, 10), loss);
    }
    // Sample the middle of each part: [0,200) compute, [200,300) transfer, [300,340) wait,
    // [340,360) imbalance, [360,400) idle.
    const std::pair<int, BreakdownPart> probes[] = {{100, BreakdownPart::Compute},
                                                    {250, BreakdownPart::ExposedTransfer},
                                                    {320, BreakdownPart::SyncWait},
                                                    {350, BreakdownPart::Imbalance},
                                                    {380, BreakdownPart::Idle}};
    for (const auto& [x, part] : probes) {
        EXPECT_EQ(image.pixelColor(x, 5), breakdownColor(part)) << "x = " << x;
    }
    // Edges at the cumulative shares.
    EXPECT_EQ(image.pixelColor(199, 5), breakdownColor(BreakdownPart::Compute));
    EXPECT_EQ(image.pixelColor(200, 5), breakdownColor(BreakdownPart::ExposedTransfer));
}

TEST(StepBarDelegate, CellsWithoutABreakdownPaintTheirText) {
    test::ensureApp();
    constexpr int kRole = Qt::UserRole + 9;
    QStandardItemModel model(1, 2);
    model.setData(model.index(0, 0), QStringLiteral("TP 4"));
    core::analysis::LossBreakdown loss;
    loss.idle = 1.0;
    model.setData(model.index(0, 1), QVariant::fromValue(loss), kRole);
    StepBarDelegate delegate(kRole);
    QImage image(120, 24, QImage::Format_ARGB32);
    image.fill(Qt::white);
    QStyleOptionViewItem option;
    option.rect = QRect(0, 0, 120, 24);
    {
        QPainter p(&image);
        delegate.paint(&p, option, model.index(0, 1));
    }
    EXPECT_EQ(image.pixelColor(60, 12), breakdownColor(BreakdownPart::Idle));
    EXPECT_GE(delegate.sizeHint(option, model.index(0, 1)).width(), 90);
}

}  // namespace
}  // namespace tpscope::ui
