// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The Layers tab: per layer index, stacked bars of the analysis partition of its wall time (compute,
// overlapped comm, exposed transfer, sync wait, idle; they sum to the wall), for one rank, the mean
// over ranks or the slowest rank of each instance, averaged over steps. Hover shows a layer's numbers;
// a click asks the timeline to show that layer (layerActivated). The same numbers sit in a sortable
// table below. Every number comes from core::analysis (layerTable / layerTableSlowestRank).

#include <memory>
#include <vector>

#include "core/analysis/analysis.h"
#include "ui/charts/breakdown_palette.h"
#include "ui/charts/chart_page.h"

class QComboBox;
class QCPBars;
class QLabel;
class QMouseEvent;

namespace tpscope::ui {

class LayersPage : public ChartPage {
    Q_OBJECT

  public:
    static constexpr int kMeanOfRanks = -1;
    static constexpr int kSlowestRank = -2;
    static constexpr BreakdownPart kParts[] = {BreakdownPart::Compute, BreakdownPart::OverlappedComm,
                                               BreakdownPart::ExposedTransfer, BreakdownPart::ExposedWait,
                                               BreakdownPart::Idle};

    explicit LayersPage(QWidget* parent = nullptr);

    // The run to show (null: nothing, with `why` in place of the chart).
    void setRun(std::shared_ptr<const core::analysis::RunAnalysis> analysis, const QString& runLabel,
                RunId id = RunId::None);
    void clearRun(const QString& why);
    // kMeanOfRanks, kSlowestRank or a rank index.
    void setRankChoice(int choice);
    int rankChoice() const;

    const std::vector<core::analysis::LayerIndexSummary>& shownLayers() const { return m_layers; }
    QCPBars* bars(BreakdownPart part) const;
    // The tooltip text of a layer index (what hovering its bar shows); empty when not shown.
    QString layerDetails(int layer) const;
    // Emits layerActivated for a layer index, as a click on its bar does.
    void activateLayer(int layer);

  Q_SIGNALS:
    void layerActivated(int layer, qint64 startNs, qint64 endNs);

  private:
    void rebuild();
    void fillTable();
    void restyle() override;
    int layerAtPixel(double x) const;
    void onMouseMove(QMouseEvent* event);
    void onMousePress(QMouseEvent* event);

    std::shared_ptr<const core::analysis::RunAnalysis> m_analysis;
    std::vector<core::analysis::LayerIndexSummary> m_layers;
    std::vector<QCPBars*> m_bars;  // in kParts order, bottom to top
    QComboBox* m_rank = nullptr;
    QLabel* m_caption = nullptr;
};

}  // namespace tpscope::ui
