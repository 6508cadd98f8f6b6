// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/compare/run_config_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

#include "core/analysis/analysis.h"
#include "core/analysis/model_inference.h"
#include "ui/document/run_request.h"

namespace tpscope::ui {

namespace {

// The catalog GPU a device name such as "NVIDIA H100 80GB HBM3" is: the one whose family ("H100",
// the name's second word) the device name contains, the PCIe or 40 GB variant when it says so.
std::string gpuOfDevice(const std::string& device, const core::Catalog& catalog) {
    const QString d = QString::fromStdString(device);
    std::string best;
    int bestScore = 0;
    for (const auto& g : catalog.gpus()) {
        const QStringList words = QString::fromStdString(g.name).split(QLatin1Char(' '), Qt::SkipEmptyParts);
        if (words.size() < 2 || !d.contains(words[1], Qt::CaseInsensitive)) continue;
        int score = 1;
        for (const QString& variant : {QStringLiteral("PCIe"), QStringLiteral("40GB")}) {
            if (d.contains(variant, Qt::CaseInsensitive) == QString::fromStdString(g.name).contains(variant)) ++score;
        }
        if (score > bestScore) {
            bestScore = score;
            best = g.id;
        }
    }
    return best;
}

// A read-only line of a custom model's dimensions (core's numbers, formatted).
QString dimsSummary(const core::ModelSpec& m) {
    QString text = QObject::tr("hidden %1, %2 layers, %3 heads (%4 kv) of %5")
                       .arg(m.hidden)
                       .arg(m.layers)
                       .arg(m.heads)
                       .arg(m.kvHeads)
                       .arg(m.headDim);
    if (m.isMoe()) {
        text +=
            QObject::tr(", %1 experts, top-%2, expert FFN %3").arg(m.moe.experts).arg(m.moe.topK).arg(m.moe.expertFfn);
    } else {
        text += QObject::tr(", FFN %1").arg(m.ffn);
    }
    return text + QObject::tr(", vocabulary %1").arg(m.vocab);
}

QSpinBox* spin(int lo, int hi, int value, QWidget* parent) {
    auto* s = new QSpinBox(parent);
    s->setRange(lo, hi);
    s->setValue(std::clamp(value, lo, hi));
    return s;
}

}  // namespace

RunConfigChoice prefillFromRun(const RunRecord& run, const core::Catalog& catalog, QString* note) {
    RunConfigChoice c;
    QStringList missing;
    const core::Trace* trace = run.trace.get();
    const auto meta = [&](const char* key) { return trace != nullptr ? trace->metadataValue(key) : std::string(); };
    const auto metaInt = [&](const char* key) {
        return trace != nullptr ? core::analysis::metadataInt(*trace, key) : 0;
    };
    c.modelId = !run.request.model.id.empty() ? run.request.model.id : meta("model");
    if (!catalog.model(c.modelId) && trace != nullptr) {
        // The trace does not name a catalog model: infer it from the GEMM shapes.
        const auto inferred =
            core::analysis::inferModel(*trace, catalog.models(), run.analysis ? &run.analysis->segmentation : nullptr);
        c.modelEvidence = inferred.evidence;
        if (inferred.model) {
            c.modelId = inferred.model->id;
            c.modelInferred = true;
            if (!inferred.fromCatalog) c.customModel = inferred.model;
        }
    }
    if (!c.customModel && !catalog.model(c.modelId)) {
        missing << QObject::tr("the model");
        c.modelId = catalog.models().empty() ? std::string() : catalog.models().front().id;
    }
    c.gpuId = !run.request.gpu.id.empty() ? run.request.gpu.id : meta("gpu");
    if (!catalog.gpu(c.gpuId) && trace != nullptr && !trace->ranks.empty())
        c.gpuId = gpuOfDevice(trace->ranks.front().deviceName, catalog);
    if (!catalog.gpu(c.gpuId)) {
        missing << (trace != nullptr && !trace->ranks.empty() && !trace->ranks.front().deviceName.empty()
                        ? QObject::tr("the GPU (%1 is not in the catalog)")
                              .arg(QString::fromStdString(trace->ranks.front().deviceName))
                        : QObject::tr("the GPU"));
        c.gpuId = catalog.gpus().empty() ? std::string() : catalog.gpus().front().id;
    }
    c.fabricId = !run.request.fabric.id.empty() ? run.request.fabric.id : meta("fabric");
    if (!catalog.fabric(c.fabricId)) {
        missing << QObject::tr("the fabric");
        const auto& fabrics = catalog.fabrics();
        const auto intra = std::find_if(fabrics.begin(), fabrics.end(),
                                        [](const auto& f) { return f.scope == core::FabricScope::IntraNode; });
        c.fabricId = intra != fabrics.end() ? intra->id : std::string();
    }
    const int tp = metaInt("tp");
    c.tp = tp > 0 ? tp : (trace != nullptr ? std::max<int>(1, static_cast<int>(trace->ranks.size())) : run.request.tp);
    const int batch = run.request.batch > 0 ? run.request.batch : metaInt("batch");
    if (batch <= 0) missing << QObject::tr("the batch");
    c.batch = std::max(1, batch);
    const int context = metaInt("context");
    c.contextLen = context > 0 ? context : std::max(1, run.request.contextLen);
    if (context <= 0 && run.request.backend == BackendKind::Imported) missing << QObject::tr("the context length");
    // As many decode steps as the trace has (at least 2, so that a warm step exists), at most 16.
    const int steps = run.analysis ? static_cast<int>(run.analysis->summary.steps.size()) : 0;
    c.tokens = std::clamp(steps, 2, 16);
    if (note != nullptr) {
        *note = missing.isEmpty() ? QString()
                                  : QObject::tr("The trace does not say %1: check the fields below.")
                                        .arg(missing.join(QStringLiteral(", ")));
    }
    return c;
}

core::Result<core::ModelSpec> chosenModel(const RunConfigChoice& choice, const core::Catalog& catalog) {
    if (choice.customModel && choice.customModel->id == choice.modelId) return *choice.customModel;
    return catalog.model(choice.modelId);
}

RunConfigDialog::RunConfigDialog(const core::Catalog& catalog, Mode mode, const RunConfigChoice& prefill,
                                 const QString& runName, const QString& note, QWidget* parent)
    : QDialog(parent) {
    const bool whatIf = mode == Mode::WhatIf;
    setWindowTitle(whatIf ? tr("What if on…") : tr("Simulate this configuration"));
    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(
        whatIf ? tr("Replay <b>%1</b> on another fabric (and optionally another TP degree): every measured compute "
                    "kernel keeps its duration, every collective is re-timed with the fabric's model. The result is "
                    "a model prediction, opened in Compare beside the run.")
                     .arg(runName.toHtmlEscaped())
               : tr("Simulate the configuration of <b>%1</b> on the catalog's GPU and fabric; the simulated run opens "
                    "in Compare beside it with the per-layer residual (measured − model).")
                     .arg(runName.toHtmlEscaped()),
        this);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    if (!note.isEmpty()) {
        auto* warn = new QLabel(note.toHtmlEscaped(), this);
        warn->setWordWrap(true);
        layout->addWidget(warn);
    }
    if (!prefill.modelEvidence.empty()) {
        QString what = tr("none");
        if (prefill.customModel) {
            what = tr("a custom model");
        } else if (prefill.modelInferred) {
            what = QStringLiteral("<b>%1</b>").arg(QString::fromStdString(prefill.modelId).toHtmlEscaped());
        }
        auto* inferred = new QLabel(tr("Model inferred from the trace: %1. Evidence: %2.")
                                        .arg(what, QString::fromStdString(prefill.modelEvidence).toHtmlEscaped()),
                                    this);
        inferred->setObjectName(QStringLiteral("inferredModel"));
        inferred->setWordWrap(true);
        layout->addWidget(inferred);
    }
    auto* form = new QFormLayout;
    const auto combo = [this](const auto& items, const std::string& current, auto accept) {
        auto* box = new QComboBox(this);
        for (const auto& item : items) {
            if (accept(item))
                box->addItem(QString::fromStdString(item.name + " (" + item.id + ")"), QString::fromStdString(item.id));
        }
        box->setCurrentIndex(std::max(0, box->findData(QString::fromStdString(current))));
        return box;
    };
    const auto any = [](const auto&) { return true; };
    m_fabric = combo(catalog.fabrics(), prefill.fabricId,
                     [](const core::FabricSpec& f) { return f.scope == core::FabricScope::IntraNode; });
    m_fabric->setObjectName(QStringLiteral("configFabric"));
    m_model = combo(catalog.models(), prefill.modelId, any);
    m_model->setObjectName(QStringLiteral("configModel"));
    m_customModel = prefill.customModel;
    QLabel* dims = nullptr;
    if (m_customModel) {
        m_model->insertItem(0, tr("Inferred from the trace (custom)"), QString::fromStdString(m_customModel->id));
        m_model->setCurrentIndex(0);
        dims = new QLabel(dimsSummary(*m_customModel), this);
        dims->setObjectName(QStringLiteral("inferredDims"));
        dims->setWordWrap(true);
        dims->setTextInteractionFlags(Qt::TextSelectableByMouse);
    }
    m_gpu = combo(catalog.gpus(), prefill.gpuId, any);
    m_tp = spin(1, 64, prefill.tp, this);
    m_batch = spin(1, 4096, prefill.batch, this);
    m_context = spin(1, 1 << 20, prefill.contextLen, this);
    m_tokens = spin(1, 256, prefill.tokens, this);
    form->addRow(tr("Fabric"), m_fabric);
    form->addRow(tr("TP"), m_tp);
    form->addRow(whatIf ? tr("Model (TP change only)") : tr("Model"), m_model);
    if (dims != nullptr) {
        form->addRow(tr("Inferred dimensions"), dims);
        // The summary describes the custom model only: its row hides when another model is picked.
        connect(m_model, &QComboBox::currentIndexChanged, dims,
                [form, dims](int index) { form->setRowVisible(dims, index == 0); });
    }
    form->addRow(whatIf ? tr("GPU (TP change only)") : tr("GPU"), m_gpu);
    form->addRow(tr("Batch"), m_batch);
    form->addRow(tr("Context"), m_context);
    if (!whatIf) form->addRow(tr("Decode steps"), m_tokens);
    m_tokens->setVisible(!whatIf);
    layout->addLayout(form);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
}

RunConfigChoice RunConfigDialog::choice() const {
    RunConfigChoice c;
    c.modelId = m_model->currentData().toString().toStdString();
    if (m_customModel && m_customModel->id == c.modelId) c.customModel = m_customModel;
    c.gpuId = m_gpu->currentData().toString().toStdString();
    c.fabricId = m_fabric->currentData().toString().toStdString();
    c.tp = m_tp->value();
    c.batch = m_batch->value();
    c.contextLen = m_context->value();
    c.tokens = m_tokens->value();
    return c;
}

}  // namespace tpscope::ui
