// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/timeline/time_axis.h"

#include <algorithm>
#include <cmath>

namespace tpscope::ui {

TimeAxis::TimeAxis(QObject* parent) : QObject(parent) {}

std::int64_t TimeAxis::contentSpanNs() const {
    std::int64_t span = kMinSpanNs;
    for (const auto& [view, s] : m_content) span = std::max(span, s);
    return span;
}

void TimeAxis::setContentSpan(const void* view, std::int64_t spanNs) {
    if (spanNs <= 0) {
        m_content.erase(view);
    } else {
        m_content[view] = spanNs;
    }
}

void TimeAxis::setRange(std::int64_t t0, std::int64_t t1) {
    const std::int64_t full = contentSpanNs();
    const std::int64_t span = std::clamp<std::int64_t>(t1 - t0, kMinSpanNs, std::max(kMinSpanNs, full * 2));
    // Keep some of the content on screen: the view may run past either end by half a view.
    t0 = std::clamp(t0, -span / 2, std::max(-span / 2, full - span / 2));
    if (t0 == m_t0 && t0 + span == m_t1) return;
    m_t0 = t0;
    m_t1 = t0 + span;
    Q_EMIT rangeChanged(m_t0, m_t1);
}

void TimeAxis::fit() {
    const std::int64_t span = contentSpanNs();
    const std::int64_t margin = span / 100;
    setRange(-margin, span + margin);
}

void TimeAxis::zoom(double factor, double anchor) {
    const double span = static_cast<double>(spanNs());
    anchor = std::clamp(anchor, 0.0, 1.0);
    const double newSpan = std::max<double>(kMinSpanNs, span * factor);
    const double anchorNs = static_cast<double>(m_t0) + anchor * span;
    const auto t0 = static_cast<std::int64_t>(std::llround(anchorNs - anchor * newSpan));
    setRange(t0, t0 + static_cast<std::int64_t>(std::llround(newSpan)));
}

void TimeAxis::pan(std::int64_t deltaNs) {
    setRange(m_t0 + deltaNs, m_t1 + deltaNs);
}

}  // namespace tpscope::ui
