// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// A small stacked bar of one run's decode step in a table cell: compute, exposed transfer, sync wait,
// imbalance and idle as shares of step time (core::analysis::LossBreakdown, which sums to 1), in the
// chart colours. The model hands the breakdown through `role` as a QVariant; cells without one are
// painted as usual. What a user looks for first when a sweep finishes (issue 11, runs table).

#include <QStyledItemDelegate>

#include <utility>
#include <vector>

#include "core/analysis/run_summary.h"
#include "ui/charts/breakdown_palette.h"

Q_DECLARE_METATYPE(tpscope::core::analysis::LossBreakdown)

namespace tpscope::ui {

class StepBarDelegate : public QStyledItemDelegate {
    Q_OBJECT

  public:
    StepBarDelegate(int role, QObject* parent = nullptr) : QStyledItemDelegate(parent), m_role(role) {}

    // The parts left to right with their shares of step time.
    static std::vector<std::pair<BreakdownPart, double>> segments(const core::analysis::LossBreakdown& loss);
    // Paints the bar into rect (also used by tests and exports).
    static void paintBar(QPainter& painter, const QRectF& rect, const core::analysis::LossBreakdown& loss);

    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override;
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;

  private:
    int m_role;
};

}  // namespace tpscope::ui
