// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The Scaling tab: speed-up against GPUs, one line per batch size, with the ideal line and the
// fitted Amdahl curve (its serial fraction in the legend); efficiency on a second axis, only where
// a smaller TP of the same batch ran; below, the loss breakdown (transfer, sync wait, imbalance,
// idle, as shares of step time) as stacked bars per GPU count for one batch. Fed a
// core::analysis::ScalingReport; every plotted number is a field of it or core's fittedSpeedup.

#include <QMap>

#include <vector>

#include "core/analysis/scaling.h"
#include "ui/charts/breakdown_palette.h"
#include "ui/charts/chart_page.h"

class QComboBox;
class QCPAxisRect;
class QCPBars;
class QCPGraph;
class QCPLegend;
class QLabel;

namespace tpscope::ui {

class ScalingPage : public ChartPage {
    Q_OBJECT

  public:
    static constexpr BreakdownPart kLossParts[] = {BreakdownPart::ExposedTransfer, BreakdownPart::SyncWait,
                                                   BreakdownPart::Imbalance, BreakdownPart::Idle};
    static constexpr int kCurvePoints = 48;

    explicit ScalingPage(QWidget* parent = nullptr);

    void setReport(const core::analysis::ScalingReport& report);
    void clearReport(const QString& why);
    const core::analysis::ScalingReport& report() const { return m_report; }
    // The batch whose loss breakdown the lower chart shows.
    void setLossBatch(int batch);
    int lossBatch() const;

    QCPGraph* speedupGraph(int batch) const { return m_speedup.value(batch); }
    QCPGraph* efficiencyGraph(int batch) const { return m_efficiency.value(batch); }
    QCPGraph* amdahlGraph(int batch) const { return m_amdahl.value(batch); }
    // The ideal line of the first batch's baseline; idealGraphs: one per distinct baseline (a batch
    // whose smallest run is TP 2 has its own ideal, N / 2).
    QCPGraph* idealGraph() const { return m_ideals.empty() ? nullptr : m_ideals.front(); }
    const std::vector<QCPGraph*>& idealGraphs() const { return m_ideals; }
    QCPBars* lossBars(BreakdownPart part) const;
    // The loss bars' legend, in the row under their axes.
    QCPLegend* lossLegend() const { return m_lossLegend; }
    QCPAxisRect* lossRect() const { return m_lossRect; }
    // The GPU counts at the lower chart's category positions 1..n.
    const std::vector<int>& lossGpus() const { return m_lossGpus; }

  private:
    void clearSeries();
    void rebuildLoss();
    void restyle() override;
    void fitRanges() override;

    core::analysis::ScalingReport m_report;
    QCPAxisRect* m_lossRect = nullptr;
    QCPLegend* m_lossLegend = nullptr;
    std::vector<QCPGraph*> m_ideals;
    QMap<int, QCPGraph*> m_speedup;
    QMap<int, QCPGraph*> m_efficiency;
    QMap<int, QCPGraph*> m_amdahl;
    std::vector<QCPBars*> m_loss;  // kLossParts order, bottom to top
    std::vector<int> m_lossGpus;
    QComboBox* m_batch = nullptr;
    QLabel* m_caption = nullptr;
};

}  // namespace tpscope::ui
