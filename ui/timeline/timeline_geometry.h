// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The timeline's draw list for one (t0, t1, size, scroll, rows, device-pixel ratio) key: level-of-detail items per row
// on screen, their rectangles batched by colour, and the few labels wide enough to read. Rebuilt only when the key
// changes; hover and selection repaint from it (STYLE.md "Timeline rendering").

#include <QColor>
#include <QRect>
#include <QRectF>
#include <QString>
#include <QVector>

#include <array>
#include <cstdint>
#include <vector>

#include "core/trace/event_kind.h"
#include "core/trace/level_of_detail.h"

namespace tpscope::ui {

// Colour slots: one per kind (exact), one per kind (folded run), exposed communication, two
// alternating tones for each of three NVTX depths, and host calls (exact, folded run).
inline constexpr int kFoldedSlot = core::kEventKindCount;
inline constexpr int kExposedSlot = 2 * core::kEventKindCount;
inline constexpr int kNvtxSlot = kExposedSlot + 1;
inline constexpr int kHostSlot = kNvtxSlot + 6;
inline constexpr int kColourSlots = kHostSlot + 2;

struct ItemLabel {
    QRectF rect;
    QString text;
    QColor color;
};

struct GeometryKey {
    std::int64_t t0 = 0;
    std::int64_t t1 = 0;
    int widthPx = 0;
    int heightPx = 0;
    int scrollY = 0;
    std::uint64_t rowsVersion = 0;
    double dpr = 1.0;
    bool operator==(const GeometryKey&) const = default;
};

struct TimelineGeometry {
    bool valid = false;
    GeometryKey key;
    std::vector<int> rows;                              // indices of the rows on screen
    std::vector<std::vector<core::LodSpan>> spans;      // parallel to rows
    std::array<QVector<QRectF>, kColourSlots> batches;  // logical pixels, on device-pixel edges
    std::vector<ItemLabel> labels;
    std::size_t itemCount = 0;

    // Index into rows/spans of layout row `row`, or -1 when it is off screen.
    int slotOfRow(int row) const;
};

QColor slotColor(int slot, bool dark);  // dark: the palette's background is dark (NVTX tones)

}  // namespace tpscope::ui
