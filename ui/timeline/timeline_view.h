// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The timeline widget: input on top of a TimelineRenderer (which paints) and a TimeAxis (which holds
// the visible range, trace-relative, and may be shared with other views so that they stay aligned).
// STYLE.md "Timeline rendering", after the Qt Creator tracing library and Tracy.
//
// Input (timeline_view_input.cpp): wheel or Ctrl+wheel zooms at the cursor, Shift+wheel scrolls
// rows, horizontal wheel and left-drag pan, drag on the ruler or Shift+drag selects a time range
// (its statistics are computed on release), click selects an event (a collective shows its
// cross-rank links), a click on a folded bar zooms to it, W/S zoom, A/D pan, F fits, Z zooms to the
// selection, Esc clears it.

#include <QWidget>

#include <memory>
#include <optional>

#include "core/trace/range_stats.h"
#include "core/trace/trace.h"
#include "ui/timeline/time_axis.h"
#include "ui/timeline/timeline_data.h"
#include "ui/timeline/timeline_renderer.h"

namespace tpscope::ui {

class TimelineView : public QWidget {
    Q_OBJECT

  public:
    static constexpr int kRulerHeight = TimelineRenderer::kRulerHeight;
    static constexpr int kGutterWidth = TimelineRenderer::kGutterWidth;

    explicit TimelineView(QWidget* parent = nullptr);
    ~TimelineView() override;

    void setTrace(std::shared_ptr<const core::Trace> trace, std::shared_ptr<const TimelineData> data = {});
    // Another TimelineData of the trace shown (its analysis' part arrived): keeps range and selection.
    void setData(std::shared_ptr<const TimelineData> data);
    const core::Trace* trace() const { return scene().trace.get(); }
    const TimelineData* data() const { return scene().data.get(); }
    std::int64_t originNs() const { return scene().originNs; }

    // The axis this view follows (its own by default). Views given one axis show the same
    // trace-relative range; the axis is not owned unless it was the view's own.
    TimeAxis* timeAxis() const { return m_axis; }
    void setTimeAxis(TimeAxis* axis);

    // The absolute time the axis's 0 stands for: the trace's start unless set (setTrace resets it).
    // Views on one axis with anchors at the same event of each run stay aligned on that event at every
    // zoom and pan (Compare: layer k of each run).
    void setAxisAnchorNs(std::int64_t anchorNs);
    std::int64_t axisAnchorNs() const { return m_anchorNs; }

    // Absolute (trace clock) ns; stored on the axis relative to this view's anchor.
    std::int64_t viewStartNs() const { return scene().t0; }
    std::int64_t viewEndNs() const { return scene().t1; }
    void setVisibleRange(std::int64_t t0, std::int64_t t1);
    void fit();
    void zoomAt(double factor, double x);  // factor < 1 zooms in, around widget x
    void panPixels(double dx);
    bool zoomToSelection();

    int verticalOffset() const { return scene().scrollY; }
    void setVerticalOffset(int y);
    int contentHeight() const { return scene().layout.contentHeight(); }

    void setRankCollapsed(int rank, bool collapsed);
    bool rankCollapsed(int rank) const { return m_renderer.rankCollapsed(rank); }
    void setAllRanksCollapsed(bool collapsed);
    // Whether a trace opens folded (timeline_layout.h); applies to the trace shown now and later ones.
    void setFoldPolicy(FoldPolicy policy);
    // Without its own ruler (a Compare pane under the first pane's ruler on the shared axis): rows
    // start at the top. Drags that would start on the ruler select from the rows instead.
    void setRulerVisible(bool visible);
    int rulerHeight() const { return m_renderer.rulerHeight(); }

    TimelineHit indexAt(QPoint pos) const;
    // The tooltip at a widget point (HTML; empty for none): the item's details, or on a folded rank's
    // label the header text the lane has no band for (device, kernels, exposed share, clock offset).
    QString toolTipAt(QPoint pos) const;
    void selectEvent(const EventRef& event);
    void clearSelection();
    const EventRef& selectedEvent() const { return scene().selected; }
    const std::optional<CollectiveMatch>& selectedMatch() const { return scene().match; }
    void selectRange(std::int64_t t0, std::int64_t t1);
    bool hasSelectedRange() const { return scene().hasRange(); }
    std::int64_t selectedRangeStartNs() const { return scene().rangeT0; }
    std::int64_t selectedRangeEndNs() const { return scene().rangeT1; }
    const core::RangeStats& rangeStats() const { return m_rangeStats; }

    int timeAreaLeft() const { return kGutterWidth; }
    int timeAreaWidth() const;
    double xForTime(std::int64_t t) const;
    std::int64_t timeForX(double x) const;
    const TimelineLayout& layout() const { return scene().layout; }
    // The draw list for the current view (built on demand); spansOfRow is null for rows off screen.
    const TimelineGeometry& geometry() const;
    const std::vector<core::LodSpan>* spansOfRow(int row) const;
    // The widget-free renderer with this view's scene (copy it to paint elsewhere: export).
    const TimelineRenderer& renderer() const;
    // Renders the whole widget into an image of its size (benchmarks, screenshots).
    void renderTo(QImage& image);

  Q_SIGNALS:
    void visibleRangeChanged(qint64 t0, qint64 t1);
    void verticalRangeChanged(int maximum, int pageStep);
    void verticalOffsetChanged(int offset);
    void selectionChanged();
    void rangeSelectionChanged();

  protected:
    void changeEvent(QEvent* event) override;  // a new palette (dark desktop): new chrome colours
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    bool event(QEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void leaveEvent(QEvent* event) override;

  private:
    const TimelineScene& scene() const { return m_renderer.scene(); }
    TimelineScene& scene() { return m_renderer.scene(); }
    void syncViewport() const;
    void onAxisChanged();
    std::int64_t contentSpanOnAxis() const;
    void relayout();
    void emitVerticalRange();
    // Draws the range while dragging; the statistics wait for the release.
    void setRangeBand(std::int64_t t0, std::int64_t t1);

    TimelineRenderer m_renderer;
    TimeAxis* m_axis = nullptr;
    std::int64_t m_anchorNs = 0;
    FoldPolicy m_foldPolicy = defaultFoldPolicy();
    const TimelineData* m_loggedFrameOf = nullptr;  // the data whose first frame was logged
    core::RangeStats m_rangeStats;

    enum class Drag { None, Pan, Range };
    Drag m_drag = Drag::None;
    QPoint m_pressPos;
    QPoint m_lastPos;
    std::int64_t m_rangeAnchorNs = 0;
    bool m_moved = false;
};

}  // namespace tpscope::ui
