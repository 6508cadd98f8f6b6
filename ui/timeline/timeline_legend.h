// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The colour key of the timeline: one swatch per event kind, the folded-run shade, exposed
// communication and the wait hatching of a selected collective. One row when the tool row has room
// for it; otherwise the entries wrap onto further rows (heightForWidth), laid out by their measured
// text width, so none is cut at the right edge (it was at 1600 px: "exposed comm").

#include <QList>
#include <QRect>
#include <QWidget>

namespace tpscope::ui {

class TimelineLegend : public QWidget {
    Q_OBJECT

  public:
    explicit TimelineLegend(QWidget* parent = nullptr);
    QSize sizeHint() const override;         // all entries on one row
    QSize minimumSizeHint() const override;  // the widest entry, one per row
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    // Each entry's box (swatch and label) at `width`, in the order painted.
    QList<QRect> entryRects(int width) const;
    QStringList labels() const;

  protected:
    void paintEvent(QPaintEvent* event) override;
};

}  // namespace tpscope::ui
