// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The Calculator tab (DESIGN.md §8, issue 13 §1.3): for one plan (model, GPU, TP, batch, context,
// dtype; prefilled from the current run and editable, updated on every edit) it shows
//  - the plan: all-reduce message and ring wire bytes per call and per step, calls per step,
//    arithmetic intensity against the GPU's roofline crossover, the HBM floor;
//  - per catalog fabric: the bandwidth-only and alpha-beta floors per call and per step (chart and
//    table), or why the fabric cannot carry the plan;
//  - Amdahl: speed-up and efficiency at N GPUs for a serial fraction S.
// Every number is computeCalculator's (core); the page formats. Each cell keeps its raw number in
// Qt::UserRole in the unit of the matching `tpscope-cli plan/bounds/amdahl --json` field, and each
// plan row / fabric column names that field in kFieldRole, so a test can hold the two side by side.
// Export: PNG/SVG/PDF the chart; CSV the fabric table, with the plan and Amdahl tables written beside
// it as NAME-plan.csv and NAME-amdahl.csv.

#include <vector>

#include "core/hw/catalog.h"
#include "ui/charts/chart_page.h"
#include "ui/document/run_request.h"
#include "ui/planning/calculator_numbers.h"

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QStandardItemModel;

namespace tpscope::ui {

class CalculatorPage : public ChartPage {
    Q_OBJECT

  public:
    static constexpr int kFieldRole = Qt::UserRole + 1;

    explicit CalculatorPage(core::Catalog catalog, QWidget* parent = nullptr);

    // Prefills the inputs from a run's request (a run without a model, e.g. an imported trace
    // without metadata, leaves them as they are).
    void setRun(const RunRequest& request);
    // Sets the inputs; the numbers follow at once.
    void setPlan(const std::string& modelId, const std::string& gpuId, int tp, int batch, int context,
                 core::Dtype dtype);
    void setAmdahl(double serialFraction, const QString& gpuCounts);
    // How a MoE model's experts are placed across the TP group (plan --moe-parallel tp|ep); the
    // control is disabled for a dense model, whose plan ignores it.
    void setExpertPlacement(core::MoeParallel mode);
    // The MoE routing skew (plan --routing-skew; 0 = uniform), disabled for a dense model.
    void setRoutingSkew(double skew);
    // S from elsewhere (the current sweep's Amdahl fit), rounded to the field's 4 decimals; `source`
    // says where it came from until the user edits it.
    void setSerialFraction(double serialFraction, const QString& source);
    QString serialSource() const;

    QStandardItemModel* planTable() const { return m_planTable; }
    QStandardItemModel* fabricTable() const { return tableModel(); }
    QStandardItemModel* amdahlTable() const { return m_amdahlTable; }
    QString problem() const;  // why the numbers are missing, or empty
    // The inputs the numbers were computed from (the test hands them to the CLI).
    const CalculatorInputs& inputs() const { return m_inputs; }
    const std::vector<core::ModelSpec>& models() const { return m_models; }

    core::Status exportTo(const ExportRequest& request) const override;
    // A CSV export writes the plan and Amdahl tables beside it: NAME-plan.csv and NAME-amdahl.csv.
    QStringList exportCompanions(const QString& path) const override;

  private:
    void restyle() override;
    QWidget* buildInputs();
    QWidget* buildSideTables();
    void recompute();
    void fillPlan(const CalculatorNumbers& numbers);
    void fillFabrics(const CalculatorNumbers& numbers);
    void fillAmdahl(const CalculatorNumbers& numbers);
    void plotFabrics(const CalculatorNumbers& numbers);
    void clearNumbers(const QString& why);
    void fitRanges() override;  // a log time axis: from half the smallest floor to twice the largest

    core::Catalog m_catalog;
    std::vector<core::ModelSpec> m_models;  // the catalog's, plus a run's custom model
    CalculatorInputs m_inputs;
    QComboBox* m_model = nullptr;
    QComboBox* m_gpu = nullptr;
    QSpinBox* m_tp = nullptr;
    QSpinBox* m_batch = nullptr;
    QSpinBox* m_context = nullptr;
    QComboBox* m_dtype = nullptr;
    QComboBox* m_experts = nullptr;
    QDoubleSpinBox* m_skew = nullptr;
    QDoubleSpinBox* m_serial = nullptr;
    QLineEdit* m_gpuCounts = nullptr;
    QLabel* m_problem = nullptr;
    QLabel* m_amdahlLimit = nullptr;
    QLabel* m_serialSource = nullptr;
    QStandardItemModel* m_planTable = nullptr;
    QStandardItemModel* m_amdahlTable = nullptr;
    bool m_updating = false;  // inputs set in bulk: one recompute at the end
};

}  // namespace tpscope::ui
