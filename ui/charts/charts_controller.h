// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Feeds the chart pages from core. Holds the scaling input of one group of runs (ui/document/scaling_input.h)
// and, when it, the price per GPU-hour or the latency target change, asks core for the scaling
// report (analyzeScaling), the cost candidates and the cheapest one meeting the target
// (cheapestMeeting), then hands those structs to the pages with core's notes beside them. It
// computes no number itself; it never re-analyses a trace (each run arrives with its RunAnalysis).
// It is the one owner of the price per GPU-hour: the run panel's and the Cost tab's price fields,
// the Advice tab, Compare, the report and the headless modes all read and write it here; a price of
// $0 means "no price" everywhere (no cost columns, "—"). Cost: O(runs log runs) per change.

#include <QObject>
#include <QString>

#include <memory>
#include <optional>
#include <vector>

#include "core/analysis/analysis.h"
#include "core/analysis/scaling.h"
#include "core/calc/cost.h"
#include "ui/document/run_id.h"
#include "ui/document/scaling_input.h"

namespace tpscope::ui {

class CostPage;
class LayersPage;
class ScalingPage;

class ChartsController : public QObject {
    Q_OBJECT

  public:
    ChartsController(LayersPage* layers, ScalingPage* scaling, CostPage* cost, QObject* parent = nullptr);

    // Shorthand for setInput(scalingInputOf(runs)).
    void setRuns(std::vector<ChartRun> runs);
    void setInput(ScalingInput input);
    const ScalingInput& input() const { return m_input; }
    const std::vector<ChartRun>& runs() const { return m_input.runs; }
    void setCurrentRun(RunId id);
    RunId currentRun() const { return m_current; }
    void setPricePerGpuHour(double price);
    double pricePerGpuHour() const { return m_price; }
    void setLatencyTargetMs(double ms);
    double latencyTargetMs() const { return m_targetMs; }

    // What the pages were last given (for the report and the tests).
    const core::Result<core::analysis::ScalingReport>& scaling() const { return m_scaling; }
    const std::vector<core::CostCandidate>& candidates() const { return m_candidates; }
    std::optional<std::size_t> cheapest() const { return m_cheapest; }
    const ChartRun* currentChartRun() const;

  Q_SIGNALS:
    void pricePerGpuHourChanged(double price);
    // The scaling report was recomputed (new runs, price or target); the advice follows it.
    void scalingChanged();

  private:
    void refreshScaling();
    void refreshLayers();

    LayersPage* m_layers;
    ScalingPage* m_scalingPage;
    CostPage* m_cost;
    ScalingInput m_input;
    RunId m_current = RunId::None;
    double m_price = 0;
    double m_targetMs = 0;
    core::Result<core::analysis::ScalingReport> m_scaling{core::analysis::ScalingReport{}};
    std::vector<core::CostCandidate> m_candidates;
    std::optional<std::size_t> m_cheapest;
};

}  // namespace tpscope::ui
