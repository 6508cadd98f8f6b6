// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Light and dark chart styling from the widget's palette (the system's), applied again on every
// QEvent::PaletteChange: background, axes, ticks, grid, legend and text never hard-code black on white.

#include <QPalette>

class QCustomPlot;

namespace tpscope::ui {

void applyChartTheme(QCustomPlot& plot, const QPalette& palette);

}  // namespace tpscope::ui
