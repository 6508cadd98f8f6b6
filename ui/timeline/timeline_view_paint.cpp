// TimelineView: building the cached draw list and painting it.

#include <QFontMetrics>
#include <QPainter>
#include <QPainterPath>

#include <QtConcurrent/QtConcurrentMap>

#include <algorithm>
#include <numeric>

#include "core/trace/level_of_detail.h"
#include "ui/timeline/kind_palette.h"
#include "ui/timeline/time_ruler.h"
#include "ui/timeline/timeline_view.h"

namespace tpscope::ui {

namespace {

const QColor kBackground(0xFC, 0xFC, 0xFD);
const QColor kPanel(0xF1, 0xF3, 0xF5);
const QColor kHeaderBand(0xE7, 0xEB, 0xEF);
const QColor kSeparator(0xE2, 0xE6, 0xEA);
const QColor kBorder(0xC8, 0xCE, 0xD4);
const QColor kText(0x2A, 0x2F, 0x35);
const QColor kMutedText(0x6A, 0x73, 0x7D);
const QColor kSelection(0x1F, 0x2D, 0x3D);
constexpr int kMinLabelPx = 44;
constexpr std::size_t kParallelLodEvents = 500'000;

int padOf(RowKind kind) {
    switch (kind) {
        case RowKind::Stream:
            return 3;
        case RowKind::Nvtx:
            return 1;
        case RowKind::Exposed:
            return 1;
        case RowKind::RankHeader:
            return 0;
    }
    return 0;
}

}  // namespace

int TimelineGeometry::slotOfRow(int row) const {
    const auto it = std::lower_bound(rows.begin(), rows.end(), row);
    return it != rows.end() && *it == row ? static_cast<int>(it - rows.begin()) : -1;
}

QColor slotColor(int slot) {
    if (slot < core::kEventKindCount) return kindColor(static_cast<core::EventKind>(slot));
    if (slot < kExposedSlot) return foldedColor(static_cast<core::EventKind>(slot - kFoldedSlot));
    if (slot == kExposedSlot) return exposedCommColor();
    const int n = slot - kNvtxSlot;
    return nvtxColor(n / 2, static_cast<std::size_t>(n % 2));
}

const core::EventColumns* TimelineView::columnsOfRow(const TimelineRow& row) const {
    if (!m_trace || !m_data) return nullptr;
    const auto r = static_cast<std::size_t>(row.rank);
    switch (row.kind) {
        case RowKind::Stream:
            return &m_trace->ranks[r].streams[static_cast<std::size_t>(row.sub)].events;
        case RowKind::Nvtx:
            return &m_data->ranks()[r].nvtx[static_cast<std::size_t>(row.sub)];
        case RowKind::Exposed:
            return &m_data->ranks()[r].exposed;
        case RowKind::RankHeader:
            return nullptr;
    }
    return nullptr;
}

QRect TimelineView::itemRect(const TimelineRow& row, std::int64_t startNs, std::int64_t endNs) const {
    const int w = timeAreaWidth();
    const std::int64_t c0 = std::clamp<std::int64_t>(core::pixelColumn(startNs, m_t0, m_t1, w), 0, w - 1);
    std::int64_t c1 =
        std::clamp<std::int64_t>(core::pixelColumn(std::max(startNs, endNs - 1), m_t0, m_t1, w) + 1, 0, w);
    if (c1 <= c0) c1 = c0 + 1;
    // A one-pixel gap keeps back-to-back kernels apart once they are wide enough to spare it.
    if (c1 - c0 >= 4 && row.kind == RowKind::Stream) --c1;
    const int pad = padOf(row.kind);
    return QRect(timeAreaLeft() + static_cast<int>(c0), rowTopOnScreen(row) + pad, static_cast<int>(c1 - c0),
                 row.height - 2 * pad);
}

void TimelineView::addRowItems(const TimelineRow& row, const std::vector<core::LodSpan>& spans) const {
    const core::EventColumns* columns = columnsOfRow(row);
    if (columns == nullptr) return;
    const QFontMetrics fm(font());
    for (const auto& s : spans) {
        const QRect rect = itemRect(row, s.startNs, s.endNs);
        int slot = 0;
        if (row.kind == RowKind::Stream) {
            slot = static_cast<int>(s.kind) + (s.folded() ? kFoldedSlot : 0);
        } else if (row.kind == RowKind::Nvtx) {
            slot = kNvtxSlot + 2 * std::min(row.sub, 2) + static_cast<int>(s.firstIndex % 2);
        } else {
            slot = kExposedSlot;
        }
        m_geometry.batches[static_cast<std::size_t>(slot)].append(rect);
        if (rect.width() < kMinLabelPx || row.kind == RowKind::Exposed) continue;
        QString text;
        if (s.folded()) {
            text = QStringLiteral("%1 ×").arg(s.count);
        } else {
            text = QString::fromUtf8(m_trace->name(columns->name(s.firstIndex)).data(),
                                     static_cast<qsizetype>(m_trace->name(columns->name(s.firstIndex)).size()));
        }
        const QRect textRect = rect.adjusted(3, 0, -2, 0);
        m_geometry.labels.push_back(
            {textRect, fm.elidedText(text, Qt::ElideRight, textRect.width()), textColorOn(slotColor(slot))});
    }
    m_geometry.itemCount += spans.size();
}

void TimelineView::rebuildGeometry() const {
    const GeometryKey key{m_t0, m_t1, timeAreaWidth(), height(), m_scrollY, m_rowsVersion};
    if (m_geometry.valid && m_geometry.key == key) return;
    TimelineGeometry& g = m_geometry;
    g.key = key;
    g.rows.clear();
    for (auto& b : g.batches) b.resize(0);
    g.labels.clear();
    g.itemCount = 0;
    const auto& rows = m_layout.rows();
    const int bottom = m_scrollY + height() - kRulerHeight;
    for (std::size_t i = m_layout.firstRowBelow(m_scrollY); i < rows.size() && rows[i].y < bottom; ++i) {
        if (rows[i].kind != RowKind::RankHeader) g.rows.push_back(static_cast<int>(i));
    }
    if (g.spans.size() < g.rows.size()) g.spans.resize(g.rows.size());
    // Level of detail per row is independent work over read-only columns: on a large trace the rows
    // run on the thread pool (the walk is memory-latency bound, one column after the other).
    const int w = timeAreaWidth();
    const auto lod = [&](std::size_t slot) {
        const core::EventColumns* columns = columnsOfRow(rows[static_cast<std::size_t>(g.rows[slot])]);
        if (columns == nullptr) {
            g.spans[slot].clear();
        } else {
            core::visibleSpans(*columns, m_t0, m_t1, w, g.spans[slot]);
        }
    };
    std::vector<std::size_t> rowSlots(g.rows.size());
    std::iota(rowSlots.begin(), rowSlots.end(), std::size_t{0});
    if (m_trace && m_trace->eventCount() >= kParallelLodEvents && rowSlots.size() > 1) {
        QtConcurrent::blockingMap(rowSlots, lod);
    } else {
        for (const std::size_t slot : rowSlots) lod(slot);
    }
    for (const std::size_t slot : rowSlots) addRowItems(rows[static_cast<std::size_t>(g.rows[slot])], g.spans[slot]);
    g.valid = true;
}

const TimelineGeometry& TimelineView::geometry() const {
    rebuildGeometry();
    return m_geometry;
}

const std::vector<core::LodSpan>* TimelineView::spansOfRow(int row) const {
    rebuildGeometry();
    const int slot = m_geometry.slotOfRow(row);
    return slot < 0 ? nullptr : &m_geometry.spans[static_cast<std::size_t>(slot)];
}

void TimelineView::paintEvent(QPaintEvent*) {
    rebuildGeometry();
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing, false);
    paintBackground(p);
    paintItems(p);
    paintOverlays(p);
    paintGutter(p);
    paintRuler(p);
}

void TimelineView::paintBackground(QPainter& p) const {
    p.fillRect(rect(), kBackground);
    const auto& rows = m_layout.rows();
    const int left = timeAreaLeft();
    for (std::size_t i = m_layout.firstRowBelow(m_scrollY); i < rows.size(); ++i) {
        const int top = rowTopOnScreen(rows[i]);
        if (top > height()) break;
        if (rows[i].kind == RowKind::RankHeader) {
            p.fillRect(QRect(left, top, width() - left, rows[i].height), kHeaderBand);
            paintRankSummary(p, rows[i], top);
        } else if (rows[i].kind == RowKind::Stream) {
            p.fillRect(QRect(left, top + rows[i].height - 1, width() - left, 1), kSeparator);
        }
    }
}

void TimelineView::paintRankSummary(QPainter& p, const TimelineRow& row, int top) const {
    if (!m_trace || !m_data) return;
    const auto r = static_cast<std::size_t>(row.rank);
    const auto& rank = m_trace->ranks[r];
    const double span = static_cast<double>(m_traceEndNs - m_originNs);
    QString text =
        QStringLiteral("%1 · %2 kernels").arg(QString::fromStdString(rank.deviceName)).arg(rank.eventCount());
    if (!m_data->ranks()[r].collectives.empty() && span > 0) {
        text += tr(" · exposed communication %1 % of the trace")
                    .arg(100.0 * static_cast<double>(m_data->ranks()[r].exposedTotalNs) / span, 0, 'f', 1);
    }
    p.setPen(kMutedText);
    p.drawText(QRect(timeAreaLeft() + 8, top, timeAreaWidth() - 16, row.height), Qt::AlignVCenter | Qt::AlignLeft,
               text);
}

void TimelineView::paintItems(QPainter& p) const {
    p.setClipRect(QRect(timeAreaLeft(), kRulerHeight, timeAreaWidth(), height() - kRulerHeight));
    p.setPen(Qt::NoPen);
    for (int slot = 0; slot < kColourSlots; ++slot) {
        const auto& batch = m_geometry.batches[static_cast<std::size_t>(slot)];
        if (batch.isEmpty()) continue;
        p.setBrush(slotColor(slot));
        p.drawRects(batch.constData(), static_cast<int>(batch.size()));
    }
    for (const auto& label : m_geometry.labels) {
        p.setPen(label.color);
        p.drawText(label.rect, Qt::AlignVCenter | Qt::AlignLeft, label.text);
    }
    p.setClipping(false);
}

void TimelineView::outlineEvent(QPainter& p, const EventRef& event, const QColor& color, int width) const {
    if (!m_trace || !event.valid() || rankCollapsed(event.rank)) return;
    for (const auto& row : m_layout.rows()) {
        if (row.kind != RowKind::Stream || row.rank != event.rank || row.sub != event.stream) continue;
        const auto& ev =
            m_trace->ranks[static_cast<std::size_t>(event.rank)].streams[static_cast<std::size_t>(event.stream)].events;
        const QRect r = itemRect(row, ev.startNs(event.index), ev.endNs(event.index));
        p.setPen(QPen(color, width));
        p.setBrush(Qt::NoBrush);
        p.drawRect(r.adjusted(0, 0, -1, -1));
        return;
    }
}

void TimelineView::paintOverlays(QPainter& p) const {
    p.setClipRect(QRect(timeAreaLeft(), kRulerHeight, timeAreaWidth(), height() - kRulerHeight));
    if (hasSelectedRange()) {
        const int x0 = static_cast<int>(std::max<double>(timeAreaLeft(), xForTime(m_rangeT0)));
        const int x1 = static_cast<int>(std::min<double>(width(), xForTime(m_rangeT1)));
        p.fillRect(QRect(x0, kRulerHeight, std::max(1, x1 - x0), height()), QColor(0x3B, 0x82, 0xF6, 40));
        p.fillRect(QRect(x0, kRulerHeight, 1, height()), QColor(0x3B, 0x82, 0xF6));
        p.fillRect(QRect(x1, kRulerHeight, 1, height()), QColor(0x3B, 0x82, 0xF6));
    }
    if (m_hover.isItem() && m_hover.rowKind == RowKind::Stream && m_hover.count == 1) {
        outlineEvent(p, m_hover.event, QColor(0x20, 0x20, 0x20, 150), 1);
    }
    paintCollectiveLinks(p);
    outlineEvent(p, m_selected, kSelection, 2);
    p.setClipping(false);
}

void TimelineView::paintCollectiveLinks(QPainter& p) const {
    if (!m_match || m_match->members.size() < 2) return;
    std::vector<QPoint> starts;
    std::int64_t lastArrival = INT64_MIN;
    for (const auto& m : m_match->members) lastArrival = std::max(lastArrival, m.startNs);
    for (const auto& m : m_match->members) {
        if (rankCollapsed(m.event.rank)) continue;
        for (const auto& row : m_layout.rows()) {
            if (row.kind != RowKind::Stream || row.rank != m.event.rank || row.sub != m.event.stream) continue;
            const QRect r = itemRect(row, m.startNs, m.endNs);
            // The wait: from this rank's arrival to the last rank's arrival, hatched.
            const int waitEnd = static_cast<int>(xForTime(lastArrival));
            if (waitEnd > r.left()) {
                // Washed out and hatched: the rank is only waiting there; the solid rest moves bytes.
                const QRect wait(r.left(), r.top(), std::min(waitEnd, r.right() + 1) - r.left(), r.height());
                p.fillRect(wait, waitWashColor());
                p.fillRect(wait, QBrush(waitHatchColor(), Qt::BDiagPattern));
            }
            p.setPen(QPen(kSelection, 1));
            p.setBrush(Qt::NoBrush);
            p.drawRect(r.adjusted(0, 0, -1, -1));
            starts.emplace_back(r.left(), r.center().y());
        }
    }
    if (starts.size() >= 2) {
        p.setPen(QPen(QColor(0xC0, 0x1F, 0x1F), 2));
        p.drawPolyline(starts.data(), static_cast<int>(starts.size()));
        const int xLast = static_cast<int>(xForTime(lastArrival));
        p.setPen(QPen(QColor(0xC0, 0x1F, 0x1F), 1, Qt::DashLine));
        p.drawLine(xLast, starts.front().y() - 8, xLast, starts.back().y() + 8);
        for (const auto& pt : starts) p.fillRect(QRect(pt.x() - 2, pt.y() - 2, 5, 5), QColor(0xC0, 0x1F, 0x1F));
    }
}

void TimelineView::paintGutter(QPainter& p) const {
    const int w = timeAreaLeft();
    p.fillRect(QRect(0, kRulerHeight, w, height() - kRulerHeight), kPanel);
    p.fillRect(QRect(w - 1, 0, 1, height()), kBorder);
    if (!m_trace) return;
    p.setClipRect(QRect(0, kRulerHeight, w - 1, height() - kRulerHeight));
    QFont bold = font();
    bold.setBold(true);
    const auto& rows = m_layout.rows();
    static const char* const kDepthNames[] = {"step", "layer", "block"};
    for (std::size_t i = m_layout.firstRowBelow(m_scrollY); i < rows.size(); ++i) {
        const auto& row = rows[i];
        const int top = rowTopOnScreen(row);
        if (top > height()) break;
        const QRect textRect(8, top, w - 14, row.height);
        const auto& rank = m_trace->ranks[static_cast<std::size_t>(row.rank)];
        switch (row.kind) {
            case RowKind::RankHeader: {
                p.fillRect(QRect(0, top, w - 1, row.height), kHeaderBand);
                p.setFont(bold);
                p.setPen(kText);
                const QString arrow = rankCollapsed(row.rank) ? QStringLiteral("▸") : QStringLiteral("▾");
                p.drawText(textRect, Qt::AlignVCenter | Qt::AlignLeft,
                           QStringLiteral("%1  GPU %2").arg(arrow).arg(rank.id.value));
                p.setFont(font());
                p.setPen(kMutedText);
                p.drawText(textRect, Qt::AlignVCenter | Qt::AlignRight,
                           QFontMetrics(font()).elidedText(QString::fromStdString(rank.host), Qt::ElideRight, w / 2));
                break;
            }
            case RowKind::Nvtx:
                p.setPen(kMutedText);
                p.drawText(textRect.adjusted(14, 0, 0, 0), Qt::AlignVCenter | Qt::AlignLeft,
                           QString::fromLatin1(kDepthNames[std::min(row.sub, 2)]));
                break;
            case RowKind::Stream:
                p.setPen(kText);
                p.drawText(textRect.adjusted(14, 0, 0, 0), Qt::AlignVCenter | Qt::AlignLeft,
                           QString::fromStdString(rank.streams[static_cast<std::size_t>(row.sub)].label));
                break;
            case RowKind::Exposed:
                p.setPen(exposedCommColor().darker(130));
                p.drawText(textRect.adjusted(14, -3, 0, 3), Qt::AlignVCenter | Qt::AlignLeft, tr("exposed comm"));
                break;
        }
    }
    p.setClipping(false);
}

void TimelineView::paintRuler(QPainter& p) const {
    p.fillRect(QRect(0, 0, width(), kRulerHeight), kPanel);
    p.fillRect(QRect(0, kRulerHeight - 1, width(), 1), kBorder);
    p.setPen(kMutedText);
    p.drawText(QRect(8, 0, timeAreaLeft() - 14, kRulerHeight), Qt::AlignVCenter | Qt::AlignLeft,
               m_trace ? tr("time from start") : tr("no trace"));
    if (!m_trace) return;
    const double nsPerPx = static_cast<double>(m_t1 - m_t0) / timeAreaWidth();
    const std::int64_t step = tickStepNs(nsPerPx, 110);
    const std::int64_t rel0 = m_t0 - m_originNs, rel1 = m_t1 - m_originNs;
    const std::int64_t magnitude = std::max(std::abs(rel0), std::abs(rel1));
    p.setClipRect(QRect(timeAreaLeft(), 0, timeAreaWidth(), kRulerHeight));
    for (const auto& tick : rulerTicks(rel0, rel1, step)) {
        const int x = static_cast<int>(xForTime(tick.timeNs + m_originNs));
        const int len = tick.major ? 9 : 4;
        p.fillRect(QRect(x, kRulerHeight - 1 - len, 1, len), tick.major ? kText : kBorder);
        if (tick.major) {
            p.setPen(kText);
            p.drawText(QRect(x + 3, 1, 140, kRulerHeight - 8), Qt::AlignTop | Qt::AlignLeft,
                       formatTickLabel(tick.timeNs, step, magnitude));
        }
    }
    if (hasSelectedRange()) {
        const int x0 = static_cast<int>(xForTime(m_rangeT0)), x1 = static_cast<int>(xForTime(m_rangeT1));
        const QRect band(x0, 0, std::max(1, x1 - x0), kRulerHeight - 1);
        p.fillRect(band, QColor(0x3B, 0x82, 0xF6, 60));
        p.setPen(QColor(0x1D, 0x4E, 0xD8));
        p.drawText(band, Qt::AlignCenter, formatDuration(static_cast<double>(m_rangeT1 - m_rangeT0)));
    }
    p.setClipping(false);
}

}  // namespace tpscope::ui
