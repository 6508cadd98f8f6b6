// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Text colours that follow the palette (light or dark theme) instead of hard-coded greys and reds:
// each is chosen for contrast against the palette's window/base colour.

#include <QColor>
#include <QPalette>

namespace tpscope::ui {

bool isDarkPalette(const QPalette& palette);
QColor errorTextColor(const QPalette& palette);  // failed runs, invalid input
QColor mutedTextColor(const QPalette& palette);  // hints, secondary labels
// WCAG contrast ratio of two colours (1..21); tests check the colours above with it.
double contrastRatio(const QColor& a, const QColor& b);

}  // namespace tpscope::ui
