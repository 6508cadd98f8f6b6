// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Feeds the chart pages from core. Holds the analysed runs of the document and, when they, the
// price per GPU-hour or the latency target change, asks core for the scaling report
// (analyzeScaling), the cost candidates and the cheapest one meeting the target (cheapestMeeting),
// then hands those structs to the pages. It computes no number itself; it never re-analyses a
// trace (each run arrives with its RunAnalysis). Cost: O(runs log runs) per change.

#include <QObject>
#include <QString>

#include <memory>
#include <optional>
#include <vector>

#include "core/analysis/analysis.h"
#include "core/analysis/scaling.h"
#include "core/calc/cost.h"
#include "ui/run_id.h"

namespace tpscope::ui {

class CostPage;
class LayersPage;
class ScalingPage;

// One finished run as the charts see it.
struct ChartRun {
    RunId id = RunId::None;
    QString label;
    int gpus = 0;
    int batch = 0;  // 0: the analysis's (trace metadata)
    std::shared_ptr<const core::Trace> trace;
    std::shared_ptr<const core::analysis::RunAnalysis> analysis;
};

class ChartsController : public QObject {
    Q_OBJECT

  public:
    ChartsController(LayersPage* layers, ScalingPage* scaling, CostPage* cost, QObject* parent = nullptr);

    void setRuns(std::vector<ChartRun> runs);
    const std::vector<ChartRun>& runs() const { return m_runs; }
    void setCurrentRun(RunId id);
    RunId currentRun() const { return m_current; }
    void setPricePerGpuHour(double price);
    double pricePerGpuHour() const { return m_price; }
    void setLatencyTargetMs(double ms);

    // What the pages were last given (for the report and the tests).
    const core::Result<core::analysis::ScalingReport>& scaling() const { return m_scaling; }
    const std::vector<core::CostCandidate>& candidates() const { return m_candidates; }
    std::optional<std::size_t> cheapest() const { return m_cheapest; }
    const ChartRun* currentChartRun() const;

  private:
    void refreshScaling();
    void refreshLayers();

    LayersPage* m_layers;
    ScalingPage* m_scalingPage;
    CostPage* m_cost;
    std::vector<ChartRun> m_runs;
    RunId m_current = RunId::None;
    double m_price = 0;
    double m_targetMs = 0;
    core::Result<core::analysis::ScalingReport> m_scaling{core::analysis::ScalingReport{}};
    std::vector<core::CostCandidate> m_candidates;
    std::optional<std::size_t> m_cheapest;
};

}  // namespace tpscope::ui
