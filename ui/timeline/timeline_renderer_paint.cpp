// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// TimelineRenderer: painting the scene (background, items, overlays, gutter, ruler).

#include <QCoreApplication>
#include <QFontMetrics>
#include <QPainter>

#include <algorithm>

#include "core/analysis/launch_link.h"
#include "ui/palette_colors.h"
#include "ui/timeline/kind_palette.h"
#include "ui/timeline/rank_clock_text.h"
#include "ui/timeline/time_ruler.h"
#include "ui/timeline/timeline_renderer.h"

namespace tpscope::ui {

namespace {

// `a` moved towards `b` by `t` (0..1): bands and borders a step away from the palette's own colours.
QColor mix(const QColor& a, const QColor& b, double t) {
    return QColor::fromRgbF(static_cast<float>(a.redF() + (b.redF() - a.redF()) * t),
                            static_cast<float>(a.greenF() + (b.greenF() - a.greenF()) * t),
                            static_cast<float>(a.blueF() + (b.blueF() - a.blueF()) * t));
}
const QColor kRange(0x3B, 0x82, 0xF6);
const QColor kRangeText(0x1D, 0x4E, 0xD8);
const QColor kRangeTextOnDark(0x93, 0xC5, 0xFD);
const QColor kLink(0xC0, 0x1F, 0x1F);

}  // namespace

TimelineColors TimelineColors::fromPalette(const QPalette& palette) {
    const QColor base = palette.color(QPalette::Base);
    const QColor window = palette.color(QPalette::Window);
    const QColor text = palette.color(QPalette::Text);
    TimelineColors c;
    c.background = base;
    c.panel = window;
    c.headerBand = mix(window, text, 0.07);
    c.separator = mix(base, text, 0.10);
    c.border = mix(window, text, 0.22);
    c.text = text;
    c.mutedText = mix(text, base, 0.40);
    c.dark = isDarkPalette(palette);
    return c;
}

void TimelineRenderer::paint(QPainter& p, QSize sizePx, double dpr) const {
    m_size = sizePx;
    m_dpr = dpr > 0 ? dpr : 1.0;
    rebuildGeometry();
    p.save();
    p.setFont(m_font);
    p.setRenderHint(QPainter::Antialiasing, false);
    paintBackground(p);
    paintItems(p);
    paintOverlays(p);
    paintGutter(p);
    paintRuler(p);
    paintRangeLabel(p);
    p.restore();
}

void TimelineRenderer::paintBackground(QPainter& p) const {
    const int width = m_size.width();
    p.fillRect(QRect(QPoint(0, 0), m_size), m_scene.colors.background);
    const auto& rows = m_scene.layout.rows();
    const int left = timeAreaLeft();
    for (std::size_t i = m_scene.layout.firstRowBelow(m_scene.scrollY); i < rows.size(); ++i) {
        const int top = rowTopOnScreen(rows[i]);
        if (top > m_size.height()) break;
        if (rows[i].kind == RowKind::RankHeader) {
            p.fillRect(QRect(left, top, width - left, rows[i].height), m_scene.colors.headerBand);
            paintRankSummary(p, rows[i], top);
        } else if (rows[i].kind == RowKind::Stream || rows[i].kind == RowKind::Host) {
            p.fillRect(QRect(left, top + rows[i].height - 1, width - left, 1), m_scene.colors.separator);
        }
    }
}

void TimelineRenderer::paintRankSummary(QPainter& p, const TimelineRow& row, int top) const {
    if (!m_scene.trace || !m_scene.data) return;
    p.setPen(m_scene.colors.mutedText);
    p.drawText(QRect(timeAreaLeft() + 8, top, timeAreaWidth() - 16, row.height), Qt::AlignVCenter | Qt::AlignLeft,
               rankSummaryText(row.rank));
}

QString TimelineRenderer::rankSummaryText(int rankIndex) const {
    if (!m_scene.trace || !m_scene.data) return {};
    const auto r = static_cast<std::size_t>(rankIndex);
    const auto& rank = m_scene.trace->ranks[r];
    const auto& rd = m_scene.data->ranks()[r];
    const double span = static_cast<double>(m_scene.traceEndNs - m_scene.originNs);
    // Kernels only: memcpy and memset are counted on their own.
    const std::size_t copies = rd.kindCount[static_cast<std::size_t>(core::EventKind::Memcpy)] +
                               rd.kindCount[static_cast<std::size_t>(core::EventKind::Memset)];
    QString text = QStringLiteral("%1 · %2 kernels").arg(QString::fromStdString(rank.deviceName)).arg(rd.kernelCount());
    if (copies > 0) text += QCoreApplication::translate("TimelineRenderer", " · %1 memcpy/memset").arg(copies);
    if (rd.hasCollectives() && span > 0) {
        text += QCoreApplication::translate("TimelineRenderer", " · exposed communication %1 % of the trace")
                    .arg(100.0 * static_cast<double>(rd.exposedTotalNs) / span, 0, 'f', 1);
    }
    if (m_scene.trace->ranks.size() > 1) {
        // Before the analysis is done (a large trace paints first) the estimate is still to come.
        text +=
            QStringLiteral(" · ") + (m_scene.data->hasAnalysis() || !rd.hasCollectives()
                                         ? rankClockText(m_scene.data->clock(), r, rd.hasCollectives())
                                         : QCoreApplication::translate("TimelineRenderer", "clock offset: analysing…"));
    }
    return text;
}

void TimelineRenderer::paintItems(QPainter& p) const {
    p.setClipRect(QRect(timeAreaLeft(), rulerHeight(), timeAreaWidth(), m_size.height() - rulerHeight()));
    p.setPen(Qt::NoPen);
    for (int slot = 0; slot < kColourSlots; ++slot) {
        const auto& batch = m_geometry.batches[static_cast<std::size_t>(slot)];
        if (batch.isEmpty()) continue;
        p.setBrush(slotColor(slot, m_scene.colors.dark));
        p.drawRects(batch.constData(), static_cast<int>(batch.size()));
    }
    for (const auto& label : m_geometry.labels) {
        p.setPen(label.color);
        p.drawText(label.rect, Qt::AlignVCenter | Qt::AlignLeft, label.text);
    }
    p.setClipping(false);
}

void TimelineRenderer::outlineEvent(QPainter& p, const EventRef& event, const QColor& color, int width) const {
    if (!m_scene.trace || !event.valid() || rankCollapsed(event.rank)) return;
    for (const auto& row : m_scene.layout.rows()) {
        if (row.kind != RowKind::Stream || row.rank != event.rank || row.sub != event.stream) continue;
        const auto& ev = m_scene.trace->ranks[static_cast<std::size_t>(event.rank)]
                             .streams[static_cast<std::size_t>(event.stream)]
                             .events;
        const QRectF r = itemRect(row, ev.startNs(event.index), ev.endNs(event.index));
        p.setPen(QPen(color, width));
        p.setBrush(Qt::NoBrush);
        p.drawRect(r.adjusted(0, 0, -1, -1));
        return;
    }
}

void TimelineRenderer::paintOverlays(QPainter& p) const {
    const int height = m_size.height();
    p.setClipRect(QRect(timeAreaLeft(), rulerHeight(), timeAreaWidth(), height - rulerHeight()));
    if (m_scene.hasRange()) {
        const int left = clampedPixel(xForTime(m_scene.rangeT0));
        const int right = clampedPixel(xForTime(m_scene.rangeT1));
        // A range scrolled off either side leaves nothing on screen (not a 1-px band at the edge).
        if (right >= timeAreaLeft() && left <= m_size.width()) {
            const int x0 = std::max(timeAreaLeft(), left);
            const int x1 = std::min(m_size.width(), right);
            QColor wash = kRange;
            wash.setAlpha(40);
            p.fillRect(QRect(x0, rulerHeight(), std::max(1, x1 - x0), height), wash);
            if (left >= timeAreaLeft()) p.fillRect(QRect(left, rulerHeight(), 1, height), kRange);
            if (right <= m_size.width()) p.fillRect(QRect(right, rulerHeight(), 1, height), kRange);
        }
    }
    const auto& hover = m_scene.hover;
    if (hover.isItem() && hover.rowKind == RowKind::Stream && hover.count == 1) {
        outlineEvent(p, hover.event, QColor(0x20, 0x20, 0x20, 150), 1);
    }
    if (hover.isItem() && hover.rowKind == RowKind::Host && hover.count == 1) paintLaunchLink(p, hover);
    paintCollectiveLinks(p);
    outlineEvent(p, m_scene.selected, m_scene.colors.text, 2);  // the palette's text: visible on dark too
    p.setClipping(false);
}

void TimelineRenderer::paintLaunchLink(QPainter& p, const TimelineHit& hit) const {
    // The hovered launch call and the kernel it launched, joined from the call's start to the
    // kernel's: the line's length is the launch-to-start delay a launch-bound step is made of.
    if (!m_scene.trace || hit.rank < 0 || hit.row < 0 || hit.hostThread < 0) return;
    const auto& rows = m_scene.layout.rows();
    if (static_cast<std::size_t>(hit.row) >= rows.size()) return;
    const TimelineRow& hostRow = rows[static_cast<std::size_t>(hit.row)];
    const auto& rank = m_scene.trace->ranks[static_cast<std::size_t>(hit.rank)];
    const auto link = core::analysis::kernelOfLaunch(rank, static_cast<std::size_t>(hit.hostThread), hit.hostIndex);
    if (!link) return;
    const auto& host = rank.hostThreads[link->hostThread].events;
    const QRect call = itemRect(hostRow, host.startNs(link->hostIndex), host.endNs(link->hostIndex)).toAlignedRect();
    p.setPen(QPen(m_scene.colors.text, 1));
    p.setBrush(Qt::NoBrush);
    p.drawRect(call.adjusted(0, 0, -1, -1));
    const EventRef kernel{hit.rank, static_cast<int>(link->stream), link->kernelIndex};
    outlineEvent(p, kernel, m_scene.colors.text, 1);
    for (const auto& row : rows) {
        if (row.kind != RowKind::Stream || row.rank != hit.rank || row.sub != kernel.stream) continue;
        const auto& ev = rank.streams[link->stream].events;
        const QRect k = itemRect(row, ev.startNs(link->kernelIndex), ev.endNs(link->kernelIndex)).toAlignedRect();
        p.setPen(QPen(kLink, 1, Qt::DashLine));
        p.drawLine(call.left(), call.bottom(), k.left(), k.top());
        break;
    }
}

void TimelineRenderer::paintCollectiveLinks(QPainter& p) const {
    const auto& match = m_scene.match;
    if (!match || match->members.size() < 2) return;
    std::vector<QPoint> starts;
    std::int64_t lastArrival = INT64_MIN;
    for (const auto& m : match->members) lastArrival = std::max(lastArrival, m.startNs);
    const int waitEnd = clampedPixel(xForTime(lastArrival));
    for (const auto& m : match->members) {
        if (rankCollapsed(m.event.rank)) continue;
        for (const auto& row : m_scene.layout.rows()) {
            if (row.kind != RowKind::Stream || row.rank != m.event.rank || row.sub != m.event.stream) continue;
            const QRect r = itemRect(row, m.startNs, m.endNs).toAlignedRect();
            // The wait: from this rank's arrival to the last rank's arrival, washed out and hatched;
            // the solid rest moves bytes.
            if (waitEnd > r.left()) {
                const QRect wait(r.left(), r.top(), std::min(waitEnd, r.right() + 1) - r.left(), r.height());
                p.fillRect(wait, waitWashColor(m_scene.colors.background));
                p.fillRect(wait, QBrush(waitHatchColor(), Qt::BDiagPattern));
            }
            p.setPen(QPen(m_scene.colors.text, 1));
            p.setBrush(Qt::NoBrush);
            p.drawRect(r.adjusted(0, 0, -1, -1));
            starts.emplace_back(r.left(), r.center().y());
        }
    }
    if (starts.size() >= 2) {
        p.setPen(QPen(kLink, 2));
        p.drawPolyline(starts.data(), static_cast<int>(starts.size()));
        p.setPen(QPen(kLink, 1, Qt::DashLine));
        p.drawLine(waitEnd, starts.front().y() - 8, waitEnd, starts.back().y() + 8);
        for (const auto& pt : starts) p.fillRect(QRect(pt.x() - 2, pt.y() - 2, 5, 5), kLink);
    }
}

void TimelineRenderer::paintGutter(QPainter& p) const {
    const int w = timeAreaLeft();
    const int height = m_size.height();
    p.fillRect(QRect(0, rulerHeight(), w, height - rulerHeight()), m_scene.colors.panel);
    p.fillRect(QRect(w - 1, 0, 1, height), m_scene.colors.border);
    if (!m_scene.trace) return;
    p.setClipRect(QRect(0, rulerHeight(), w - 1, height - rulerHeight()));
    QFont bold = m_font;
    bold.setBold(true);
    const auto& rows = m_scene.layout.rows();
    static const char* const kDepthNames[] = {"step", "layer", "block"};
    for (std::size_t i = m_scene.layout.firstRowBelow(m_scene.scrollY); i < rows.size(); ++i) {
        const auto& row = rows[i];
        const int top = rowTopOnScreen(row);
        if (top > height) break;
        const QRect textRect(8, top, w - 14, row.height);
        const auto& rank = m_scene.trace->ranks[static_cast<std::size_t>(row.rank)];
        switch (row.kind) {
            case RowKind::RankHeader: {
                p.fillRect(QRect(0, top, w - 1, row.height), m_scene.colors.headerBand);
                p.setFont(bold);
                p.setPen(m_scene.colors.text);
                const QString arrow = rankCollapsed(row.rank) ? QStringLiteral("▸") : QStringLiteral("▾");
                p.drawText(textRect, Qt::AlignVCenter | Qt::AlignLeft,
                           QStringLiteral("%1  GPU %2").arg(arrow).arg(rank.id.value));
                p.setFont(m_font);
                p.setPen(m_scene.colors.mutedText);
                p.drawText(textRect, Qt::AlignVCenter | Qt::AlignRight,
                           QFontMetrics(m_font).elidedText(QString::fromStdString(rank.host), Qt::ElideRight, w / 2));
                break;
            }
            case RowKind::Nvtx:
                p.setPen(m_scene.colors.mutedText);
                p.drawText(textRect.adjusted(14, 0, 0, 0), Qt::AlignVCenter | Qt::AlignLeft,
                           QString::fromLatin1(kDepthNames[std::min(row.sub, 2)]));
                break;
            case RowKind::Stream:
                p.setPen(m_scene.colors.text);
                p.drawText(textRect.adjusted(14, 0, 0, 0), Qt::AlignVCenter | Qt::AlignLeft,
                           QString::fromStdString(rank.streams[static_cast<std::size_t>(row.sub)].label));
                break;
            case RowKind::Host:
                p.setPen(m_scene.colors.mutedText);
                p.drawText(textRect.adjusted(14, 0, 0, 0), Qt::AlignVCenter | Qt::AlignLeft,
                           QCoreApplication::translate("TimelineRenderer", "CPU · %1")
                               .arg(QString::fromStdString(rank.hostThreads[static_cast<std::size_t>(row.sub)].label)));
                break;
            case RowKind::Exposed:
                if (rankCollapsed(row.rank)) break;  // the strip of a folded lane: the label is the lane's
                p.setPen(exposedCommColor().darker(130));
                p.drawText(textRect.adjusted(14, -3, 0, 3), Qt::AlignVCenter | Qt::AlignLeft,
                           QCoreApplication::translate("TimelineRenderer", "exposed comm"));
                break;
            case RowKind::Summary: {
                const bool strip =
                    i + 1 < rows.size() && rows[i + 1].kind == RowKind::Exposed && rows[i + 1].rank == row.rank;
                paintFoldedLabel(p, row, QRect(0, top, w - 1, row.height + (strip ? rows[i + 1].height : 0)));
                break;
            }
        }
    }
    p.setClipping(false);
}

void TimelineRenderer::paintFoldedLabel(QPainter& p, const TimelineRow& row, const QRect& block) const {
    // A folded rank has no header: its lane's gutter names the GPU (a click expands it) and, once the
    // analysis is there, the rank's exposed wait over all steps (core's, as `analyze` prints it), in a
    // font that fits the lane.
    p.fillRect(block, m_scene.colors.headerBand);
    QFont small = m_font;
    small.setPixelSize(std::max(8, block.height() - 2));
    small.setBold(true);
    p.setFont(small);
    p.setPen(m_scene.colors.text);
    const auto& rank = m_scene.trace->ranks[static_cast<std::size_t>(row.rank)];
    const QRect text = block.adjusted(8, 0, -6, 0);
    p.drawText(text, Qt::AlignVCenter | Qt::AlignLeft, QStringLiteral("▸ GPU %1").arg(rank.id.value));
    if (m_scene.data && m_scene.data->hasAnalysis()) {
        const auto& ranks = m_scene.data->analysis().summary.rankSummaries;
        const auto r = static_cast<std::size_t>(row.rank);
        if (r < ranks.size() && ranks[r].rankIndex == r) {
            small.setBold(false);
            p.setFont(small);
            p.setPen(m_scene.colors.mutedText);
            p.drawText(text, Qt::AlignVCenter | Qt::AlignRight,
                       QCoreApplication::translate("TimelineRenderer", "wait %1")
                           .arg(formatDuration(static_cast<double>(ranks[r].time.exposedWaitNs))));
        }
    }
    p.setFont(m_font);
}

void TimelineRenderer::paintRuler(QPainter& p) const {
    if (!m_scene.showRuler) return;  // a pane under another's ruler (Compare)
    p.fillRect(QRect(0, 0, m_size.width(), rulerHeight()), m_scene.colors.panel);
    p.fillRect(QRect(0, rulerHeight() - 1, m_size.width(), 1), m_scene.colors.border);
    p.setPen(m_scene.colors.mutedText);
    p.drawText(QRect(8, 0, timeAreaLeft() - 14, rulerHeight()), Qt::AlignVCenter | Qt::AlignLeft,
               m_scene.trace ? QCoreApplication::translate("TimelineRenderer", "time from start")
                             : QCoreApplication::translate("TimelineRenderer", "no trace"));
    if (!m_scene.trace) return;
    const double nsPerPx = static_cast<double>(m_scene.t1 - m_scene.t0) / timeAreaWidth();
    const std::int64_t step = tickStepNs(nsPerPx, 110);
    const std::int64_t rel0 = m_scene.t0 - m_scene.originNs, rel1 = m_scene.t1 - m_scene.originNs;
    const std::int64_t magnitude = std::max(std::abs(rel0), std::abs(rel1));
    p.setClipRect(QRect(timeAreaLeft(), 0, timeAreaWidth(), rulerHeight()));
    if (m_scene.hasRange()) {
        const int x0 = clampedPixel(xForTime(m_scene.rangeT0)), x1 = clampedPixel(xForTime(m_scene.rangeT1));
        QColor band = kRange;
        band.setAlpha(60);
        p.fillRect(QRect(x0, 0, std::max(1, x1 - x0), rulerHeight() - 1), band);
    }
    for (const auto& tick : rulerTicks(rel0, rel1, step)) {
        const int x = clampedPixel(xForTime(tick.timeNs + m_scene.originNs));
        const int len = tick.major ? 9 : 4;
        p.fillRect(QRect(x, rulerHeight() - 1 - len, 1, len), tick.major ? m_scene.colors.text : m_scene.colors.border);
        if (tick.major) {
            p.setPen(m_scene.colors.text);
            p.drawText(QRect(x + 3, 1, 140, rulerHeight() - 8), Qt::AlignTop | Qt::AlignLeft,
                       formatTickLabel(tick.timeNs, step, magnitude));
        }
    }
    p.setClipping(false);
}

void TimelineRenderer::paintRangeLabel(QPainter& p) const {
    // The range's duration sits just under the ruler, on its own plate, so it never covers the
    // ruler's tick labels.
    if (!m_scene.trace || !m_scene.hasRange()) return;
    const int x0 = std::max(timeAreaLeft(), clampedPixel(xForTime(m_scene.rangeT0)));
    const int x1 = std::min(m_size.width(), clampedPixel(xForTime(m_scene.rangeT1)));
    if (x1 <= x0) return;
    const QString text = formatDuration(static_cast<double>(m_scene.rangeT1 - m_scene.rangeT0));
    const QFontMetrics fm(m_font);
    const int w = fm.horizontalAdvance(text) + 10;
    const QRect plate((x0 + x1 - w) / 2, rulerHeight() + 2, w, fm.height() + 4);
    p.setClipRect(QRect(timeAreaLeft(), rulerHeight(), timeAreaWidth(), m_size.height() - rulerHeight()));
    QColor plateColor = m_scene.colors.background;  // white on a light palette, the dark base on a dark one
    plateColor.setAlpha(230);
    p.fillRect(plate, plateColor);
    p.setPen(kRange);
    p.drawRect(plate.adjusted(0, 0, -1, -1));
    p.setPen(m_scene.colors.dark ? kRangeTextOnDark : kRangeText);
    p.drawText(plate, Qt::AlignCenter, text);
    p.setClipping(false);
}

}  // namespace tpscope::ui
