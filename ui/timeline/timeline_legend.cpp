// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/timeline/timeline_legend.h"

#include <QPainter>

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
constexpr int kSpacing = 14;

}  // namespace

TimelineLegend::TimelineLegend(QWidget* parent) : QWidget(parent) {
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
}

QSize TimelineLegend::sizeHint() const {
    int w = 0;
    for (const auto& e : entries()) w += kSwatch + 5 + fontMetrics().horizontalAdvance(e.label) + kSpacing;
    return {w, fontMetrics().height() + 6};
}

void TimelineLegend::paintEvent(QPaintEvent*) {
    QPainter p(this);
    int x = 0;
    const int mid = height() / 2;
    for (const auto& e : entries()) {
        const QRect swatch(x, mid - kSwatch / 2, kSwatch, kSwatch);
        if (e.style == Qt::SolidPattern) {
            p.fillRect(swatch, e.color);
        } else {
            p.fillRect(swatch, kindColor(core::EventKind::Collective));
            p.fillRect(swatch, waitWashColor(palette().color(QPalette::Base)));
            p.fillRect(swatch, QBrush(e.color, e.style));
        }
        x += kSwatch + 5;
        const int w = fontMetrics().horizontalAdvance(e.label);
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(QRect(x, 0, w + 2, height()), Qt::AlignVCenter | Qt::AlignLeft, e.label);
        x += w + kSpacing;
    }
}

}  // namespace tpscope::ui
