// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// TimelineView: hit-testing, mouse, wheel and keyboard.

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

#include "core/analysis/launch_link.h"
#include "core/trace/level_of_detail.h"
#include "ui/timeline/event_details.h"
#include "ui/timeline/timeline_view.h"

namespace tpscope::ui {

namespace {
constexpr double kWheelZoomBase = 0.85;  // one wheel notch shows 85 % of the span
constexpr double kKeyZoom = 0.8;
constexpr int kDragThresholdPx = 3;
constexpr int kHitSlackPx = 2;  // narrow items are hard to hit: accept a near miss

// A folded rank's GPU label: the gutter of its lane or of the strip under it.
bool onFoldedLabel(const TimelineHit& hit, bool rankCollapsed) {
    return hit.area == TimelineHit::Area::Gutter &&
           (hit.rowKind == RowKind::Summary || (hit.rowKind == RowKind::Exposed && rankCollapsed));
}
}  // namespace

TimelineHit TimelineView::indexAt(QPoint pos) const {
    TimelineHit hit;
    const TimelineScene& s = scene();
    if (!s.trace) return hit;
    if (pos.y() < rulerHeight()) {
        hit.area = TimelineHit::Area::Ruler;
        return hit;
    }
    const int rowIndex = s.layout.rowAt(pos.y() - rulerHeight() + s.scrollY);
    if (rowIndex < 0) return hit;
    const auto& row = s.layout.rows()[static_cast<std::size_t>(rowIndex)];
    hit.row = rowIndex;
    hit.rowKind = row.kind;
    hit.rank = row.rank;
    if (pos.x() < timeAreaLeft()) {
        hit.area = TimelineHit::Area::Gutter;
        return hit;
    }
    hit.area = TimelineHit::Area::Row;
    const auto* spans = spansOfRow(rowIndex);
    if (spans == nullptr || spans->empty()) return hit;
    // Items are laid out in device pixels (renderer.h): compare in the same columns.
    const double dpr = m_renderer.devicePixelRatio();
    const int width = m_renderer.deviceTimeAreaWidth();
    const auto column = static_cast<std::int64_t>((pos.x() - timeAreaLeft()) * dpr);
    const core::LodSpan* best = nullptr;
    double bestDistance = kHitSlackPx + 1;
    // Items start in strictly increasing columns: find the last one starting at or before the
    // cursor, then look at it and its right neighbour for a near miss.
    auto it = std::upper_bound(spans->begin(), spans->end(), column, [&](std::int64_t c, const core::LodSpan& sp) {
        return c < core::pixelColumn(sp.startNs, s.t0, s.t1, width);
    });
    for (auto candidate = it == spans->begin() ? it : it - 1; candidate != spans->end() && candidate <= it;
         ++candidate) {
        const QRectF r = m_renderer.itemRect(row, candidate->startNs, candidate->endNs);
        const double x = pos.x() + 0.5;
        const double distance = x < r.left() ? r.left() - x : (x > r.right() ? x - r.right() : 0);
        if (distance < bestDistance) {
            bestDistance = distance;
            best = &*candidate;
        }
    }
    if (best == nullptr) return hit;
    hit.area = TimelineHit::Area::Item;
    hit.count = best->count;
    hit.startNs = best->startNs;
    hit.endNs = best->endNs;
    hit.kind = best->kind;
    if (row.kind == RowKind::Stream || row.kind == RowKind::Summary) {
        hit.event = EventRef{row.rank, row.sub, best->representative};
    } else if (row.kind == RowKind::Nvtx) {
        hit.nvtxIndex = best->firstIndex;
        hit.nvtxDepth = row.sub;
    } else if (row.kind == RowKind::Host) {
        hit.hostThread = row.sub;
        hit.hostIndex = best->representative;
    }
    return hit;
}

QString TimelineView::toolTipAt(QPoint pos) const {
    if (trace() == nullptr || data() == nullptr) return {};
    const TimelineHit hit = indexAt(pos);
    if (onFoldedLabel(hit, rankCollapsed(hit.rank))) return m_renderer.rankSummaryText(hit.rank).toHtmlEscaped();
    return itemTooltipHtml(*trace(), *data(), hit, originNs());
}

bool TimelineView::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip && trace() != nullptr && data() != nullptr) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString html = toolTipAt(help->pos());
        if (html.isEmpty()) {
            QToolTip::hideText();
        } else {
            QToolTip::showText(help->globalPos(), html, this);
        }
        return true;
    }
    return QWidget::event(event);
}

void TimelineView::wheelEvent(QWheelEvent* event) {
    const QPoint delta = event->angleDelta();
    if (event->modifiers() & Qt::ShiftModifier) {
        setVerticalOffset(verticalOffset() - delta.y() / 2 - delta.x() / 2);
    } else if (std::abs(delta.x()) > std::abs(delta.y())) {
        panPixels(-delta.x() / 2.0);
    } else if (delta.y() != 0) {
        // Ctrl+wheel zooms too, for users of browsers and Perfetto; the step is the same.
        zoomAt(std::pow(kWheelZoomBase, delta.y() / 120.0), event->position().x());
    }
    event->accept();
}

void TimelineView::mousePressEvent(QMouseEvent* event) {
    setFocus();
    m_pressPos = m_lastPos = event->position().toPoint();
    m_moved = false;
    if (event->button() != Qt::LeftButton) return;
    const TimelineHit hit = indexAt(m_pressPos);
    // The header folds a rank; a folded rank's label expands it.
    if ((hit.area == TimelineHit::Area::Gutter && hit.rowKind == RowKind::RankHeader) ||
        onFoldedLabel(hit, rankCollapsed(hit.rank))) {
        setRankCollapsed(hit.rank, !rankCollapsed(hit.rank));
        m_drag = Drag::None;
        return;
    }
    if (hit.area == TimelineHit::Area::Ruler || (event->modifiers() & Qt::ShiftModifier)) {
        m_drag = Drag::Range;
        m_rangeAnchorNs = timeForX(m_pressPos.x());
        return;
    }
    m_drag = Drag::Pan;
    setCursor(Qt::ClosedHandCursor);
}

void TimelineView::mouseMoveEvent(QMouseEvent* event) {
    const QPoint pos = event->position().toPoint();
    if ((pos - m_pressPos).manhattanLength() > kDragThresholdPx) m_moved = true;
    if (m_drag == Drag::Pan && m_moved) {
        panPixels(m_lastPos.x() - pos.x());
        setVerticalOffset(verticalOffset() + m_lastPos.y() - pos.y());
    } else if (m_drag == Drag::Range && m_moved) {
        // Only the band follows the mouse; the statistics are computed once, on release.
        setRangeBand(m_rangeAnchorNs, timeForX(std::max(pos.x(), timeAreaLeft())));
    } else if (m_drag == Drag::None) {
        const TimelineHit hit = indexAt(pos);
        TimelineHit& hover = scene().hover;
        const bool changed =
            hit.area != hover.area || hit.event != hover.event || hit.startNs != hover.startNs || hit.row != hover.row;
        hover = hit;
        if (changed) update();
    }
    m_lastPos = pos;
}

void TimelineView::mouseReleaseEvent(QMouseEvent* event) {
    const Drag drag = std::exchange(m_drag, Drag::None);
    unsetCursor();
    if (event->button() != Qt::LeftButton) return;
    if (drag == Drag::Range && m_moved) {
        selectRange(selectedRangeStartNs(), selectedRangeEndNs());
        return;
    }
    if (m_moved) return;
    if (drag == Drag::Range) {  // a click on the ruler clears the range
        clearSelection();
        return;
    }
    const TimelineHit hit = indexAt(event->position().toPoint());
    const bool kernelRow = hit.rowKind == RowKind::Stream || hit.rowKind == RowKind::Summary;
    if (hit.isItem() && kernelRow && hit.count > 1) {
        // A folded bar holds many kernels: show them rather than pick an arbitrary one.
        const std::int64_t margin = std::max<std::int64_t>((hit.endNs - hit.startNs) / 10, 50);
        setVisibleRange(hit.startNs - margin, hit.endNs + margin);
    } else if (hit.isItem() && kernelRow) {
        selectEvent(hit.event);
    } else if (hit.isItem() && hit.rowKind == RowKind::Nvtx) {
        selectRange(hit.startNs, hit.endNs);
    } else if (hit.isItem() && hit.rowKind == RowKind::Host && hit.count == 1) {
        // A launch call selects the kernel it launched: the details pane then names both.
        const auto link = core::analysis::kernelOfLaunch(trace()->ranks[static_cast<std::size_t>(hit.rank)],
                                                         static_cast<std::size_t>(hit.hostThread), hit.hostIndex);
        if (link) {
            selectEvent(EventRef{hit.rank, static_cast<int>(link->stream), link->kernelIndex});
        } else {
            clearSelection();
        }
    } else if (hit.area == TimelineHit::Area::Row) {
        clearSelection();
    }
}

void TimelineView::mouseDoubleClickEvent(QMouseEvent* event) {
    const TimelineHit hit = indexAt(event->position().toPoint());
    if (!hit.isItem()) return;
    const std::int64_t margin = std::max<std::int64_t>((hit.endNs - hit.startNs) / 10, 50);
    setVisibleRange(hit.startNs - margin, hit.endNs + margin);
}

void TimelineView::keyPressEvent(QKeyEvent* event) {
    const QPoint cursor = mapFromGlobal(QCursor::pos());
    const double anchorX =
        rect().contains(cursor) && cursor.x() >= timeAreaLeft() ? cursor.x() : timeAreaLeft() + timeAreaWidth() / 2.0;
    switch (event->key()) {
        case Qt::Key_W:
            zoomAt(kKeyZoom, anchorX);
            break;
        case Qt::Key_S:
            zoomAt(1.0 / kKeyZoom, anchorX);
            break;
        case Qt::Key_A:
            panPixels(-timeAreaWidth() / 10.0);
            break;
        case Qt::Key_D:
            panPixels(timeAreaWidth() / 10.0);
            break;
        case Qt::Key_F:
        case Qt::Key_Home:
            fit();
            break;
        case Qt::Key_Z:
            zoomToSelection();
            break;
        case Qt::Key_Escape:
            clearSelection();
            break;
        case Qt::Key_Up:
            setVerticalOffset(verticalOffset() - 40);
            break;
        case Qt::Key_Down:
            setVerticalOffset(verticalOffset() + 40);
            break;
        case Qt::Key_PageUp:
            setVerticalOffset(verticalOffset() - height() / 2);
            break;
        case Qt::Key_PageDown:
            setVerticalOffset(verticalOffset() + height() / 2);
            break;
        default:
            QWidget::keyPressEvent(event);
            return;
    }
    event->accept();
}

void TimelineView::leaveEvent(QEvent* event) {
    if (scene().hover.area != TimelineHit::Area::None) {
        scene().hover = {};
        update();
    }
    QWidget::leaveEvent(event);
}

}  // namespace tpscope::ui
