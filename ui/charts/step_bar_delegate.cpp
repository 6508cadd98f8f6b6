// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/charts/step_bar_delegate.h"

#include <QPainter>

#include <algorithm>

namespace tpscope::ui {

std::vector<std::pair<BreakdownPart, double>> StepBarDelegate::segments(const core::analysis::LossBreakdown& loss) {
    return {{BreakdownPart::Compute, loss.compute},
            {BreakdownPart::ExposedTransfer, loss.transfer},
            {BreakdownPart::SyncWait, loss.syncWait},
            {BreakdownPart::Imbalance, loss.imbalance},
            {BreakdownPart::Idle, loss.idle}};
}

void StepBarDelegate::paintBar(QPainter& painter, const QRectF& rect, const core::analysis::LossBreakdown& loss) {
    const auto parts = segments(loss);
    double total = 0;
    for (const auto& [part, share] : parts) total += std::max(0.0, share);
    if (!(total > 0)) return;
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, false);
    // Cumulative edges, so rounding never leaves a gap or overlaps a neighbour.
    double cumulative = 0;
    for (const auto& [part, share] : parts) {
        const double x0 = rect.left() + rect.width() * cumulative / total;
        cumulative += std::max(0.0, share);
        const double x1 = rect.left() + rect.width() * cumulative / total;
        if (x1 > x0) painter.fillRect(QRectF(x0, rect.top(), x1 - x0, rect.height()), breakdownColor(part));
    }
    painter.restore();
}

void StepBarDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const {
    const QVariant value = index.data(m_role);
    if (!value.canConvert<core::analysis::LossBreakdown>()) {
        QStyledItemDelegate::paint(painter, option, index);
        return;
    }
    QStyleOptionViewItem background = option;
    initStyleOption(&background, index);
    background.text.clear();
    QStyledItemDelegate::paint(painter, background, index);
    paintBar(*painter, QRectF(option.rect).adjusted(3, 4, -3, -4), value.value<core::analysis::LossBreakdown>());
}

QSize StepBarDelegate::sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const {
    const QSize base = QStyledItemDelegate::sizeHint(option, index);
    return index.data(m_role).canConvert<core::analysis::LossBreakdown>()
               ? QSize(std::max(base.width(), 90), base.height())
               : base;
}

}  // namespace tpscope::ui
