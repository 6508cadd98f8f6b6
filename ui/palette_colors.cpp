// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/palette_colors.h"

#include <algorithm>
#include <cmath>

namespace tpscope::ui {

namespace {

double channel(double c) {
    return c <= 0.03928 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

double luminance(const QColor& c) {
    return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
}

}  // namespace

bool isDarkPalette(const QPalette& palette) {
    return palette.color(QPalette::Window).lightness() < 128;
}

QColor errorTextColor(const QPalette& palette) {
    return isDarkPalette(palette) ? QColor(0xFF, 0x8A, 0x80) : QColor(0xB0, 0x30, 0x30);
}

QColor mutedTextColor(const QPalette& palette) {
    // Halfway between text and background keeps about 4.5:1 on both themes.
    const QColor text = palette.color(QPalette::WindowText);
    const QColor back = palette.color(QPalette::Window);
    const double t = 0.35;
    return QColor::fromRgbF(static_cast<float>(text.redF() * (1 - t) + back.redF() * t),
                            static_cast<float>(text.greenF() * (1 - t) + back.greenF() * t),
                            static_cast<float>(text.blueF() * (1 - t) + back.blueF() * t));
}

double contrastRatio(const QColor& a, const QColor& b) {
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

}  // namespace tpscope::ui
