// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Measured against the model of the same configuration: per layer index, the residual measured -
// model of the wall time (bars) and of each part of the partition (compute, exposed transfer, sync
// wait, idle: lines), with the same numbers in a table below. Fed core's comparison and its
// layerDeltas(measured, model); it computes nothing. Positive: the measured run spends more time
// there than the model predicts.

#include <vector>

#include "core/analysis/compare.h"
#include "ui/charts/breakdown_palette.h"
#include "ui/charts/chart_page.h"

class QCPBars;
class QCPGraph;
class QLabel;

namespace tpscope::ui {

class ResidualPage : public ChartPage {
    Q_OBJECT

  public:
    static constexpr BreakdownPart kParts[] = {BreakdownPart::Compute, BreakdownPart::ExposedTransfer,
                                               BreakdownPart::ExposedWait, BreakdownPart::Idle};

    explicit ResidualPage(QWidget* parent = nullptr);

    // `measured` and `model` index comparison.runs.
    void setResidual(const core::analysis::RunComparison& comparison, std::size_t measured, std::size_t model);
    void clearResidual();

    const std::vector<core::analysis::LayerDelta>& residual() const { return m_residual; }
    QCPBars* wallBars() const { return m_wall; }
    QCPGraph* partGraph(BreakdownPart part) const;
    QString caption() const;

  private:
    void restyle() override;
    void fitRanges() override;

    std::vector<core::analysis::LayerDelta> m_residual;
    QCPBars* m_wall = nullptr;
    std::vector<QCPGraph*> m_parts;  // in kParts order
    QLabel* m_caption = nullptr;
};

}  // namespace tpscope::ui
