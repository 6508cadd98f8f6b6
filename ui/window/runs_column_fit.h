// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Sizes the runs table's columns to its pane, so that the status column (where "does not fit: needs
// X GiB per GPU ..." shows) is in view without scrolling sideways: every column before it keeps its
// contents' width, except one (the run's name) that gives up width down to a floor when the pane is
// narrow; the status column takes the rest of the viewport, at least a floor, and elides (its tooltip
// holds the full text). Columns after it stay a sideways scroll away. Refitted when the viewport
// resizes and whenever another column's width changes (new rows, new numbers); a column the user
// drags keeps its width until the pane resizes.

#include <QObject>

class QTableView;

namespace tpscope::ui {

class RunsColumnFit : public QObject {
    Q_OBJECT

  public:
    // `fill`: the column that takes the room left; `shrink`: the one that gives up width first.
    // Both logical columns of the table's model; owned by the table.
    RunsColumnFit(QTableView* table, int fill, int shrink);
    void fit();
    // The floors, from the table's font.
    int fillMinimum() const;
    int shrinkMinimum() const;

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    void schedule();

    QTableView* m_table = nullptr;
    int m_fill = 0;
    int m_shrink = 0;
    bool m_scheduled = false;
    bool m_fitting = false;
};

}  // namespace tpscope::ui
