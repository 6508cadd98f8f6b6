// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/compare/stacked_timelines.h"

#include <QFontMetrics>
#include <QPainter>
#include <QPalette>

namespace tpscope::ui {

void paintStackedTimelines(QPainter& p, std::vector<StackedPane>& panes, QSize size, double dpr, const QFont& font) {
    // The palette's colours, as on screen: a dark desktop exports a dark comparison, with no white
    // margins or black titles left over (issue 45 §3).
    const QPalette palette;
    p.fillRect(QRect(QPoint(0, 0), size), palette.color(QPalette::Base));
    if (panes.empty()) return;
    QFont titleFont = font;
    titleFont.setBold(true);
    const int titleHeight = QFontMetrics(titleFont).height() + 6;
    const int n = static_cast<int>(panes.size());
    const int paneHeight = std::max(40, size.height() / n - titleHeight);
    for (int i = 0; i < n; ++i) {
        const int top = i * (paneHeight + titleHeight);
        p.save();
        p.setFont(titleFont);
        p.setPen(palette.color(QPalette::Text));
        p.drawText(QRect(6, top, size.width() - 12, titleHeight), Qt::AlignLeft | Qt::AlignVCenter, panes[i].title);
        p.translate(0, top + titleHeight);
        p.setClipRect(QRect(0, 0, size.width(), paneHeight));
        const QSize paneSize(size.width(), paneHeight);
        panes[i].renderer.setViewport(paneSize, dpr, font);
        panes[i].renderer.paint(p, paneSize, dpr);
        p.restore();
    }
}

}  // namespace tpscope::ui
