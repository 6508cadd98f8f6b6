// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The colour key of the timeline: one swatch per event kind, the folded-run shade, exposed
// communication and the wait hatching of a selected collective.

#include <QWidget>

namespace tpscope::ui {

class TimelineLegend : public QWidget {
    Q_OBJECT

  public:
    explicit TimelineLegend(QWidget* parent = nullptr);
    QSize sizeHint() const override;

  protected:
    void paintEvent(QPaintEvent* event) override;
};

}  // namespace tpscope::ui
