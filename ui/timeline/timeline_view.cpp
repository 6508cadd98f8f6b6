// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/timeline/timeline_view.h"

#include <QEvent>
#include <QImage>
#include <QPainter>

#include <algorithm>
#include <cmath>

#include "ui/logging.h"

namespace tpscope::ui {

TimelineView::TimelineView(QWidget* parent) : QWidget(parent) {
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setMinimumSize(400, 160);
    setTimeAxis(new TimeAxis(this));
    scene().colors = TimelineColors::fromPalette(palette());
}

void TimelineView::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        scene().colors = TimelineColors::fromPalette(palette());
        update();
    }
}

TimelineView::~TimelineView() {
    if (m_axis != nullptr) m_axis->setContentSpan(this, 0);
}

void TimelineView::setTimeAxis(TimeAxis* axis) {
    if (axis == nullptr || axis == m_axis) return;
    if (m_axis != nullptr) {
        disconnect(m_axis, nullptr, this, nullptr);
        m_axis->setContentSpan(this, 0);
    }
    m_axis = axis;
    if (scene().trace) m_axis->setContentSpan(this, contentSpanOnAxis());
    connect(m_axis, &TimeAxis::rangeChanged, this, &TimelineView::onAxisChanged);
    onAxisChanged();
}

std::int64_t TimelineView::contentSpanOnAxis() const {
    return scene().traceEndNs - m_anchorNs;
}

void TimelineView::setAxisAnchorNs(std::int64_t anchorNs) {
    if (anchorNs == m_anchorNs) return;
    m_anchorNs = anchorNs;
    // An anchor past the trace's end leaves no content on the axis's positive side: report none then.
    if (scene().trace) m_axis->setContentSpan(this, std::max<std::int64_t>(contentSpanOnAxis(), 0));
    onAxisChanged();
}

void TimelineView::onAxisChanged() {
    TimelineScene& s = scene();
    const std::int64_t t0 = m_anchorNs + m_axis->startNs(), t1 = m_anchorNs + m_axis->endNs();
    if (t0 == s.t0 && t1 == s.t1) return;
    s.t0 = t0;
    s.t1 = t1;
    update();
    Q_EMIT visibleRangeChanged(t0, t1);
}

void TimelineView::setTrace(std::shared_ptr<const core::Trace> trace, std::shared_ptr<const TimelineData> data) {
    TimelineScene& s = scene();
    s.trace = std::move(trace);
    s.data = data ? std::move(data) : (s.trace ? TimelineData::build(*s.trace) : nullptr);
    s.collapsed.assign(s.trace ? s.trace->ranks.size() : 0, s.trace && m_foldPolicy && m_foldPolicy(*s.trace));
    // An opening excerpt is placed on the whole trace's axis (its ruler, its headers' shares).
    const auto& excerpt = s.data ? s.data->excerpt() : std::nullopt;
    s.originNs = excerpt ? excerpt->traceStartNs : s.trace ? s.trace->startNs() : 0;
    const std::int64_t end = excerpt ? excerpt->traceEndNs : s.trace ? s.trace->endNs() : 0;
    s.traceEndNs = s.trace ? std::max(end, s.originNs + TimeAxis::kMinSpanNs) : TimeAxis::kMinSpanNs;
    m_anchorNs = s.originNs;
    s.selected = {};
    s.match.reset();
    s.rangeT0 = s.rangeT1 = 0;
    s.hover = {};
    s.scrollY = 0;
    m_rangeStats = {};
    qCDebug(lcTimeline) << "trace with" << (s.trace ? s.trace->eventCount() : 0) << "events";
    m_axis->setContentSpan(this, s.trace ? contentSpanOnAxis() : 0);
    relayout();
    fit();
    onAxisChanged();  // the origin moved even when the relative range did not
    Q_EMIT selectionChanged();
    Q_EMIT rangeSelectionChanged();
}

void TimelineView::setData(std::shared_ptr<const TimelineData> data) {
    TimelineScene& s = scene();
    if (!s.trace || !data) return;
    s.data = std::move(data);
    s.match = s.selected.valid() ? s.data->matchCollective(*s.trace, s.selected) : std::nullopt;
    relayout();
    Q_EMIT selectionChanged();
}

void TimelineView::relayout() {
    m_renderer.relayout();
    setVerticalOffset(scene().scrollY);
    emitVerticalRange();
    update();
}

void TimelineView::emitVerticalRange() {
    const int page = std::max(0, height() - rulerHeight());
    Q_EMIT verticalRangeChanged(std::max(0, contentHeight() - page), page);
}

void TimelineView::setVisibleRange(std::int64_t t0, std::int64_t t1) {
    m_axis->setRange(t0 - m_anchorNs, t1 - m_anchorNs);
}

void TimelineView::fit() {
    m_axis->fit();
}

void TimelineView::zoomAt(double factor, double x) {
    m_axis->zoom(factor, (x - timeAreaLeft()) / std::max(1, timeAreaWidth()));
}

void TimelineView::panPixels(double dx) {
    const double nsPerPx = static_cast<double>(m_axis->spanNs()) / std::max(1, timeAreaWidth());
    m_axis->pan(static_cast<std::int64_t>(std::llround(dx * nsPerPx)));
}

bool TimelineView::zoomToSelection() {
    const TimelineScene& s = scene();
    std::int64_t t0 = 0, t1 = 0;
    if (s.hasRange()) {
        t0 = s.rangeT0;
        t1 = s.rangeT1;
    } else if (s.match) {
        t0 = INT64_MAX;
        t1 = INT64_MIN;
        for (const auto& m : s.match->members) {
            t0 = std::min(t0, m.startNs);
            t1 = std::max(t1, m.endNs);
        }
    } else if (s.selected.valid() && s.trace) {
        const auto& ev = s.trace->ranks[static_cast<std::size_t>(s.selected.rank)]
                             .streams[static_cast<std::size_t>(s.selected.stream)]
                             .events;
        t0 = ev.startNs(s.selected.index);
        t1 = ev.endNs(s.selected.index);
    } else {
        return false;
    }
    const std::int64_t margin = std::max<std::int64_t>((t1 - t0) / 10, 50);
    setVisibleRange(t0 - margin, t1 + margin);
    return true;
}

void TimelineView::setVerticalOffset(int y) {
    const int page = std::max(0, height() - rulerHeight());
    y = std::clamp(y, 0, std::max(0, contentHeight() - page));
    if (y == scene().scrollY) return;
    scene().scrollY = y;
    update();
    Q_EMIT verticalOffsetChanged(y);
}

void TimelineView::setRankCollapsed(int rank, bool collapsed) {
    auto& c = scene().collapsed;
    if (rank < 0 || static_cast<std::size_t>(rank) >= c.size()) return;
    if (c[static_cast<std::size_t>(rank)] == collapsed) return;
    c[static_cast<std::size_t>(rank)] = collapsed;
    relayout();
}

void TimelineView::setRulerVisible(bool visible) {
    if (scene().showRuler == visible) return;
    scene().showRuler = visible;
    relayout();
}

void TimelineView::setFoldPolicy(FoldPolicy policy) {
    m_foldPolicy = std::move(policy);
    const auto& s = scene();
    if (s.trace) setAllRanksCollapsed(m_foldPolicy && m_foldPolicy(*s.trace));
}

void TimelineView::setAllRanksCollapsed(bool collapsed) {
    scene().collapsed.assign(scene().collapsed.size(), collapsed);
    relayout();
}

void TimelineView::selectEvent(const EventRef& event) {
    TimelineScene& s = scene();
    if (!s.trace || !event.valid()) {
        clearSelection();
        return;
    }
    s.selected = event;
    s.match = s.data ? s.data->matchCollective(*s.trace, event) : std::nullopt;
    update();
    Q_EMIT selectionChanged();
}

void TimelineView::clearSelection() {
    TimelineScene& s = scene();
    const bool had = s.selected.valid() || s.hasRange();
    s.selected = {};
    s.match.reset();
    if (s.hasRange()) {
        s.rangeT0 = s.rangeT1 = 0;
        m_rangeStats = {};
        Q_EMIT rangeSelectionChanged();
    }
    if (had) {
        update();
        Q_EMIT selectionChanged();
    }
}

void TimelineView::setRangeBand(std::int64_t t0, std::int64_t t1) {
    if (t1 < t0) std::swap(t0, t1);
    scene().rangeT0 = t0;
    scene().rangeT1 = t1;
    update();
}

void TimelineView::selectRange(std::int64_t t0, std::int64_t t1) {
    setRangeBand(t0, t1);
    const TimelineScene& s = scene();
    m_rangeStats = s.trace && s.hasRange() ? core::rangeStats(*s.trace, s.rangeT0, s.rangeT1) : core::RangeStats{};
    Q_EMIT rangeSelectionChanged();
}

void TimelineView::syncViewport() const {
    m_renderer.setViewport(size(), devicePixelRatioF(), font());
}

// The widget's size can change without a resize event (hidden widgets): coordinates sync first.
int TimelineView::timeAreaWidth() const {
    syncViewport();
    return m_renderer.timeAreaWidth();
}

double TimelineView::xForTime(std::int64_t t) const {
    syncViewport();
    return m_renderer.xForTime(t);
}

std::int64_t TimelineView::timeForX(double x) const {
    syncViewport();
    return m_renderer.timeForX(x);
}

const TimelineGeometry& TimelineView::geometry() const {
    syncViewport();
    return m_renderer.geometry();
}

const std::vector<core::LodSpan>* TimelineView::spansOfRow(int row) const {
    syncViewport();
    return m_renderer.spansOfRow(row);
}

const TimelineRenderer& TimelineView::renderer() const {
    syncViewport();
    return m_renderer;
}

void TimelineView::paintEvent(QPaintEvent*) {
    syncViewport();
    QPainter p(this);
    m_renderer.paint(p, size(), devicePixelRatioF());
    // How long a large file takes to show, with what memory (issue 18): with QT_LOGGING_RULES=
    // "tpscope.timeline=true" and %{time process} in QT_MESSAGE_PATTERN.
    if (scene().trace && scene().data.get() != m_loggedFrameOf) {
        m_loggedFrameOf = scene().data.get();
        if (const auto& excerpt = scene().data->excerpt()) {
            qCInfo(lcTimeline).noquote() << "overview frame: the stored opening excerpt," << scene().trace->eventCount()
                                         << "of" << excerpt->traceEventCount << "events," << memoryUseText();
        } else {
            qCInfo(lcTimeline).noquote() << "first frame of" << scene().trace->eventCount() << "events"
                                         << (scene().data->hasAnalysis() ? "with" : "before") << "the analysis,"
                                         << memoryUseText();
        }
    }
}

void TimelineView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    syncViewport();
    setVerticalOffset(scene().scrollY);
    emitVerticalRange();
}

void TimelineView::renderTo(QImage& image) {
    image = QImage(size(), QImage::Format_RGB32);
    render(&image);
}

}  // namespace tpscope::ui
