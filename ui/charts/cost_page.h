// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The Cost tab: $ per million tokens (bars) and throughput (line, second axis) against GPUs for one
// batch size, the premium over the batch's smallest configuration above each bar, and the cheapest
// configuration that meets the latency target highlighted. The price per GPU-hour and the latency
// target are edited here; the page only emits the edits: the numbers come back from core
// (analyzeScaling at the new price, costCandidates, cheapestMeeting) through setCost.

#include <optional>
#include <vector>

#include "core/analysis/scaling.h"
#include "core/calc/cost.h"
#include "ui/charts/chart_page.h"

class QComboBox;
class QCPBars;
class QCPGraph;
class QDoubleSpinBox;
class QLabel;

namespace tpscope::ui {

class CostPage : public ChartPage {
    Q_OBJECT

  public:
    explicit CostPage(QWidget* parent = nullptr);

    // report: at the current price; candidates = costCandidates(report); highlight =
    // cheapestMeeting(candidates, target).
    void setCost(const core::analysis::ScalingReport& report, std::vector<core::CostCandidate> candidates,
                 std::optional<std::size_t> highlight);
    void clearCost(const QString& why);
    void setPricePerGpuHour(double price);  // shows it; emits pricePerGpuHourEdited when it changed
    double pricePerGpuHour() const;
    void setLatencyTargetMs(double ms);
    double latencyTargetMs() const;
    void setShownBatch(int batch);
    int shownBatch() const;

    QCPBars* costBars() const { return m_cost; }
    QCPBars* highlightBars() const { return m_highlight; }
    QCPGraph* throughputGraph() const { return m_throughput; }
    // The GPU counts at category positions 1..n of the shown batch.
    const std::vector<int>& shownGpus() const { return m_gpus; }
    QStringList premiumLabels() const;  // the texts above the bars, left to right
    std::optional<core::CostCandidate> highlighted() const;
    QString highlightText() const;

  Q_SIGNALS:
    void pricePerGpuHourEdited(double price);
    void latencyTargetEdited(double ms);

  private:
    void rebuild();
    void restyle() override;
    void fitRanges() override;

    QString m_why;  // why there is no cost (clearCost), empty while one is shown
    core::analysis::ScalingReport m_report;
    std::vector<core::CostCandidate> m_candidates;
    std::optional<std::size_t> m_highlightIndex;
    std::vector<int> m_gpus;
    QCPBars* m_cost = nullptr;
    QCPBars* m_highlight = nullptr;
    QCPGraph* m_throughput = nullptr;
    QDoubleSpinBox* m_price = nullptr;
    QDoubleSpinBox* m_target = nullptr;
    QComboBox* m_batch = nullptr;
    QLabel* m_caption = nullptr;
};

}  // namespace tpscope::ui
