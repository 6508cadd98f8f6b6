// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/timeline/timeline_panel.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QScrollBar>
#include <QStackedWidget>
#include <QVBoxLayout>

#include <algorithm>

#include "ui/document/run_document.h"
#include "ui/export/painted_export.h"
#include "ui/palette_colors.h"
#include "ui/timeline/event_details.h"
#include "ui/timeline/timeline_legend.h"

namespace tpscope::ui {

namespace {

// The step a timeline opens on, of `steps` steps: the second is warm (no first-step effects); without
// one, the first. The one rule for the analysis' steps, the preview's NVTX steps and the example.
std::size_t warmStepIndex(std::size_t steps) {
    return steps > 1 ? 1 : 0;
}

QString hintHtml(const QPalette& palette) {
    return QStringLiteral(
               "<p style='color:%1'>Hover a kernel for its details; click to select it (a collective shows the same "
               "call on every GPU, hatched where a GPU waits for the last one to arrive); click a folded bar to zoom "
               "to it. Drag on the ruler or Shift+drag to measure a range. Wheel or W/S zoom, drag or A/D pan, F "
               "fits, Z zooms to the selection.</p>")
        .arg(mutedTextColor(palette).name());
}

QString runTitle(const RunRecord& r) {
    if (r.request.backend == BackendKind::Imported) return r.label();
    return QStringLiteral("%1 · %2 · %3")
        .arg(QString::fromStdString(r.request.model.name), r.label(), QString::fromStdString(r.request.gpu.name));
}

}  // namespace

TimelinePanel::TimelinePanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);

    auto* tools = new QHBoxLayout;
    tools->setContentsMargins(6, 2, 6, 0);
    m_title = new QLabel(this);
    m_title->setTextFormat(Qt::RichText);
    tools->addWidget(m_title);
    tools->addStretch(1);
    m_legend = new TimelineLegend(this);
    tools->addWidget(m_legend);
    layout->addLayout(tools);

    m_view = new TimelineView(this);
    m_viewFocusPolicy = m_view->focusPolicy();
    m_scroll = new QScrollBar(Qt::Vertical, this);
    auto* viewBox = new QWidget(this);
    auto* viewLayout = new QHBoxLayout(viewBox);
    viewLayout->setContentsMargins(0, 0, 0, 0);
    viewLayout->setSpacing(0);
    viewLayout->addWidget(m_view, 1);
    viewLayout->addWidget(m_scroll);

    m_empty = new QLabel(this);
    m_empty->setObjectName(QStringLiteral("timelineMessage"));
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    m_stack = new QStackedWidget(this);
    m_stack->addWidget(m_empty);
    m_stack->addWidget(viewBox);
    layout->addWidget(m_stack, 1);
    setCurrentRun(RunId::None);

    connect(m_view, &TimelineView::verticalRangeChanged, m_scroll, [this](int maximum, int page) {
        m_scroll->setRange(0, maximum);
        m_scroll->setPageStep(page);
        m_scroll->setSingleStep(20);
        // Always there (disabled when everything fits): views stacked on one axis keep one width.
        m_scroll->setEnabled(maximum > 0);
    });
    connect(m_view, &TimelineView::verticalOffsetChanged, m_scroll, &QScrollBar::setValue);
    connect(m_scroll, &QScrollBar::valueChanged, m_view, &TimelineView::setVerticalOffset);
    connect(m_view, &TimelineView::selectionChanged, this, &TimelinePanel::refreshDetails);
    connect(m_view, &TimelineView::rangeSelectionChanged, this, &TimelinePanel::refreshDetails);
}

QString TimelinePanel::tabTitle() const {
    return tr("Timeline");
}

void TimelinePanel::fitView() {
    if (!m_excerptShown) m_view->fit();
}

void TimelinePanel::zoomIn() {
    if (!m_excerptShown) m_view->zoomAt(0.5, m_view->timeAreaLeft() + m_view->timeAreaWidth() / 2.0);
}

void TimelinePanel::zoomOut() {
    if (!m_excerptShown) m_view->zoomAt(2.0, m_view->timeAreaLeft() + m_view->timeAreaWidth() / 2.0);
}

void TimelinePanel::zoomToSelection() {
    if (!m_excerptShown) m_view->zoomToSelection();
}

void TimelinePanel::setAllRanksCollapsed(bool collapsed) {
    if (!m_excerptShown) m_view->setAllRanksCollapsed(collapsed);
}

void TimelinePanel::setExcerptShown(bool shown) {
    // The excerpt holds one window's events: no zoom, pan, hover or selection that would look past
    // it (outside it the timeline would look empty, not unread) until the events replace it.
    m_excerptShown = shown;
    m_view->setAttribute(Qt::WA_TransparentForMouseEvents, shown);
    m_view->setFocusPolicy(shown ? Qt::NoFocus : m_viewFocusPolicy);
}

void TimelinePanel::setCurrentRun(RunId id) {
    m_run = id;
    const RunRecord* r = m_document != nullptr ? m_document->run(id) : nullptr;
    if (r == nullptr) {
        m_shownTrace = nullptr;
        m_view->setTrace(nullptr, nullptr);
        m_title->clear();
        showMessage(
            tr("<h3>No run selected</h3><p>Press <b>Run sweep</b> to simulate one, or open a trace "
               "(File → Open, or drop a file here).</p>"));
        return;
    }
    if (!r->trace) {
        m_shownTrace = nullptr;
        m_view->setTrace(nullptr, nullptr);
        m_title->setText(QStringLiteral("<b>%1</b>").arg(runTitle(*r).toHtmlEscaped()));
        const QString state = r->status == RunStatus::Running
                                  ? tr("running, %1 % of its steps done").arg(static_cast<int>(r->progress * 100))
                                  : statusText(r->status);
        const QString why =
            r->error.isEmpty() ? tr("The timeline appears when the run finishes.") : r->error.toHtmlEscaped();
        showMessage(tr("<h3>%1: %2</h3><p>%3</p>").arg(r->label().toHtmlEscaped(), state, why));
        return;
    }
    if (r->trace.get() == m_shownTrace && showsTimeline()) {
        // The same trace: keep zoom and selection. A preview gets the analysis' part, and the step the
        // analysis opens on when the user has not moved since.
        if (r->timeline && r->timeline.get() != m_view->data()) {
            const bool moved = std::pair{m_view->viewStartNs(), m_view->viewEndNs()} != m_previewRange;
            m_view->setData(r->timeline);
            m_title->setText(QStringLiteral("<b>%1</b>").arg(runTitle(*r).toHtmlEscaped()));
            const auto step = r->analysis ? shownStepOf(*r->analysis) : std::nullopt;
            if (!moved && step) m_view->setVisibleRange(step->startNs, step->endNs);
        }
        return;
    }
    setTrace(r->trace, r->timeline, runTitle(*r));
    // Open on one whole decode step, not the whole trace (a long run folds every kernel into a few
    // pixels) and not a fraction of a step.
    if (r->analysis) {
        if (const auto step = shownStepOf(*r->analysis)) m_view->setVisibleRange(step->startNs, step->endNs);
    }
}

std::optional<core::analysis::TimeSpan> TimelinePanel::shownStepOf(const core::analysis::RunAnalysis& analysis) {
    const auto& steps = analysis.summary.steps;
    if (steps.empty()) return std::nullopt;
    const auto& step = steps[warmStepIndex(steps.size())];
    if (step.latencyNs <= 0) return std::nullopt;
    return core::analysis::TimeSpan{step.startNs, step.startNs + step.latencyNs};
}

void TimelinePanel::setTrace(std::shared_ptr<const core::Trace> trace, std::shared_ptr<const TimelineData> timeline,
                             const QString& title) {
    m_shownTrace = trace.get();
    setExcerptShown(timeline && timeline->excerpt());
    m_stack->setCurrentIndex(trace ? 1 : 0);
    m_title->setText(title.isEmpty() ? QString() : QStringLiteral("<b>%1</b>").arg(title.toHtmlEscaped()));
    m_view->setTrace(std::move(trace), std::move(timeline));
}

void TimelinePanel::showMessage(const QString& html) {
    m_empty->setStyleSheet(QStringLiteral("color:%1").arg(mutedTextColor(palette()).name()));
    m_empty->setText(html);
    m_stack->setCurrentIndex(0);
}

void TimelinePanel::showLoading(const QString& path) {
    showMessage(tr("<h3>Opening %1…</h3><p>The progress is in the status bar.</p>")
                    .arg(QFileInfo(path).fileName().toHtmlEscaped()));
}

void TimelinePanel::showPreview(const RunRecord& run) {
    if (!run.trace || !run.timeline) return;
    m_run = RunId::None;
    if (const auto& excerpt = run.timeline->excerpt()) {
        // Stored with the workspace and read before its events: the step it opens on, exactly.
        setTrace(run.trace, run.timeline, tr("%1 (stored excerpt of this step; loading events…)").arg(runTitle(run)));
        m_view->setVisibleRange(excerpt->windowStartNs, excerpt->windowEndNs);
        m_previewRange = {m_view->viewStartNs(), m_view->viewEndNs()};
        return;
    }
    setTrace(run.trace, run.timeline, tr("%1 (analysing…)").arg(runTitle(run)));
    // The analysis' steps come from the NVTX step ranges; before it, rank 0's own are the best guess.
    const auto& ranks = run.timeline->ranks();
    if (!ranks.empty() && !ranks.front().nvtx.empty() && !ranks.front().nvtx.front().empty()) {
        const core::NvtxDepthRow steps = ranks.front().nvtxRow(run.trace->ranks.front(), 0);
        const std::size_t step = warmStepIndex(steps.size());
        if (steps.endNs(step) > steps.startNs(step)) m_view->setVisibleRange(steps.startNs(step), steps.endNs(step));
    }
    m_previewRange = {m_view->viewStartNs(), m_view->viewEndNs()};
}

bool TimelinePanel::showsTimeline() const {
    return m_stack->currentIndex() == 1;
}

QString TimelinePanel::messageHtml() const {
    return m_empty->text();
}

void TimelinePanel::setCompact(bool compact) {
    m_legend->setVisible(!compact);
    m_title->setWordWrap(false);
    // Stacked compact panes (Compare: up to four) must fit a 1000-px window: each keeps a few lanes
    // and scrolls, instead of the full view's 160-px floor growing the window past the screen.
    m_view->setMinimumHeight(compact ? fontMetrics().lineSpacing() * 4 : 160);
}

void TimelinePanel::focusView() {
    if (showsTimeline()) m_view->setFocus(Qt::OtherFocusReason);
}

void TimelinePanel::refreshDetails() {
    const auto* trace = m_view->trace();
    const auto* timeline = m_view->data();
    QString html;
    if (trace != nullptr && timeline != nullptr) {
        // The range first: its table is what a user measures for, and it must not need scrolling.
        if (m_view->hasSelectedRange()) html += rangeStatsHtml(*timeline, m_view->rangeStats(), m_view->originNs());
        if (m_view->selectedEvent().valid()) {
            html += eventDetailsHtml(*trace, m_view->selectedEvent(), m_view->selectedMatch(), m_view->originNs());
        }
    }
    m_detailsHtml = html.isEmpty() ? hintHtml(palette()) : html;
    Q_EMIT detailsChanged(m_detailsHtml);
}

QStringList TimelinePanel::exportFormats() const {
    return {QStringLiteral("png"), QStringLiteral("svg"), QStringLiteral("pdf")};
}

core::Status TimelinePanel::exportTo(const ExportRequest& request) const {
    if (!m_view->trace()) {
        return core::makeError(core::ErrorCode::InvalidArgument, "no timeline to export", request.path.toStdString());
    }
    if (m_excerptShown) {
        return core::makeError(core::ErrorCode::InvalidArgument, "the timeline's events are still loading",
                               request.path.toStdString());
    }
    const QSize size = request.sizePx.isValid() && !request.sizePx.isEmpty() ? request.sizePx : m_view->size();
    // A copy of the view's renderer: the export paints at its own size without touching the screen.
    TimelineRenderer renderer = m_view->renderer();
    const QFont font = m_view->font();
    return exportPainted(request.path, size, request.dpr, QStringLiteral("tpscope timeline"),
                         [&](QPainter& p, QSize at, double dpr) {
                             renderer.setViewport(at, dpr, font);
                             renderer.paint(p, at, dpr);
                         });
}

void TimelinePanel::focusOnExample(ExampleZoom zoom) {
    TimelineView* view = m_view;
    const auto* trace = view->trace();
    const auto* timeline = view->data();
    if (trace == nullptr || timeline == nullptr || timeline->ranks().empty()) return;
    const auto& rows = timeline->ranks().front();
    if (rows.nvtx.size() < 2 || rows.nvtx[1].size() < 3) {
        if (zoom == ExampleZoom::TwoLayers) view->fit();
        return;
    }
    const core::NvtxDepthRow steps = rows.nvtxRow(trace->ranks.front(), 0);
    const std::size_t step = warmStepIndex(steps.size());
    const std::int64_t s0 = steps.startNs(step), s1 = steps.endNs(step);
    std::optional<CollectiveMatch> best;
    for (const EventRef& call : timeline->collectivesIn(*trace, 0, s0, s1)) {
        auto match = timeline->matchCollective(*trace, call);
        if (match && (!best || match->skewNs > best->skewNs)) best = std::move(match);
    }
    // Two layers wide, the call a little right of the centre so the compute that led to it shows.
    const core::NvtxDepthRow layers = rows.nvtxRow(trace->ranks.front(), 1);
    const std::int64_t width = 2 * (layers.endNs(1) - layers.startNs(1));
    if (!best) {
        if (zoom == ExampleZoom::TwoLayers) view->setVisibleRange(s0, s0 + width);
        return;
    }
    const std::int64_t at = best->members.front().startNs;
    if (zoom == ExampleZoom::TwoLayers) view->setVisibleRange(at - width * 6 / 10, at + width * 4 / 10);
    // Select the rank that waited longest: its kernel shows the most hatching.
    const auto waiter = std::max_element(best->members.begin(), best->members.end(),
                                         [](const auto& a, const auto& b) { return a.waitNs < b.waitNs; });
    view->selectEvent(waiter->event);
}

}  // namespace tpscope::ui
