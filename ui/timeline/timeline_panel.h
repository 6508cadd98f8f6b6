// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The Timeline tab (a ViewTab): a small tool row (title, legend), the timeline view with its
// vertical scroll bar (always reserved, so that views stacked on one shared axis line up), and the
// selection's details, which go to the window's details pane through detailsChanged. It shows the
// document's current run, opened on one whole decode step of its analysis; without a trace it says
// why (pending, running with its progress, failed, loading a file).

#include <QWidget>

#include <memory>
#include <optional>

#include "core/analysis/analysis.h"

#include "ui/document/run_id.h"
#include "ui/document/run_request.h"
#include "ui/timeline/timeline_view.h"
#include "ui/view_tab.h"

class QLabel;
class QScrollBar;
class QStackedWidget;

namespace tpscope::ui {

class RunDocument;

class TimelinePanel : public QWidget, public ViewTab {
    Q_OBJECT

  public:
    explicit TimelinePanel(QWidget* parent = nullptr);
    TimelineView* view() const { return m_view; }
    void setDocument(const RunDocument* document) { m_document = document; }

    // ViewTab
    QString tabTitle() const override;
    void fitView() override;
    void zoomIn() override;
    void zoomOut() override;
    void setCurrentRun(RunId id) override;
    QStringList exportFormats() const override;
    // The visible range and rows as PNG (at request.dpr), SVG or PDF, painted by the view's renderer.
    core::Status exportTo(const ExportRequest& request) const override;
    void zoomToSelection() override;
    void setAllRanksCollapsed(bool collapsed) override;

    // Shows a trace directly (no document: tests, a compare view).
    void setTrace(std::shared_ptr<const core::Trace> trace, std::shared_ptr<const TimelineData> timeline,
                  const QString& title);
    // Shown instead of the timeline when there is no trace (why a run has none, what to do).
    void showMessage(const QString& html);
    void showLoading(const QString& path);
    // A file's first run while it is still being analysed (DocumentLoader::preview): its trace and
    // timeline rows, on rank 0's second NVTX step. setCurrentRun of the same trace later completes it
    // and keeps the range unless the user moved it. Before that, a workspace's stored opening excerpt
    // (TimelineData::excerpt()) may come as a preview: shown on its window, titled as an excerpt whose
    // events are loading, with zoom, pan, selection and export off until the trace replaces it.
    void showPreview(const RunRecord& run);
    bool showsExcerpt() const { return m_excerptShown; }
    bool showsTimeline() const;
    QString messageHtml() const;
    QString detailsHtml() const { return m_detailsHtml; }
    void focusView();
    // A pane among others (Compare): no legend of its own (the view shows one for all panes); the
    // title stays one line.
    void setCompact(bool compact);
    // Selects the collective of the largest arrival skew in the second step and zooms to two layers
    // around it (the screenshots), or with WholeStep leaves the range as the run opened (its whole
    // step: the window at start-up).
    enum class ExampleZoom { TwoLayers, WholeStep };
    void focusOnExample(ExampleZoom zoom = ExampleZoom::TwoLayers);
    // The step a run opens on: the analysis' second step (warm), else its first; nullopt without steps.
    static std::optional<core::analysis::TimeSpan> shownStepOf(const core::analysis::RunAnalysis& analysis);

  Q_SIGNALS:
    void detailsChanged(const QString& html);

  private:
    void refreshDetails();
    void setExcerptShown(bool shown);

    const RunDocument* m_document = nullptr;
    RunId m_run = RunId::None;
    const core::Trace* m_shownTrace = nullptr;
    std::pair<std::int64_t, std::int64_t> m_previewRange{0, 0};  // where showPreview opened
    TimelineView* m_view = nullptr;
    QScrollBar* m_scroll = nullptr;
    QStackedWidget* m_stack = nullptr;
    QLabel* m_title = nullptr;
    QWidget* m_legend = nullptr;
    QLabel* m_empty = nullptr;
    QString m_detailsHtml;
    bool m_excerptShown = false;
    Qt::FocusPolicy m_viewFocusPolicy = Qt::StrongFocus;
};

}  // namespace tpscope::ui
