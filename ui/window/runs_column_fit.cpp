// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/window/runs_column_fit.h"

#include <QEvent>
#include <QHeaderView>
#include <QTableView>
#include <QTimer>

#include <algorithm>

namespace tpscope::ui {

RunsColumnFit::RunsColumnFit(QTableView* table, int fill, int shrink)
    : QObject(table), m_table(table), m_fill(fill), m_shrink(shrink) {
    QHeaderView* header = table->horizontalHeader();
    header->setSectionResizeMode(fill, QHeaderView::Interactive);
    header->setSectionResizeMode(shrink, QHeaderView::Interactive);
    table->viewport()->installEventFilter(this);
    connect(header, &QHeaderView::sectionResized, this, [this](int logical, int, int) {
        if (!m_fitting && logical != m_fill && logical != m_shrink) schedule();
    });
    // The shrinking column has a fixed mode, so a longer name does not resize it by itself.
    connect(table->model(), &QAbstractItemModel::rowsInserted, this, &RunsColumnFit::schedule);
    connect(table->model(), &QAbstractItemModel::dataChanged, this, &RunsColumnFit::schedule);
    connect(table->model(), &QAbstractItemModel::modelReset, this, &RunsColumnFit::schedule);
    connect(table->model(), &QAbstractItemModel::layoutChanged, this, &RunsColumnFit::schedule);
    schedule();
}

int RunsColumnFit::fillMinimum() const {
    return m_table->fontMetrics().horizontalAdvance(QLatin1Char('x')) * 14;  // "does not fit…", "running 40 %"
}

int RunsColumnFit::shrinkMinimum() const {
    return std::max(m_table->horizontalHeader()->sectionSizeHint(m_shrink),
                    m_table->fontMetrics().horizontalAdvance(QLatin1Char('x')) * 16);
}

void RunsColumnFit::schedule() {
    if (m_scheduled) return;
    m_scheduled = true;
    // After the view's own layout: the contents-sized columns have their new widths by then.
    QTimer::singleShot(0, this, [this] {
        m_scheduled = false;
        fit();
    });
}

void RunsColumnFit::fit() {
    QHeaderView* header = m_table->horizontalHeader();
    const int fillAt = header->visualIndex(m_fill);
    int before = 0;  // the columns left of the fill column, the shrinking one aside
    for (int visual = 0; visual < fillAt; ++visual) {
        const int logical = header->logicalIndex(visual);
        if (logical != m_shrink && !header->isSectionHidden(logical)) before += header->sectionSize(logical);
    }
    const int room = m_table->viewport()->width() - before;
    // Public on the base (QTableView's override is protected); the widest cell of the rows in view.
    const QAbstractItemView* view = m_table;
    const int natural = std::max(view->sizeHintForColumn(m_shrink), header->sectionSizeHint(m_shrink));
    const int shrink = std::clamp(room - fillMinimum(), std::min(shrinkMinimum(), natural), natural);
    const int fill = std::max(fillMinimum(), room - shrink);
    m_fitting = true;
    header->resizeSection(m_shrink, shrink);
    header->resizeSection(m_fill, fill);
    m_fitting = false;
}

bool RunsColumnFit::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_table->viewport() && event->type() == QEvent::Resize) schedule();
    return QObject::eventFilter(watched, event);
}

}  // namespace tpscope::ui
