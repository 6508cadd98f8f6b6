// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/window/progress_delegate.h"

#include <QApplication>
#include <QStyleOptionProgressBar>

#include "ui/window/runs_model.h"

namespace tpscope::ui {

void ProgressDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const {
    const double fraction = index.data(RunsModel::ProgressRole).toDouble();
    if (fraction < 0) {
        QStyledItemDelegate::paint(painter, option, index);
        return;
    }
    QStyleOptionProgressBar bar;
    bar.rect = option.rect.adjusted(2, 3, -2, -3);
    bar.minimum = 0;
    bar.maximum = 1000;
    bar.progress = static_cast<int>(fraction * 1000);
    bar.text = QStringLiteral("%1 %").arg(static_cast<int>(fraction * 100));
    bar.textVisible = true;
    bar.state = option.state | QStyle::State_Horizontal;
    QApplication::style()->drawControl(QStyle::CE_ProgressBar, &bar, painter);
}

}  // namespace tpscope::ui
