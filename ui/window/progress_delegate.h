// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Paints a progress bar in a table cell while RunsModel::ProgressRole holds a fraction (>= 0).

#include <QStyledItemDelegate>

namespace tpscope::ui {

class ProgressDelegate : public QStyledItemDelegate {
    Q_OBJECT

  public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override;
};

}  // namespace tpscope::ui
