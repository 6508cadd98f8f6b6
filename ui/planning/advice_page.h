// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The Advice tab (issue 13 §1.4): core::analysis::adviseTp's items for the current run's sweep, one
// row each, with the measured numbers behind it (speed-up, efficiency, change in $/Mtok, the largest
// loss of the higher TP and its share) beside the sentence core wrote. An efficiency threshold edits
// live. Each cell keeps its raw number in Qt::UserRole. Export: CSV.

#include <QWidget>

#include "ui/planning/sweep_advice.h"
#include "ui/view_tab.h"

class QDoubleSpinBox;
class QLabel;
class QStandardItemModel;
class QTableView;

namespace tpscope::ui {

class AdvicePage : public QWidget, public ViewTab {
    Q_OBJECT

  public:
    enum Column { Kind, Batch, FromGpus, ToGpus, Speedup, Efficiency, CostChange, LargestLoss, LossShare, Text };

    explicit AdvicePage(QWidget* parent = nullptr);

    void setAdvice(const core::Result<SweepAdvice>& advice);
    double efficiencyThreshold() const;
    void setEfficiencyThreshold(double threshold);  // clamped to the field's range
    QStandardItemModel* table() const { return m_table; }
    QString summaryText() const;

    QString tabTitle() const override { return tr("Advice"); }
    void fitView() override {}
    void zoomIn() override {}
    void zoomOut() override {}
    void setCurrentRun(RunId) override {}
    QStringList exportFormats() const override { return {QStringLiteral("csv")}; }
    core::Status exportTo(const ExportRequest& request) const override;

  Q_SIGNALS:
    void efficiencyThresholdChanged(double threshold);

  private:
    QDoubleSpinBox* m_threshold = nullptr;
    QLabel* m_summary = nullptr;
    QStandardItemModel* m_table = nullptr;
    QTableView* m_view = nullptr;
};

}  // namespace tpscope::ui
