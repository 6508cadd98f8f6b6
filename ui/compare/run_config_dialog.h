// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The small dialog behind "Simulate this configuration" and "What if on…": model, GPU, fabric, TP,
// batch, context and decode steps, prefilled from what the run's trace says (metadata model, gpu,
// fabric, tp, batch, context; the device name matched against the catalog's GPUs), else defaults.
// A trace that does not name its model gets the model core::analysis::inferModel finds from its GEMM
// shapes (a catalog model, or a custom one shown as a read-only summary of its dimensions), and the
// dialog says which it inferred and from what.
// What if on… uses the fabric and TP; model, GPU, batch and context only scale the kernels of a TP
// change (core::sim::tpKernelScaling).

#include <QDialog>

#include <optional>
#include <string>

#include "core/hw/catalog.h"

class QComboBox;
class QLabel;
class QSpinBox;

namespace tpscope::ui {

struct RunRecord;

struct RunConfigChoice {
    std::string modelId;
    std::string gpuId;
    std::string fabricId;
    int tp = 1;
    int batch = 1;
    int contextLen = 1024;
    int tokens = 4;  // decode steps to simulate
    // A model inferred from the trace that no catalog entry matches (modelId is then its id).
    std::optional<core::ModelSpec> customModel;
    bool modelInferred = false;  // prefill only: modelId (or customModel) was inferred from the trace
    std::string modelEvidence;   // prefill only: which model was inferred from the trace and from what, or why none
};

// The model a choice names: its custom model, else the catalog's.
core::Result<core::ModelSpec> chosenModel(const RunConfigChoice& choice, const core::Catalog& catalog);

// What the run's trace says about its configuration, with the catalog's ids; `note` says what was
// not in the trace or not in the catalog (shown in the dialog).
RunConfigChoice prefillFromRun(const RunRecord& run, const core::Catalog& catalog, QString* note = nullptr);

class RunConfigDialog : public QDialog {
    Q_OBJECT

  public:
    enum class Mode { Simulate, WhatIf };
    RunConfigDialog(const core::Catalog& catalog, Mode mode, const RunConfigChoice& prefill, const QString& runName,
                    const QString& note, QWidget* parent = nullptr);
    RunConfigChoice choice() const;

  private:
    QComboBox* m_model = nullptr;
    QComboBox* m_gpu = nullptr;
    QComboBox* m_fabric = nullptr;
    QSpinBox* m_tp = nullptr;
    QSpinBox* m_batch = nullptr;
    QSpinBox* m_context = nullptr;
    QSpinBox* m_tokens = nullptr;
    std::optional<core::ModelSpec> m_customModel;
};

}  // namespace tpscope::ui
