// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// TimelineRenderer: coordinates and the cached draw list (level of detail in device pixels).

#include "ui/timeline/timeline_renderer.h"

#include <QFontMetrics>
#include <QThread>
#include <QThreadPool>

#include <QtConcurrent/QtConcurrentMap>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <numeric>

#include "core/trace/kind_mix.h"
#include "core/trace/level_of_detail.h"
#include "ui/logging.h"
#include "ui/timeline/kind_palette.h"

namespace tpscope::ui {

namespace {

constexpr int kMinLabelPx = 44;
constexpr std::size_t kParallelLodEvents = 500'000;

// The rows' level of detail runs here on large traces, never on the global pool that the rest of
// the application (and Qt) may have filled with long work.
QThreadPool& lodPool() {
    static QThreadPool* pool = [] {
        auto* p = new QThreadPool;
        p->setMaxThreadCount(std::max(1, QThread::idealThreadCount()));
        return p;
    }();
    return *pool;
}

int padOf(RowKind kind) {
    switch (kind) {
        case RowKind::Stream:
            return 3;
        case RowKind::Host:
            return 2;
        case RowKind::Nvtx:
        case RowKind::Exposed:
        case RowKind::Summary:
            return 1;
        case RowKind::RankHeader:
            return 0;
    }
    return 0;
}

// Stacking order inside a folded bar, top to bottom: communication first so that it reads.
constexpr core::EventKind kStackOrder[] = {
    core::EventKind::Collective, core::EventKind::Gemm,   core::EventKind::Attention, core::EventKind::Elementwise,
    core::EventKind::Memcpy,     core::EventKind::Memset, core::EventKind::Other};

}  // namespace

int clampedPixel(double x) {
    return static_cast<int>(std::clamp(x, -1e6, 1e6));
}

int TimelineGeometry::slotOfRow(int row) const {
    const auto it = std::lower_bound(rows.begin(), rows.end(), row);
    return it != rows.end() && *it == row ? static_cast<int>(it - rows.begin()) : -1;
}

QColor slotColor(int slot, bool dark) {
    if (slot < core::kEventKindCount) return kindColor(static_cast<core::EventKind>(slot));
    if (slot < kExposedSlot) return foldedColor(static_cast<core::EventKind>(slot - kFoldedSlot));
    if (slot == kExposedSlot) return exposedCommColor();
    if (slot >= kHostSlot) return slot == kHostSlot ? hostCallColor() : foldedHostColor();
    const int n = slot - kNvtxSlot;
    return nvtxColor(n / 2, static_cast<std::size_t>(n % 2), dark);
}

void TimelineRenderer::relayout() {
    if (m_scene.trace && m_scene.data) {
        m_scene.layout.rebuild(*m_scene.trace, *m_scene.data, m_scene.collapsed);
    } else {
        m_scene.layout = TimelineLayout{};
    }
    ++m_scene.rowsVersion;
    m_geometry.valid = false;
}

bool TimelineRenderer::rankCollapsed(int rank) const {
    return rank >= 0 && static_cast<std::size_t>(rank) < m_scene.collapsed.size() &&
           m_scene.collapsed[static_cast<std::size_t>(rank)];
}

void TimelineRenderer::setViewport(QSize sizePx, double dpr, const QFont& font) const {
    m_size = sizePx;
    m_dpr = dpr > 0 ? dpr : 1.0;
    m_font = font;
}

int TimelineRenderer::timeAreaWidth() const {
    return std::max(1, m_size.width() - kGutterWidth);
}

int TimelineRenderer::deviceTimeAreaWidth() const {
    return std::max(1, static_cast<int>(std::lround(timeAreaWidth() * m_dpr)));
}

double TimelineRenderer::xForTime(std::int64_t t) const {
    return timeAreaLeft() +
           static_cast<double>(t - m_scene.t0) * timeAreaWidth() / static_cast<double>(m_scene.t1 - m_scene.t0);
}

std::int64_t TimelineRenderer::timeForX(double x) const {
    return m_scene.t0 + static_cast<std::int64_t>(std::llround(
                            (x - timeAreaLeft()) * static_cast<double>(m_scene.t1 - m_scene.t0) / timeAreaWidth()));
}

const core::EventColumns* TimelineRenderer::columnsOfRow(const TimelineRow& row) const {
    if (!m_scene.trace || !m_scene.data) return nullptr;
    const auto r = static_cast<std::size_t>(row.rank);
    switch (row.kind) {
        case RowKind::Stream:
        case RowKind::Summary:
            if (row.sub < 0) return nullptr;  // a folded rank without streams
            return &m_scene.trace->ranks[r].streams[static_cast<std::size_t>(row.sub)].events;
        case RowKind::Host:
            return &m_scene.trace->ranks[r].hostThreads[static_cast<std::size_t>(row.sub)].events;
        case RowKind::Exposed:
            return &m_scene.data->ranks()[r].exposed;
        case RowKind::Nvtx:
        case RowKind::RankHeader:
            return nullptr;
    }
    return nullptr;
}

core::NvtxDepthRow TimelineRenderer::nvtxRowOf(const TimelineRow& row) const {
    if (!m_scene.trace || !m_scene.data || row.kind != RowKind::Nvtx) return {};
    const auto r = static_cast<std::size_t>(row.rank);
    return m_scene.data->ranks()[r].nvtxRow(m_scene.trace->ranks[r], static_cast<std::size_t>(row.sub));
}

QRectF TimelineRenderer::itemRect(const TimelineRow& row, std::int64_t startNs, std::int64_t endNs) const {
    // Columns in device pixels, so a 2x screen or export gets twice the detail.
    const int w = deviceTimeAreaWidth();
    const std::int64_t t0 = m_scene.t0, t1 = m_scene.t1;
    const std::int64_t c0 = std::clamp<std::int64_t>(core::pixelColumn(startNs, t0, t1, w), 0, w - 1);
    std::int64_t c1 = std::clamp<std::int64_t>(core::pixelColumn(std::max(startNs, endNs - 1), t0, t1, w) + 1, 0, w);
    if (c1 <= c0) c1 = c0 + 1;
    // A one-pixel gap keeps back-to-back kernels apart once they are wide enough to spare it.
    const auto gap = static_cast<std::int64_t>(std::ceil(m_dpr));
    if (c1 - c0 >= 4 * gap && (row.kind == RowKind::Stream || row.kind == RowKind::Host)) c1 -= gap;
    const int pad = row.height > 4 ? padOf(row.kind) : 0;  // a folded lane's 3-px strip keeps its pixels
    return QRectF(timeAreaLeft() + static_cast<double>(c0) / m_dpr, rowTopOnScreen(row) + pad,
                  static_cast<double>(c1 - c0) / m_dpr, row.height - 2 * pad);
}

void TimelineRenderer::addRowItems(const TimelineRow& row, const std::vector<core::LodSpan>& spans) const {
    const core::EventColumns* columns = columnsOfRow(row);
    const core::NvtxDepthRow nvtx = nvtxRowOf(row);
    if (columns == nullptr && row.kind != RowKind::Nvtx) return;
    const QFontMetrics fm(m_font);
    const double nsPerDevicePx = static_cast<double>(m_scene.t1 - m_scene.t0) / deviceTimeAreaWidth();
    const bool kernels = row.kind == RowKind::Stream || row.kind == RowKind::Summary;
    for (const auto& s : spans) {
        const QRectF rect = itemRect(row, s.startNs, s.endNs);
        int slot = kExposedSlot;
        if (kernels && s.folded()) {
            // The item's kinds by time, stacked within its pixels (Perfetto, Nsight).
            const core::KindShares mix = core::kindMix(*columns, s);
            double y = rect.top();
            for (const core::EventKind kind : kStackOrder) {
                const double h = mix[static_cast<std::size_t>(kind)] * rect.height();
                if (h <= 0) continue;
                m_geometry.batches[static_cast<std::size_t>(kFoldedSlot + static_cast<int>(kind))].append(
                    QRectF(rect.left(), y, rect.width(), h));
                y += h;
            }
            slot = kFoldedSlot + static_cast<int>(s.kind);
        } else if (kernels) {
            slot = static_cast<int>(s.kind);
            m_geometry.batches[static_cast<std::size_t>(slot)].append(rect);
        } else if (row.kind == RowKind::Host) {
            slot = s.folded() ? kHostSlot + 1 : kHostSlot;
            m_geometry.batches[static_cast<std::size_t>(slot)].append(rect);
        } else if (row.kind == RowKind::Nvtx) {
            slot = kNvtxSlot + 2 * std::min(row.sub, 2) + static_cast<int>(s.firstIndex % 2);
            m_geometry.batches[static_cast<std::size_t>(slot)].append(rect);
        } else {
            // The exposed strip's height is the exposed share of the time under the item's pixels,
            // so a mostly overlapped stretch no longer reads as 100 % exposed.
            const double pixelNs = rect.width() * m_dpr * nsPerDevicePx;
            const auto covered =
                static_cast<double>(m_scene.data->exposedNs(static_cast<std::size_t>(row.rank), s.startNs, s.endNs));
            const double share = s.folded() && pixelNs > 0 ? std::clamp(covered / pixelNs, 0.0, 1.0) : 1.0;
            const double h = std::max(1.0 / m_dpr, share * rect.height());
            m_geometry.batches[static_cast<std::size_t>(slot)].append(
                QRectF(rect.left(), rect.bottom() - h, rect.width(), h));
        }
        if (rect.width() < kMinLabelPx || row.kind == RowKind::Exposed || row.kind == RowKind::Summary) continue;
        QString text;
        if (s.folded()) {
            text = QStringLiteral("%1 ×").arg(s.count);
        } else {
            const auto name =
                m_scene.trace->name(row.kind == RowKind::Nvtx ? nvtx.name(s.firstIndex) : columns->name(s.firstIndex));
            text = QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size()));
        }
        const QRectF textRect = rect.adjusted(3, 0, -2, 0);
        m_geometry.labels.push_back({textRect, fm.elidedText(text, Qt::ElideRight, static_cast<int>(textRect.width())),
                                     textColorOn(slotColor(slot, m_scene.colors.dark))});
    }
    m_geometry.itemCount += spans.size();
}

void TimelineRenderer::rebuildGeometry() const {
    const GeometryKey key{m_scene.t0,          m_scene.t1, timeAreaWidth(), m_size.height(), m_scene.scrollY,
                          m_scene.rowsVersion, m_dpr};
    if (m_geometry.valid && m_geometry.key == key) return;
    TimelineGeometry& g = m_geometry;
    g.key = key;
    g.rows.clear();
    for (auto& b : g.batches) b.resize(0);
    g.labels.clear();
    g.itemCount = 0;
    const auto& rows = m_scene.layout.rows();
    const int bottom = m_scene.scrollY + m_size.height() - rulerHeight();
    for (std::size_t i = m_scene.layout.firstRowBelow(m_scene.scrollY); i < rows.size() && rows[i].y < bottom; ++i) {
        if (rows[i].kind != RowKind::RankHeader) g.rows.push_back(static_cast<int>(i));
    }
    if (g.spans.size() < g.rows.size()) g.spans.resize(g.rows.size());
    // Level of detail per row is independent work over read-only columns: on a large trace the rows
    // run on the renderer's own pool (the walk is memory-latency bound, one column after the other).
    const int w = deviceTimeAreaWidth();
    const auto lod = [&](std::size_t slot) {
        const TimelineRow& row = rows[static_cast<std::size_t>(g.rows[slot])];
        if (row.kind == RowKind::Nvtx) {
            core::visibleSpans(nvtxRowOf(row), m_scene.t0, m_scene.t1, w, g.spans[slot]);
        } else if (const core::EventColumns* columns = columnsOfRow(row); columns != nullptr) {
            core::visibleSpans(*columns, m_scene.t0, m_scene.t1, w, g.spans[slot]);
        } else {
            g.spans[slot].clear();
        }
    };
    std::vector<std::size_t> rowSlots(g.rows.size());
    std::iota(rowSlots.begin(), rowSlots.end(), std::size_t{0});
    // Paint time has no one to hand an error to: a row whose level of detail throws (std::bad_alloc on
    // a huge trace) is drawn empty and logged, and the paint goes on. Nothing escapes into Qt's event
    // loop, which would end the application, nor out of the pool's threads.
    std::atomic<int> failedRows{0};
    const auto guardedLod = [&](std::size_t slot) {
        try {
            lod(slot);
        } catch (...) {
            g.spans[slot].clear();
            ++failedRows;
        }
    };
    if (m_scene.trace && m_scene.trace->eventCount() >= kParallelLodEvents && rowSlots.size() > 1) {
        QtConcurrent::blockingMap(&lodPool(), rowSlots, guardedLod);
    } else {
        for (const std::size_t slot : rowSlots) guardedLod(slot);
    }
    if (failedRows.load() > 0) {
        qCWarning(lcTimeline) << failedRows.load() << "timeline rows not drawn: out of memory while painting";
    }
    for (const std::size_t slot : rowSlots) addRowItems(rows[static_cast<std::size_t>(g.rows[slot])], g.spans[slot]);
    g.valid = true;
}

const TimelineGeometry& TimelineRenderer::geometry() const {
    rebuildGeometry();
    return m_geometry;
}

const std::vector<core::LodSpan>* TimelineRenderer::spansOfRow(int row) const {
    rebuildGeometry();
    const int slot = m_geometry.slotOfRow(row);
    return slot < 0 ? nullptr : &m_geometry.spans[static_cast<std::size_t>(slot)];
}

}  // namespace tpscope::ui
