#include "ui/timeline/timeline_view.h"

#include <QImage>

#include <algorithm>
#include <cmath>

#include "ui/logging.h"

namespace tpscope::ui {

namespace {
constexpr std::int64_t kMinSpanNs = 200;
}

TimelineView::TimelineView(QWidget* parent) : QWidget(parent) {
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setMinimumSize(400, 160);
}

void TimelineView::setTrace(std::shared_ptr<const core::Trace> trace, std::shared_ptr<const TimelineData> data) {
    m_trace = std::move(trace);
    m_data = data ? std::move(data) : (m_trace ? TimelineData::build(*m_trace) : nullptr);
    m_collapsed.assign(m_trace ? m_trace->ranks.size() : 0, false);
    m_originNs = m_trace ? m_trace->startNs() : 0;
    m_traceEndNs = m_trace ? std::max(m_trace->endNs(), m_originNs + kMinSpanNs) : kMinSpanNs;
    m_selected = {};
    m_match.reset();
    m_rangeT0 = m_rangeT1 = 0;
    m_rangeStats = {};
    m_hover = {};
    m_scrollY = 0;
    qCDebug(lcTimeline) << "trace with" << (m_trace ? m_trace->eventCount() : 0) << "events";
    relayout();
    fit();
    Q_EMIT selectionChanged();
    Q_EMIT rangeSelectionChanged();
}

void TimelineView::relayout() {
    if (m_trace && m_data) {
        m_layout.rebuild(*m_trace, *m_data, m_collapsed);
    } else {
        m_layout = TimelineLayout{};
    }
    ++m_rowsVersion;
    m_geometry.valid = false;
    setVerticalOffset(m_scrollY);
    emitVerticalRange();
    update();
}

void TimelineView::emitVerticalRange() {
    const int page = std::max(0, height() - kRulerHeight);
    Q_EMIT verticalRangeChanged(std::max(0, m_layout.contentHeight() - page), page);
}

void TimelineView::setVisibleRange(std::int64_t t0, std::int64_t t1) {
    const std::int64_t fullSpan = m_traceEndNs - m_originNs;
    std::int64_t span = std::clamp<std::int64_t>(t1 - t0, kMinSpanNs, std::max(kMinSpanNs, fullSpan * 2));
    // Keep some of the trace on screen: the view may run past either end by half a view.
    t0 = std::clamp(t0, m_originNs - span / 2, std::max(m_originNs - span / 2, m_traceEndNs - span / 2));
    if (t0 == m_t0 && t0 + span == m_t1) return;
    m_t0 = t0;
    m_t1 = t0 + span;
    update();
    Q_EMIT visibleRangeChanged(m_t0, m_t1);
}

void TimelineView::fit() {
    const std::int64_t span = std::max(kMinSpanNs, m_traceEndNs - m_originNs);
    const std::int64_t margin = span / 100;
    setVisibleRange(m_originNs - margin, m_traceEndNs + margin);
}

void TimelineView::zoomAt(double factor, double x) {
    const double span = static_cast<double>(m_t1 - m_t0);
    const double anchor = std::clamp((x - timeAreaLeft()) / std::max(1, timeAreaWidth()), 0.0, 1.0);
    const double newSpan = std::max<double>(kMinSpanNs, span * factor);
    const double anchorNs = static_cast<double>(m_t0) + anchor * span;
    const auto t0 = static_cast<std::int64_t>(std::llround(anchorNs - anchor * newSpan));
    setVisibleRange(t0, t0 + static_cast<std::int64_t>(std::llround(newSpan)));
}

void TimelineView::panPixels(double dx) {
    const double nsPerPx = static_cast<double>(m_t1 - m_t0) / std::max(1, timeAreaWidth());
    const auto shift = static_cast<std::int64_t>(std::llround(dx * nsPerPx));
    setVisibleRange(m_t0 + shift, m_t1 + shift);
}

bool TimelineView::zoomToSelection() {
    std::int64_t t0 = 0, t1 = 0;
    if (hasSelectedRange()) {
        t0 = m_rangeT0;
        t1 = m_rangeT1;
    } else if (m_match) {
        t0 = INT64_MAX;
        t1 = INT64_MIN;
        for (const auto& m : m_match->members) {
            t0 = std::min(t0, m.startNs);
            t1 = std::max(t1, m.endNs);
        }
    } else if (m_selected.valid() && m_trace) {
        const auto& ev = m_trace->ranks[static_cast<std::size_t>(m_selected.rank)]
                             .streams[static_cast<std::size_t>(m_selected.stream)]
                             .events;
        t0 = ev.startNs(m_selected.index);
        t1 = ev.endNs(m_selected.index);
    } else {
        return false;
    }
    const std::int64_t margin = std::max<std::int64_t>((t1 - t0) / 10, 50);
    setVisibleRange(t0 - margin, t1 + margin);
    return true;
}

void TimelineView::setVerticalOffset(int y) {
    const int page = std::max(0, height() - kRulerHeight);
    y = std::clamp(y, 0, std::max(0, m_layout.contentHeight() - page));
    if (y == m_scrollY) return;
    m_scrollY = y;
    update();
    Q_EMIT verticalOffsetChanged(y);
}

void TimelineView::setRankCollapsed(int rank, bool collapsed) {
    if (rank < 0 || static_cast<std::size_t>(rank) >= m_collapsed.size()) return;
    if (m_collapsed[static_cast<std::size_t>(rank)] == collapsed) return;
    m_collapsed[static_cast<std::size_t>(rank)] = collapsed;
    relayout();
}

bool TimelineView::rankCollapsed(int rank) const {
    return rank >= 0 && static_cast<std::size_t>(rank) < m_collapsed.size() &&
           m_collapsed[static_cast<std::size_t>(rank)];
}

void TimelineView::setAllRanksCollapsed(bool collapsed) {
    m_collapsed.assign(m_collapsed.size(), collapsed);
    relayout();
}

void TimelineView::selectEvent(const EventRef& event) {
    if (!m_trace || !event.valid()) {
        clearSelection();
        return;
    }
    m_selected = event;
    m_match = m_data ? m_data->matchCollective(*m_trace, event) : std::nullopt;
    update();
    Q_EMIT selectionChanged();
}

void TimelineView::clearSelection() {
    const bool had = m_selected.valid() || hasSelectedRange();
    m_selected = {};
    m_match.reset();
    if (hasSelectedRange()) {
        m_rangeT0 = m_rangeT1 = 0;
        m_rangeStats = {};
        Q_EMIT rangeSelectionChanged();
    }
    if (had) {
        update();
        Q_EMIT selectionChanged();
    }
}

void TimelineView::selectRange(std::int64_t t0, std::int64_t t1) {
    if (t1 < t0) std::swap(t0, t1);
    m_rangeT0 = t0;
    m_rangeT1 = t1;
    m_rangeStats = m_trace && t1 > t0 ? core::rangeStats(*m_trace, t0, t1) : core::RangeStats{};
    update();
    Q_EMIT rangeSelectionChanged();
}

int TimelineView::timeAreaWidth() const {
    return std::max(1, width() - kGutterWidth);
}

double TimelineView::xForTime(std::int64_t t) const {
    return timeAreaLeft() + static_cast<double>(t - m_t0) * timeAreaWidth() / static_cast<double>(m_t1 - m_t0);
}

std::int64_t TimelineView::timeForX(double x) const {
    return m_t0 + static_cast<std::int64_t>(
                      std::llround((x - timeAreaLeft()) * static_cast<double>(m_t1 - m_t0) / timeAreaWidth()));
}

void TimelineView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    setVerticalOffset(m_scrollY);
    emitVerticalRange();
}

void TimelineView::renderTo(QImage& image) {
    image = QImage(size(), QImage::Format_RGB32);
    render(&image);
}

}  // namespace tpscope::ui
