// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The time axis that one or several timeline views share (DESIGN.md §8): the visible range in
// trace-relative nanoseconds (0 = each view's own trace origin), so that two runs shown one above
// the other stay aligned at every zoom although their absolute clocks differ. Views report the
// length of their content; the axis clamps a requested range against the longest (a view may show
// up to twice the content and run past either end by half a view), then tells every subscriber.

#include <QObject>

#include <cstdint>
#include <unordered_map>

namespace tpscope::ui {

class TimeAxis : public QObject {
    Q_OBJECT

  public:
    static constexpr std::int64_t kMinSpanNs = 200;

    explicit TimeAxis(QObject* parent = nullptr);

    std::int64_t startNs() const { return m_t0; }
    std::int64_t endNs() const { return m_t1; }
    std::int64_t spanNs() const { return m_t1 - m_t0; }
    // The longest content of the views on this axis (>= kMinSpanNs).
    std::int64_t contentSpanNs() const;

    // A view's content length; 0 removes the view (on destruction or when it has no trace).
    void setContentSpan(const void* view, std::int64_t spanNs);
    void setRange(std::int64_t t0, std::int64_t t1);
    void fit();                               // the whole content with a 1 % margin
    void zoom(double factor, double anchor);  // factor < 1 zooms in; anchor 0..1 across the view
    void pan(std::int64_t deltaNs);

  Q_SIGNALS:
    void rangeChanged(qint64 t0, qint64 t1);

  private:
    std::int64_t m_t0 = 0;
    std::int64_t m_t1 = kMinSpanNs;
    std::unordered_map<const void*, std::int64_t> m_content;
};

}  // namespace tpscope::ui
