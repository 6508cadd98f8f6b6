#pragma once
// The timeline: one custom-painted widget for every row (STYLE.md "Timeline rendering", after the
// Qt Creator tracing library and Tracy). Rows per rank: NVTX step/layer/block, one lane per stream,
// an exposed-communication strip. Items come from core::visibleSpans (at most one per pixel column
// per row), batched by colour and cached until the view key changes.
//
// Input (timeline_view_input.cpp): wheel or Ctrl+wheel zooms at the cursor, Shift+wheel scrolls
// rows, horizontal wheel and left-drag pan, drag on the ruler or Shift+drag selects a time range,
// click selects an event (a collective shows its cross-rank links), W/S zoom, A/D pan, F fits,
// Z zooms to the selection, Esc clears it. Painting lives in timeline_view_paint.cpp.

#include <QWidget>

#include <memory>
#include <optional>

#include "core/trace/range_stats.h"
#include "core/trace/trace.h"
#include "ui/timeline/timeline_data.h"
#include "ui/timeline/timeline_geometry.h"
#include "ui/timeline/timeline_layout.h"

namespace tpscope::ui {

struct TimelineHit {
    enum class Area { None, Ruler, Gutter, Item, Row };
    Area area = Area::None;
    int row = -1;
    RowKind rowKind = RowKind::Stream;
    int rank = -1;
    EventRef event;             // stream rows: the item's representative (longest) event
    std::size_t nvtxIndex = 0;  // NVTX rows: the range's index in its depth's columns
    std::size_t count = 0;      // events under the item; > 1 for a folded run
    std::int64_t startNs = 0;
    std::int64_t endNs = 0;
    core::EventKind kind = core::EventKind::Other;
    bool isItem() const { return area == Area::Item; }
};

class TimelineView : public QWidget {
    Q_OBJECT

  public:
    static constexpr int kRulerHeight = 26;
    static constexpr int kGutterWidth = 168;

    explicit TimelineView(QWidget* parent = nullptr);

    void setTrace(std::shared_ptr<const core::Trace> trace, std::shared_ptr<const TimelineData> data = {});
    const core::Trace* trace() const { return m_trace.get(); }
    const TimelineData* data() const { return m_data.get(); }
    std::int64_t originNs() const { return m_originNs; }

    std::int64_t viewStartNs() const { return m_t0; }
    std::int64_t viewEndNs() const { return m_t1; }
    void setVisibleRange(std::int64_t t0, std::int64_t t1);
    void fit();
    void zoomAt(double factor, double x);  // factor < 1 zooms in, around widget x
    void panPixels(double dx);
    bool zoomToSelection();

    int verticalOffset() const { return m_scrollY; }
    void setVerticalOffset(int y);
    int contentHeight() const { return m_layout.contentHeight(); }

    void setRankCollapsed(int rank, bool collapsed);
    bool rankCollapsed(int rank) const;
    void setAllRanksCollapsed(bool collapsed);

    TimelineHit indexAt(QPoint pos) const;
    void selectEvent(const EventRef& event);
    void clearSelection();
    const EventRef& selectedEvent() const { return m_selected; }
    const std::optional<CollectiveMatch>& selectedMatch() const { return m_match; }
    void selectRange(std::int64_t t0, std::int64_t t1);
    bool hasSelectedRange() const { return m_rangeT1 > m_rangeT0; }
    std::int64_t selectedRangeStartNs() const { return m_rangeT0; }
    std::int64_t selectedRangeEndNs() const { return m_rangeT1; }
    const core::RangeStats& rangeStats() const { return m_rangeStats; }

    int timeAreaLeft() const { return kGutterWidth; }
    int timeAreaWidth() const;
    double xForTime(std::int64_t t) const;
    std::int64_t timeForX(double x) const;
    const TimelineLayout& layout() const { return m_layout; }
    // The draw list for the current view (built on demand); spansOfRow is null for rows off screen.
    const TimelineGeometry& geometry() const;
    const std::vector<core::LodSpan>* spansOfRow(int row) const;
    // Renders the whole widget into an image of its size (benchmarks, screenshots).
    void renderTo(QImage& image);

  Q_SIGNALS:
    void visibleRangeChanged(qint64 t0, qint64 t1);
    void verticalRangeChanged(int maximum, int pageStep);
    void verticalOffsetChanged(int offset);
    void selectionChanged();
    void rangeSelectionChanged();

  protected:
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
    void relayout();
    void emitVerticalRange();
    void rebuildGeometry() const;
    void addRowItems(const TimelineRow& row, const std::vector<core::LodSpan>& spans) const;
    QRect itemRect(const TimelineRow& row, std::int64_t startNs, std::int64_t endNs) const;
    int rowTopOnScreen(const TimelineRow& row) const { return kRulerHeight + row.y - m_scrollY; }
    const core::EventColumns* columnsOfRow(const TimelineRow& row) const;

    void paintBackground(QPainter& p) const;
    void paintRankSummary(QPainter& p, const TimelineRow& row, int top) const;
    void paintItems(QPainter& p) const;
    void paintOverlays(QPainter& p) const;
    void paintCollectiveLinks(QPainter& p) const;
    void paintGutter(QPainter& p) const;
    void paintRuler(QPainter& p) const;
    void outlineEvent(QPainter& p, const EventRef& event, const QColor& color, int width) const;

    std::shared_ptr<const core::Trace> m_trace;
    std::shared_ptr<const TimelineData> m_data;
    TimelineLayout m_layout;
    std::vector<bool> m_collapsed;
    std::uint64_t m_rowsVersion = 1;
    mutable TimelineGeometry m_geometry;

    std::int64_t m_originNs = 0;
    std::int64_t m_traceEndNs = 0;
    std::int64_t m_t0 = 0;
    std::int64_t m_t1 = 1;
    int m_scrollY = 0;

    EventRef m_selected;
    std::optional<CollectiveMatch> m_match;
    std::int64_t m_rangeT0 = 0;
    std::int64_t m_rangeT1 = 0;
    core::RangeStats m_rangeStats;
    TimelineHit m_hover;

    enum class Drag { None, Pan, Range };
    Drag m_drag = Drag::None;
    QPoint m_pressPos;
    QPoint m_lastPos;
    std::int64_t m_rangeAnchorNs = 0;
    bool m_moved = false;
};

}  // namespace tpscope::ui
