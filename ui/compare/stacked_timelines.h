// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Timelines one above the other in one picture (the Compare view's export and the comparison
// report): each pane is a title line and a copy of a view's renderer (its scene: trace, range,
// rows, scroll) painted at the pane's share of the height. Widget-free: TimelineRenderer::paint.

#include <QFont>
#include <QSize>
#include <QString>

#include <vector>

#include "ui/timeline/timeline_renderer.h"

class QPainter;

namespace tpscope::ui {

struct StackedPane {
    QString title;
    TimelineRenderer renderer;
};

// Paints the panes into `size` logical pixels at `dpr`; each renderer is laid out at its pane's size.
void paintStackedTimelines(QPainter& p, std::vector<StackedPane>& panes, QSize size, double dpr, const QFont& font);

}  // namespace tpscope::ui
