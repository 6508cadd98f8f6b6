// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/timeline/timeline_legend.h"

#include <QPainter>

#include <algorithm>
#include <vector>

#include "ui/timeline/kind_palette.h"

namespace tpscope::ui {

namespace {

struct Entry {
    QString label;
    QColor color;
    Qt::BrushStyle style = Qt::SolidPattern;
};

std::vector<Entry> entries() {
    using core::EventKind;
    std::vector<Entry> out;
    for (const auto kind : {EventKind::Gemm, EventKind::Attention, EventKind::Elementwise, EventKind::Collective,
                            EventKind::Memcpy, EventKind::Memset, EventKind::Other}) {
        out.push_back({kindLabel(kind), kindColor(kind)});
    }
    out.push_back({QObject::tr("exposed comm"), exposedCommColor()});
    out.push_back({QObject::tr("wait"), waitHatchColor(), Qt::BDiagPattern});
    return out;
}

constexpr int kSwatch = 11;
constexpr int kSwatchGap = 5;  // swatch to label
constexpr int kSpacing = 14;   // entry to entry

int rowHeight(const QFontMetrics& fm) {
    return fm.height() + 6;
}

}  // namespace

TimelineLegend::TimelineLegend(QWidget* parent) : QWidget(parent) {
    QSizePolicy policy(QSizePolicy::Preferred, QSizePolicy::Preferred);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
}

QStringList TimelineLegend::labels() const {
    QStringList out;
    for (const auto& e : entries()) out << e.label;
    return out;
}

QList<QRect> TimelineLegend::entryRects(int width) const {
    // Left to right by each label's measured width; an entry that would cross `width` starts a new
    // row (the first of a row always stays, however narrow the legend).
    const QFontMetrics fm = fontMetrics();
    const int h = rowHeight(fm);
    QList<QRect> out;
    int x = 0;
    int y = 0;
    for (const auto& e : entries()) {
        const int w = kSwatch + kSwatchGap + fm.horizontalAdvance(e.label) + 2;
        if (x > 0 && x + w > width) {
            x = 0;
            y += h;
        }
        out << QRect(x, y, w, h);
        x += w + kSpacing;
    }
    return out;
}

QSize TimelineLegend::sizeHint() const {
    const auto rects = entryRects(QWIDGETSIZE_MAX);
    return {rects.isEmpty() ? 0 : rects.back().right() + 1, rowHeight(fontMetrics())};
}

QSize TimelineLegend::minimumSizeHint() const {
    int w = 0;
    for (const auto& r : entryRects(0)) w = std::max(w, r.width());
    return {w, rowHeight(fontMetrics())};
}

int TimelineLegend::heightForWidth(int width) const {
    const auto rects = entryRects(width);
    return rects.isEmpty() ? 0 : rects.back().bottom() + 1;
}

void TimelineLegend::paintEvent(QPaintEvent*) {
    QPainter p(this);
    const auto all = entries();
    const auto rects = entryRects(width());
    p.setPen(palette().color(QPalette::WindowText));
    for (std::size_t i = 0; i < all.size(); ++i) {
        const auto& e = all[i];
        const QRect box = rects[static_cast<qsizetype>(i)];
        const QRect swatch(box.left(), box.center().y() - kSwatch / 2, kSwatch, kSwatch);
        if (e.style == Qt::SolidPattern) {
            p.fillRect(swatch, e.color);
        } else {
            p.fillRect(swatch, kindColor(core::EventKind::Collective));
            p.fillRect(swatch, waitWashColor(palette().color(QPalette::Base)));
            p.fillRect(swatch, QBrush(e.color, e.style));
        }
        p.drawText(box.adjusted(kSwatch + kSwatchGap, 0, 0, 0), Qt::AlignVCenter | Qt::AlignLeft, e.label);
    }
}

}  // namespace tpscope::ui
