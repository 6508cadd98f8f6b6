// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The timeline without a widget (DESIGN.md §8): everything one frame needs (the scene) and the code
// that turns it into pixels through any QPainter (the widget's paintEvent, and PNG / SVG / PDF export
// at any size and device-pixel ratio). Rows per rank: NVTX step/layer/block, one lane per stream, an
// exposed-communication strip; a collapsed rank keeps a thin summary strip. Items come from
// core::visibleSpans over *device* pixels (at most one per device column per row), batched by colour
// and cached until the (range, size, ratio, scroll, rows) key changes. A folded item is drawn as the
// mix of its kinds by time (core::kindMix), stacked within its pixels, and the exposed strip's height
// is the exposed share of the time under each pixel.

#include <QColor>
#include <QFont>
#include <QPalette>
#include <QRectF>
#include <QSize>

#include <memory>
#include <optional>

#include "core/trace/range_stats.h"
#include "core/trace/trace.h"
#include "ui/timeline/timeline_data.h"
#include "ui/timeline/timeline_geometry.h"
#include "ui/timeline/timeline_layout.h"

class QPainter;

namespace tpscope::ui {

struct TimelineHit {
    enum class Area { None, Ruler, Gutter, Item, Row };
    Area area = Area::None;
    int row = -1;
    RowKind rowKind = RowKind::Stream;
    int rank = -1;
    EventRef event;             // stream rows: the item's representative (longest) event
    std::size_t nvtxIndex = 0;  // NVTX rows: the range's index in its depth's row (core::NvtxDepthRow)
    int nvtxDepth = -1;         // NVTX rows: the row's depth (0 step, 1 layer, 2 block)
    int hostThread = -1;        // host rows: index into the rank's hostThreads
    std::size_t hostIndex = 0;  // host rows: the call's (representative's) index in its thread's events
    std::size_t count = 0;      // events under the item; > 1 for a folded run
    std::int64_t startNs = 0;
    std::int64_t endNs = 0;
    core::EventKind kind = core::EventKind::Other;
    bool isItem() const { return area == Area::Item; }
};

// What is on screen: the trace and its derived data, the row layout, the visible range (absolute ns)
// and vertical scroll, and the selection to highlight.
// The timeline's chrome (background, bands, gutter, ruler, text), from the widget's palette so that a
// dark desktop gets a dark timeline (STYLE.md "Themes"); kernel colours stay the kind palette's.
struct TimelineColors {
    QColor background, panel, headerBand, separator, border, text, mutedText;
    bool dark = false;  // isDarkPalette: NVTX tones and the range label's text follow it
    static TimelineColors fromPalette(const QPalette& palette);
};

struct TimelineScene {
    std::shared_ptr<const core::Trace> trace;
    std::shared_ptr<const TimelineData> data;
    TimelineLayout layout;
    std::vector<bool> collapsed;
    std::uint64_t rowsVersion = 1;
    std::int64_t originNs = 0;
    std::int64_t traceEndNs = 0;
    std::int64_t t0 = 0;
    std::int64_t t1 = 1;
    int scrollY = 0;
    bool showRuler = true;
    TimelineColors colors =
        TimelineColors::fromPalette(QPalette());  // false: a pane stacked under another view's ruler on the same axis
    EventRef selected;
    std::optional<CollectiveMatch> match;
    std::int64_t rangeT0 = 0;
    std::int64_t rangeT1 = 0;
    TimelineHit hover;
    bool hasRange() const { return rangeT1 > rangeT0; }
};

class TimelineRenderer {
  public:
    static constexpr int kRulerHeight = 26;
    static constexpr int kGutterWidth = 168;

    TimelineScene& scene() { return m_scene; }
    const TimelineScene& scene() const { return m_scene; }
    void relayout();  // after the trace or the collapsed ranks changed
    bool rankCollapsed(int rank) const;

    // The size (logical pixels), device-pixel ratio and font that geometry and hit-testing use.
    void setViewport(QSize sizePx, double dpr, const QFont& font) const;
    QSize viewport() const { return m_size; }
    double devicePixelRatio() const { return m_dpr; }
    int timeAreaLeft() const { return kGutterWidth; }
    int timeAreaWidth() const;
    int deviceTimeAreaWidth() const;  // the level-of-detail width: device pixels
    double xForTime(std::int64_t t) const;
    std::int64_t timeForX(double x) const;
    QRectF itemRect(const TimelineRow& row, std::int64_t startNs, std::int64_t endNs) const;
    int rowTopOnScreen(const TimelineRow& row) const { return rulerHeight() + row.y - m_scene.scrollY; }
    // kRulerHeight, or 0 when the scene shows no ruler.
    int rulerHeight() const { return m_scene.showRuler ? kRulerHeight : 0; }

    // The draw list for the current key (built on demand); spansOfRow is null for rows off screen.
    const TimelineGeometry& geometry() const;
    const std::vector<core::LodSpan>* spansOfRow(int row) const;
    // The columns a stream, host or exposed row draws; null for NVTX rows (nvtxRowOf) and headers.
    const core::EventColumns* columnsOfRow(const TimelineRow& row) const;
    // The trace's ranges an NVTX row draws; empty for other rows.
    core::NvtxDepthRow nvtxRowOf(const TimelineRow& row) const;

    // The text of a rank header's band: device, kernel counts, exposed share, and with several ranks
    // the rank's estimated clock offset and residual (or why it has none).
    QString rankSummaryText(int rank) const;

    // Paints the scene into a painter of `sizePx` logical pixels at device-pixel ratio `dpr`.
    void paint(QPainter& p, QSize sizePx, double dpr) const;

  private:
    void rebuildGeometry() const;
    void addRowItems(const TimelineRow& row, const std::vector<core::LodSpan>& spans) const;
    void paintBackground(QPainter& p) const;
    void paintRankSummary(QPainter& p, const TimelineRow& row, int top) const;
    void paintItems(QPainter& p) const;
    void paintOverlays(QPainter& p) const;
    void paintCollectiveLinks(QPainter& p) const;
    void paintLaunchLink(QPainter& p, const TimelineHit& hit) const;
    void paintGutter(QPainter& p) const;
    void paintFoldedLabel(QPainter& p, const TimelineRow& row, const QRect& block) const;
    void paintRuler(QPainter& p) const;
    void paintRangeLabel(QPainter& p) const;
    void outlineEvent(QPainter& p, const EventRef& event, const QColor& color, int width) const;

    TimelineScene m_scene;
    mutable QSize m_size{400, 160};
    mutable double m_dpr = 1.0;
    mutable QFont m_font;
    mutable TimelineGeometry m_geometry;
};

// x as an int that QPainter can take: clamped far outside any screen before the conversion, so
// that a deep zoom on a long trace never overflows (undefined behaviour) into a wrong position.
int clampedPixel(double x);

}  // namespace tpscope::ui
