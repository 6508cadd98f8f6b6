// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The run panel: what to run (model preset or custom dimensions, dtype, a MoE model's expert placement
// and routing skew, TP degrees, batch sizes, tokens, context), where (a simulated cluster of a GPU preset and fabric,
// nodes × GPUs, or the local GPUs when this build has a GPU backend), options (overlap, the host runtime profile, the
// all-reduce engine), the price per GPU-hour, and Run / Cancel with the overall progress. Invalid input is named under
// the form and disables Run. Above the form a box says which run the views show, so the form (the next sweep) is not
// taken to describe an opened trace.

#include <QWidget>

#include "core/hw/catalog.h"
#include "core/sim/defaults.h"
#include "core/util/result.h"
#include "ui/document/run_request.h"
#include "ui/jobs/services.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QRadioButton;
class QSettings;
class QSpinBox;

namespace tpscope::ui {

class RunPanel : public QWidget {
    Q_OBJECT

  public:
    RunPanel(core::Catalog catalog, LocalBackendInfo local, QWidget* parent = nullptr);

    core::Result<SweepRequest> sweepRequest() const;
    double pricePerGpuHour() const;
    // Shows the price the window's price owner holds (ChartsController); emits pricePerGpuHourChanged
    // only when it changed.
    void setPricePerGpuHour(double price);

    // The embedded default (core::sim::defaultSweepSpec): llama3-70b fp16 on one 8× H100 SXM NVLink
    // node, TP 1/2/4/8, batch 1.
    void setDefaults();
    void setBusy(bool busy);
    void setOverallProgress(const SweepCounts& counts, double currentFraction);
    QString progressText() const;
    // The "Shown run" box at the top: which run the views show (run_description.h), or nullptr.
    void showRun(const RunRecord* run);
    QString shownRunHtml() const;
    int progressPerMille() const;
    void saveSettings(QSettings& settings) const;
    void restoreSettings(const QSettings& settings);

    static constexpr int kTpChoices[] = {1, 2, 4, 8, 16, 32};
    static constexpr int kMaxTokens = 100'000;  // the simulator's event cap says more where it binds
    static constexpr double kDefaultPricePerGpuHour = core::sim::kDefaults.pricePerGpuHour;

  Q_SIGNALS:
    void runRequested();
    void cancelRequested();
    void pricePerGpuHourChanged(double price);  // the Cost tab follows it live

  protected:
    void changeEvent(QEvent* event) override;  // a new palette: the colours picked for the old one go

  private:
    void applyPaletteColors();
    QWidget* buildWorkload();
    QWidget* buildBackend(const LocalBackendInfo& local);
    void validate();
    void updateCustomVisibility();

    core::Catalog m_catalog;
    QLabel* m_shownRun = nullptr;
    QComboBox* m_model = nullptr;
    QGroupBox* m_custom = nullptr;
    QSpinBox* m_hidden = nullptr;
    QSpinBox* m_ffn = nullptr;
    QSpinBox* m_heads = nullptr;
    QSpinBox* m_kvHeads = nullptr;
    QSpinBox* m_layers = nullptr;
    QSpinBox* m_vocab = nullptr;
    QComboBox* m_dtype = nullptr;
    QComboBox* m_experts = nullptr;    // PlanConfig::moeParallel, MoE models only
    QDoubleSpinBox* m_skew = nullptr;  // MoeDims::routingSkew, MoE models only
    std::vector<QCheckBox*> m_tp;
    QLineEdit* m_batches = nullptr;
    QSpinBox* m_tokens = nullptr;
    QSpinBox* m_context = nullptr;
    QRadioButton* m_simulated = nullptr;
    QRadioButton* m_local = nullptr;
    QComboBox* m_gpu = nullptr;
    QComboBox* m_fabric = nullptr;
    QComboBox* m_interFabric = nullptr;
    QSpinBox* m_nodes = nullptr;
    QSpinBox* m_gpusPerNode = nullptr;
    QCheckBox* m_overlap = nullptr;
    QComboBox* m_runtime = nullptr;  // SimParams::runtime
    QComboBox* m_engine = nullptr;   // SimParams::allReduceEngine
    QDoubleSpinBox* m_price = nullptr;
    QLabel* m_problem = nullptr;
    QLabel* m_fitHint = nullptr;
    QPushButton* m_run = nullptr;
    QPushButton* m_cancel = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_progressText = nullptr;
    bool m_busy = false;
};

}  // namespace tpscope::ui
