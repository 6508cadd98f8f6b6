// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/charts/chart_theme.h"

#include <qcustomplot.h>

#include "ui/palette_colors.h"

namespace tpscope::ui {

namespace {

void styleAxis(QCPAxis& axis, const QColor& text, const QColor& grid) {
    const QPen line(text, 0);
    axis.setBasePen(line);
    axis.setTickPen(line);
    axis.setSubTickPen(line);
    axis.setTickLabelColor(text);
    axis.setLabelColor(text);
    axis.grid()->setPen(QPen(grid, 0, Qt::DotLine));
    axis.grid()->setZeroLinePen(Qt::NoPen);
}

}  // namespace

void applyChartTheme(QCustomPlot& plot, const QPalette& palette) {
    const QColor base = palette.color(QPalette::Base);
    const QColor text = palette.color(QPalette::Text);
    QColor grid = palette.color(QPalette::Mid);
    grid.setAlpha(isDarkPalette(palette) ? 140 : 110);
    plot.setBackground(base);
    for (auto* rect : plot.axisRects()) {
        rect->setBackground(base);
        for (auto* axis : rect->axes()) styleAxis(*axis, text, grid);
    }
    QColor legendBack = base;
    legendBack.setAlpha(220);
    auto styleLegend = [&](QCPLegend* legend) {
        legend->setBrush(legendBack);
        legend->setBorderPen(QPen(grid, 0));
        legend->setTextColor(text);
    };
    styleLegend(plot.legend);
    for (int i = 0; i < plot.plotLayout()->elementCount(); ++i) {
        if (auto* title = qobject_cast<QCPTextElement*>(plot.plotLayout()->elementAt(i))) title->setTextColor(text);
    }
    // Every legend wherever it is: in an axis rect's inset, or in a row of the plot layout (Scaling's
    // loss legend); recursive, the axis rects' inset layouts included.
    for (auto* element : plot.plotLayout()->elements(true)) {
        if (auto* legend = qobject_cast<QCPLegend*>(element)) styleLegend(legend);
    }
    for (int i = 0; i < plot.itemCount(); ++i) {
        if (auto* label = qobject_cast<QCPItemText*>(plot.item(i))) {
            label->setColor(text);
            // A label with a background (over grid lines: the Calculator's "n/a") takes the axes' one.
            if (label->brush().style() != Qt::NoBrush) label->setBrush(base);
        }
    }
}

}  // namespace tpscope::ui
