// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/timeline/kind_palette.h"

#include <algorithm>
#include <array>

namespace tpscope::ui {

QColor kindColor(core::EventKind kind) {
    static const std::array<QColor, core::kEventKindCount> colors = {
        QColor(0x4C, 0x78, 0xA8),  // GEMM: blue
        QColor(0xB2, 0x79, 0xA2),  // attention: purple
        QColor(0xF5, 0x85, 0x18),  // collective: orange
        QColor(0x72, 0xB7, 0xB2),  // elementwise: teal
        QColor(0x54, 0xA2, 0x4B),  // memcpy: green
        QColor(0xEE, 0xCA, 0x3B),  // memset: yellow
        QColor(0x9D, 0x9D, 0x9D),  // other: grey
    };
    const auto i = static_cast<std::size_t>(kind);
    return i < colors.size() ? colors[i] : colors.back();
}

QColor foldedColor(core::EventKind kind) {
    return kindColor(kind).darker(125);
}

QColor exposedCommColor() {
    return QColor(0xE4, 0x57, 0x56);
}

QColor hostCallColor() {
    return {0x3D, 0x55, 0x6E};
}

QColor foldedHostColor() {
    return hostCallColor().lighter(130);
}

QColor nvtxColor(int depth, std::size_t index, bool dark) {
    static const std::array<std::array<QColor, 2>, 3> light = {{
        {QColor(0x5B, 0x67, 0x70), QColor(0x6E, 0x7B, 0x85)},
        {QColor(0x93, 0xA4, 0xB1), QColor(0xA8, 0xB7, 0xC2)},
        {QColor(0xC3, 0xCE, 0xD6), QColor(0xD3, 0xDC, 0xE2)},
    }};
    static const std::array<std::array<QColor, 2>, 3> darkTones = {{
        {QColor(0x5B, 0x67, 0x70), QColor(0x6E, 0x7B, 0x85)},
        {QColor(0x45, 0x50, 0x59), QColor(0x50, 0x5C, 0x66)},
        {QColor(0x34, 0x3D, 0x45), QColor(0x3D, 0x47, 0x50)},
    }};
    const auto d = static_cast<std::size_t>(std::clamp(depth, 0, 2));
    return (dark ? darkTones : light)[d][index % 2];
}

QColor waitWashColor(const QColor& background) {
    QColor wash = background;
    wash.setAlpha(150);
    return wash;
}

QColor waitHatchColor() {
    return QColor(0x8A, 0x3B, 0x00, 220);
}

QString kindLabel(core::EventKind kind) {
    switch (kind) {
        case core::EventKind::Gemm:
            return QStringLiteral("GEMM");
        case core::EventKind::Attention:
            return QStringLiteral("Attention");
        case core::EventKind::Collective:
            return QStringLiteral("Collective");
        case core::EventKind::Elementwise:
            return QStringLiteral("Elementwise");
        case core::EventKind::Memcpy:
            return QStringLiteral("Memcpy");
        case core::EventKind::Memset:
            return QStringLiteral("Memset");
        case core::EventKind::Other:
            return QStringLiteral("Other");
    }
    return QStringLiteral("Other");
}

QColor textColorOn(const QColor& background) {
    const double luminance = 0.299 * background.redF() + 0.587 * background.greenF() + 0.114 * background.blueF();
    return luminance > 0.6 ? QColor(0x20, 0x20, 0x20) : QColor(Qt::white);
}

}  // namespace tpscope::ui
