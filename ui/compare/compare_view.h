// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The Compare tab (DESIGN.md §8): 2–4 runs side by side. Their timelines stack, one pane per run, on
// one shared TimeAxis, so a zoom or pan in any pane moves all of them; "Align on layer k" anchors each
// pane's axis at its own run's layer k (the first step where it appears, from its analysis), so every
// pane is centred on that layer at any zoom. Below: the per-layer delta table and the summary
// (core::analysis::compareRuns: the numbers `tpscope-cli compare --json` prints, deltas against
// the first run) and, for a measured run against a model of it, the per-layer residual chart.
// Export: the stacked timelines as PNG/SVG/PDF and the table on screen as CSV; with the Residual tab
// showing, its chart and table.

#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

#include "core/analysis/analysis.h"
#include "core/analysis/compare.h"
#include "ui/document/run_id.h"
#include "ui/timeline/timeline_data.h"
#include "ui/view_tab.h"

class QComboBox;
class QLabel;
class QSpinBox;
class QSplitter;
class QStackedWidget;
class QStandardItemModel;
class QTabWidget;
class QTableView;

namespace tpscope::ui {

class ResidualPage;
class TimeAxis;
class TimelinePanel;
class TimelineView;
struct StackedPane;

// One run as Compare shows it.
struct CompareRun {
    RunId id = RunId::None;
    QString label;
    std::shared_ptr<const core::Trace> trace;
    std::shared_ptr<const TimelineData> timeline;
    std::shared_ptr<const core::analysis::RunAnalysis> analysis;
};

// Indices into the compared runs: the measured run and the model of it.
struct ResidualPair {
    std::size_t measured = 0;
    std::size_t model = 1;
};

// Measured (captured here or imported) and model (simulated, predicted) origins: the one
// classification Compare's residual, its run titles and the headless report use.
bool isMeasuredOrigin(core::TraceOrigin origin);
bool isModelOrigin(core::TraceOrigin origin);

// The residual pair of compared runs by their traces' origins: two runs, one measured (captured or
// imported) and one model of it (simulated or predicted); none otherwise.
std::optional<ResidualPair> residualPairFor(const std::vector<core::TraceOrigin>& origins);

class CompareView : public QWidget, public ViewTab {
    Q_OBJECT

  public:
    static constexpr std::size_t kMinRuns = 2;
    static constexpr std::size_t kMaxRuns = 4;

    explicit CompareView(QWidget* parent = nullptr);
    ~CompareView() override;

    // Shows 2–4 runs, each with a trace and its analysis; the first is the baseline of every delta
    // until the user picks another (setBaseline). An error (and the view unchanged) otherwise. Aligns
    // on the first layer every run has. Each pane opens with every rank folded to its summary lane
    // (foldEveryTrace; a click on a GPU's header expands it); the panes scroll together.
    core::Status setRuns(std::vector<CompareRun> runs, std::optional<ResidualPair> residual = std::nullopt);
    void clear(const QString& why);
    bool hasRuns() const { return !m_runs.empty(); }
    const std::vector<CompareRun>& runs() const { return m_runs; }
    bool showsRun(RunId id) const;
    const core::analysis::RunComparison& comparison() const { return m_comparison; }
    bool hasResidual() const { return m_residual.has_value(); }

    TimeAxis* timeAxis() const { return m_axis; }
    int paneCount() const { return static_cast<int>(m_panes.size()); }
    TimelineView* paneView(int index) const;
    // Centres every pane on its own run's layer `layer`; false (panes unchanged) when no run has it.
    bool alignOnLayer(int layer);
    // Makes the run at `index` (of runs()) the baseline of every delta: it moves to the top, the
    // others keep their order. False when there is no such run.
    bool setBaseline(std::size_t index);
    RunId baselineRun() const { return m_runs.empty() ? RunId::None : m_runs.front().id; }
    int alignedLayer() const { return m_alignedLayer; }  // -1: not aligned

    QStandardItemModel* layerTable() const { return m_layerTable; }
    QStandardItemModel* summaryTable() const { return m_summaryTable; }
    ResidualPage* residualPage() const { return m_residualPage; }
    QTabWidget* tablesTabs() const { return m_tables; }
    QString messageText() const;

    // ViewTab
    QString tabTitle() const override;
    void fitView() override;  // every run whole, each from its start (alignment off)
    void zoomIn() override;
    void zoomOut() override;
    void setCurrentRun(RunId) override {}  // shows the runs it was given, whatever is current
    QStringList exportFormats() const override;
    core::Status exportTo(const ExportRequest& request) const override;
    // The panes' renderers with their titles, as on screen (export, report).
    std::vector<StackedPane> stackedPanes() const;

  Q_SIGNALS:
    void detailsChanged(const QString& html);

  private:
    void rebuildPanes();
    void syncVerticalOffset(const TimelineView* from, int offset);
    QTableView* addTableTab(QStandardItemModel* model, const QString& title);
    const QStandardItemModel* currentTable() const;

    std::vector<CompareRun> m_runs;
    std::optional<ResidualPair> m_residual;
    core::analysis::RunComparison m_comparison;
    int m_alignedLayer = -1;

    TimeAxis* m_axis = nullptr;
    QStackedWidget* m_stack = nullptr;
    QLabel* m_message = nullptr;
    QLabel* m_title = nullptr;
    QSpinBox* m_layer = nullptr;
    QComboBox* m_baseline = nullptr;
    bool m_syncingScroll = false;
    QSplitter* m_panesSplit = nullptr;
    std::vector<TimelinePanel*> m_panes;
    QTabWidget* m_tables = nullptr;
    QStandardItemModel* m_layerTable = nullptr;
    QStandardItemModel* m_summaryTable = nullptr;
    ResidualPage* m_residualPage = nullptr;
};

}  // namespace tpscope::ui
