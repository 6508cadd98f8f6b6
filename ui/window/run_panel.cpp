// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/window/run_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QSettings>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

#include "core/hw/memory_fit.h"
#include "core/sim/allreduce_engine.h"
#include "core/sim/sweep.h"
#include "core/util/units.h"
#include "core/workload/decode_plan.h"
#include "ui/document/run_description.h"
#include "ui/palette_colors.h"
#include "ui/planning/moe_choices.h"
#include "ui/table_cells.h"

namespace tpscope::ui {

namespace {

// Long preset names ("NVLink 4 via NVSwitch (H100/H200 HGX)") must not widen the panel.
QComboBox* combo(QWidget* parent) {
    auto* c = new QComboBox(parent);
    c->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    c->setMinimumContentsLength(14);
    return c;
}

QSpinBox* spin(int min, int max, int value, QWidget* parent) {
    auto* s = new QSpinBox(parent);
    s->setRange(min, max);
    s->setValue(value);
    s->setAccelerated(true);
    return s;
}

constexpr const char* kCustomId = "custom";

}  // namespace

RunPanel::RunPanel(core::Catalog catalog, LocalBackendInfo local, QWidget* parent)
    : QWidget(parent), m_catalog(std::move(catalog)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    auto* shown = new QGroupBox(tr("Shown run"), this);
    auto* shownLayout = new QVBoxLayout(shown);
    m_shownRun = new QLabel(shown);
    m_shownRun->setObjectName(QStringLiteral("shownRun"));
    m_shownRun->setWordWrap(true);
    m_shownRun->setTextInteractionFlags(Qt::TextSelectableByMouse);
    shownLayout->addWidget(m_shownRun);
    layout->addWidget(shown);
    layout->addWidget(buildWorkload());
    layout->addWidget(buildBackend(local));

    m_problem = new QLabel(this);
    m_problem->setWordWrap(true);
    layout->addWidget(m_problem);

    auto* buttons = new QHBoxLayout;
    m_run = new QPushButton(tr("Run sweep"), this);
    m_run->setDefault(true);
    m_run->setToolTip(tr("Run every TP degree × batch size on a worker thread (Ctrl+R)"));
    m_cancel = new QPushButton(tr("Cancel"), this);
    m_cancel->setEnabled(false);
    m_cancel->setToolTip(tr("Stop after the current step; finished runs are kept"));
    buttons->addWidget(m_run, 1);
    buttons->addWidget(m_cancel);
    layout->addLayout(buttons);
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 1000);
    m_progress->setTextVisible(false);
    m_progress->setMaximumHeight(8);
    m_progressText = new QLabel(this);
    layout->addWidget(m_progress);
    layout->addWidget(m_progressText);
    layout->addStretch(1);

    connect(m_run, &QPushButton::clicked, this, &RunPanel::runRequested);
    connect(m_cancel, &QPushButton::clicked, this, &RunPanel::cancelRequested);
    applyPaletteColors();
    setDefaults();
    showRun(nullptr);
}

void RunPanel::applyPaletteColors() {
    // Colours picked for the palette at hand: set again when it changes (a desktop switching to dark),
    // or the problem line and the hints keep the light theme's colours.
    m_problem->setStyleSheet(QStringLiteral("color:%1").arg(errorTextColor(palette()).name()));
    m_progressText->setStyleSheet(QStringLiteral("color:%1").arg(mutedTextColor(palette()).name()));
    m_fitHint->setStyleSheet(QStringLiteral("color:%1").arg(mutedTextColor(palette()).name()));
}

void RunPanel::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) applyPaletteColors();
}

void RunPanel::showRun(const RunRecord* run) {
    m_shownRun->setText(run != nullptr ? runDescriptionHtml(*run) : tr("None: run a sweep or open a trace."));
    // Lay the panel out now: the text may have grown from one line to several, and a scroll area
    // otherwise takes a few event-loop rounds to give it the room (a screenshot would show it cut).
    m_shownRun->parentWidget()->layout()->activate();
    layout()->activate();
}

QString RunPanel::shownRunHtml() const {
    return m_shownRun->text();
}

QWidget* RunPanel::buildWorkload() {
    auto* box = new QGroupBox(tr("Workload"), this);
    auto* form = new QFormLayout(box);
    m_model = combo(box);
    m_model->setObjectName(QStringLiteral("model"));
    for (const auto& m : m_catalog.models()) {
        m_model->addItem(modelLabel(m), QString::fromStdString(m.id));
        m_model->setItemData(m_model->count() - 1, qs(m.kindLabel()), Qt::ToolTipRole);
    }
    m_model->addItem(tr("Custom dimensions…"), QString::fromLatin1(kCustomId));
    form->addRow(tr("Model"), m_model);

    m_custom = new QGroupBox(box);
    m_custom->setFlat(true);
    auto* cf = new QFormLayout(m_custom);
    cf->setContentsMargins(0, 0, 0, 0);
    m_hidden = spin(64, 65536, 4096, m_custom);
    m_ffn = spin(64, 262144, 14336, m_custom);
    m_heads = spin(1, 1024, 32, m_custom);
    m_kvHeads = spin(1, 1024, 8, m_custom);
    m_layers = spin(1, 512, 32, m_custom);
    m_vocab = spin(1, 1'000'000, 128256, m_custom);
    cf->addRow(tr("hidden"), m_hidden);
    cf->addRow(tr("ffn"), m_ffn);
    cf->addRow(tr("heads / kv heads"), [&] {
        auto* w = new QWidget(m_custom);
        auto* h = new QHBoxLayout(w);
        h->setContentsMargins(0, 0, 0, 0);
        h->addWidget(m_heads);
        h->addWidget(m_kvHeads);
        return w;
    }());
    cf->addRow(tr("layers"), m_layers);
    cf->addRow(tr("vocabulary"), m_vocab);
    form->addRow(m_custom);

    m_dtype = combo(box);
    for (const char* d : {"fp16", "bf16", "fp8"}) m_dtype->addItem(QString::fromLatin1(d));
    form->addRow(tr("Data type"), m_dtype);
    // The MoE choices of `simulate --moe-parallel` and `--routing-skew` (off for a dense model).
    m_experts = newExpertPlacementBox(box);
    m_experts->setObjectName(QStringLiteral("moeParallel"));
    form->addRow(tr("MoE experts"), m_experts);
    m_skew = newRoutingSkewBox(box);
    m_skew->setObjectName(QStringLiteral("routingSkew"));
    form->addRow(tr("Routing skew"), m_skew);

    auto* tpRow = new QWidget(box);
    auto* tpLayout = new QHBoxLayout(tpRow);
    tpLayout->setContentsMargins(0, 0, 0, 0);
    for (const int tp : kTpChoices) {
        auto* c = new QCheckBox(QString::number(tp), tpRow);
        m_tp.push_back(c);
        tpLayout->addWidget(c);
        connect(c, &QCheckBox::toggled, this, &RunPanel::validate);
    }
    tpLayout->addStretch(1);
    form->addRow(tr("TP degrees"), tpRow);
    m_fitHint = new QLabel(box);
    m_fitHint->setObjectName(QStringLiteral("fitHint"));
    m_fitHint->setWordWrap(true);
    form->addRow(QString(), m_fitHint);

    m_batches = new QLineEdit(box);
    m_batches->setObjectName(QStringLiteral("batchSizes"));
    m_batches->setPlaceholderText(tr("e.g. 1,8,32"));
    m_batches->setToolTip(tr("Comma-separated batch sizes; every TP degree runs each"));
    form->addRow(tr("Batch sizes"), m_batches);
    m_tokens = spin(1, kMaxTokens, core::sim::kDefaults.tokens, box);
    m_tokens->setToolTip(tr("Decode steps to run (one new token per sequence per step), 1 to %L1").arg(kMaxTokens));
    form->addRow(tr("Tokens (steps)"), m_tokens);
    m_context = spin(1, 1 << 20, core::sim::kDefaults.contextLen, box);
    m_context->setSingleStep(256);
    m_context->setToolTip(tr("Tokens already in the KV cache that each new token attends to"));
    form->addRow(tr("Context length"), m_context);

    connect(m_model, &QComboBox::currentIndexChanged, this, [this] {
        updateCustomVisibility();
        validate();
    });
    for (auto* s : {m_hidden, m_ffn, m_heads, m_kvHeads, m_layers, m_vocab, m_tokens, m_context}) {
        connect(s, &QSpinBox::valueChanged, this, &RunPanel::validate);
    }
    connect(m_dtype, &QComboBox::currentIndexChanged, this, &RunPanel::validate);
    connect(m_experts, &QComboBox::currentIndexChanged, this, &RunPanel::validate);
    connect(m_skew, &QDoubleSpinBox::valueChanged, this, &RunPanel::validate);
    connect(m_batches, &QLineEdit::textChanged, this, &RunPanel::validate);
    return box;
}

QWidget* RunPanel::buildBackend(const LocalBackendInfo& local) {
    auto* box = new QGroupBox(tr("Backend"), this);
    auto* form = new QFormLayout(box);
    m_simulated = new QRadioButton(tr("Simulated cluster"), box);
    m_local =
        new QRadioButton(local.available ? tr("Local GPUs (%n found)", nullptr, static_cast<int>(local.devices.size()))
                                         : tr("Local GPUs (unavailable)"),
                         box);
    m_local->setEnabled(local.available);
    m_local->setToolTip(local.available ? local.devices.join(QStringLiteral("\n")) : local.reason);
    m_simulated->setChecked(true);
    form->addRow(m_simulated);
    form->addRow(m_local);
    if (!local.available) {
        // The reason in full, wrapped under the option, so the panel keeps its width.
        auto* why = new QLabel(local.reason, box);
        why->setWordWrap(true);
        why->setContentsMargins(20, 0, 0, 0);
        why->setStyleSheet(QStringLiteral("color: palette(mid); font-size: small;"));
        form->addRow(why);
    }
    m_gpu = combo(box);
    for (const auto& g : m_catalog.gpus()) m_gpu->addItem(QString::fromStdString(g.name), QString::fromStdString(g.id));
    form->addRow(tr("GPU"), m_gpu);
    m_fabric = combo(box);
    for (const auto& f : m_catalog.fabrics()) {
        m_fabric->addItem(QString::fromStdString(f.name), QString::fromStdString(f.id));
    }
    form->addRow(tr("Fabric"), m_fabric);
    // Between nodes: the catalog's inter-node fabrics, in catalog order (used when nodes > 1).
    m_interFabric = combo(box);
    for (const auto& f : m_catalog.fabrics()) {
        if (f.scope == core::FabricScope::InterNode)
            m_interFabric->addItem(QString::fromStdString(f.name), QString::fromStdString(f.id));
    }
    m_interFabric->setToolTip(tr("Fabric between nodes (tpscope-cli --inter-node-fabric)"));
    form->addRow(tr("Between nodes"), m_interFabric);
    auto* shape = new QWidget(box);
    auto* h = new QHBoxLayout(shape);
    h->setContentsMargins(0, 0, 0, 0);
    m_nodes = spin(1, 1024, 1, shape);
    m_gpusPerNode = spin(1, 64, 8, shape);
    h->addWidget(m_nodes);
    h->addWidget(new QLabel(QStringLiteral("×"), shape));
    h->addWidget(m_gpusPerNode);
    h->addStretch(1);
    form->addRow(tr("Nodes × GPUs"), shape);
    m_overlap = new QCheckBox(tr("Overlap communication with compute"), box);
    form->addRow(m_overlap);
    // The host that launches the kernels (issue 26): the same choice as `simulate --runtime`, each
    // profile's numbers and their sources in resources/runtime_profiles.json.
    m_runtime = combo(box);
    m_runtime->setObjectName(QStringLiteral("runtime"));
    for (const auto runtime : core::sim::kRuntimes) {
        const QString id = QString::fromLatin1(core::sim::toString(runtime));
        m_runtime->addItem(id, id);
    }
    m_runtime->setToolTip(
        tr("Host runtime launching each GPU's kernels (tpscope-cli simulate --runtime): pytorch-eager pays "
           "Python and dispatcher time per kernel, cpp-runtime only the launch call, cuda-graphs one graph "
           "launch per step. At small per-GPU kernels the host sets the step time"));
    form->addRow(tr("Host runtime"), m_runtime);
    // The serving engine's all-reduce (issue 12 §2): the same choice as `simulate --allreduce`.
    m_engine = combo(box);
    m_engine->setObjectName(QStringLiteral("allReduceEngine"));
    for (const auto engine : core::sim::allReduceEngines()) {
        const QString id = QString::fromLatin1(core::sim::toString(engine));
        m_engine->addItem(id, id);
    }
    m_engine->setToolTip(
        tr("Whose all-reduce kernels to model (tpscope-cli simulate --allreduce); where the engine "
           "cannot run them it falls back to NCCL and the run's notes say so"));
    form->addRow(tr("All-reduce"), m_engine);
    m_price = new QDoubleSpinBox(box);
    m_price->setRange(0, 1000);
    m_price->setDecimals(2);
    m_price->setPrefix(QStringLiteral("$ "));
    m_price->setValue(kDefaultPricePerGpuHour);
    form->addRow(tr("Price per GPU-hour"), m_price);
    connect(m_price, &QDoubleSpinBox::valueChanged, this, &RunPanel::pricePerGpuHourChanged);
    for (auto* s : {m_nodes, m_gpusPerNode}) connect(s, &QSpinBox::valueChanged, this, &RunPanel::validate);
    connect(m_interFabric, &QComboBox::currentIndexChanged, this, &RunPanel::validate);
    connect(m_gpu, &QComboBox::currentIndexChanged, this, &RunPanel::validate);
    connect(m_simulated, &QRadioButton::toggled, this, [this](bool sim) {
        for (QWidget* w : std::initializer_list<QWidget*>{m_gpu, m_fabric, m_interFabric, m_nodes, m_gpusPerNode})
            w->setEnabled(sim);
        validate();
    });
    return box;
}

void RunPanel::setDefaults() {
    const auto spec = core::sim::defaultSweepSpec(m_catalog);
    const auto pick = [](QComboBox* c, const std::string& id) {
        c->setCurrentIndex(std::max(0, c->findData(QString::fromStdString(id))));
    };
    if (spec) {
        pick(m_model, spec->model.id);
        const auto dtype = core::toString(spec->dtype);
        m_dtype->setCurrentText(QString::fromLatin1(dtype.data(), static_cast<qsizetype>(dtype.size())));
        for (std::size_t i = 0; i < m_tp.size(); ++i) {
            m_tp[i]->setChecked(std::find(spec->tps.begin(), spec->tps.end(), kTpChoices[i]) != spec->tps.end());
        }
        QStringList batches;
        for (const int b : spec->batches) batches << QString::number(b);
        m_batches->setText(batches.join(QLatin1Char(',')));
        m_tokens->setValue(spec->tokens);
        m_context->setValue(spec->contextLen);
        pick(m_gpu, spec->cluster.gpu.id);
        pick(m_fabric, spec->cluster.intraFabric.id);
        m_nodes->setValue(spec->cluster.nodes);
        m_gpusPerNode->setValue(spec->cluster.gpusPerNode);
        m_overlap->setChecked(spec->params.overlap);
        pick(m_runtime, std::string(core::sim::toString(spec->params.effectiveRuntime())));
        pick(m_engine, std::string(core::sim::toString(spec->params.allReduceEngine)));
        selectExpertPlacement(*m_experts, spec->moeParallel);
        m_skew->setValue(spec->model.isMoe() ? spec->model.moe.routingSkew : 0);
    }
    m_simulated->setChecked(true);
    m_interFabric->setCurrentIndex(0);
    // The price is not part of the sweep: it is the window's one price (ChartsController), shared by
    // Cost, Advice and the report, and a reset of the sweep leaves it as the user set it.
    updateCustomVisibility();
    validate();
}

void RunPanel::updateCustomVisibility() {
    const QString id = m_model->currentData().toString();
    m_custom->setVisible(id == QLatin1String(kCustomId));
    // Custom dimensions are dense; a catalog model says whether it has experts.
    const auto model = m_catalog.model(id.toStdString());
    enableMoeChoices(model.ok() && model->isMoe(), *m_experts, *m_skew);
}

core::Result<SweepRequest> RunPanel::sweepRequest() const {
    SweepRequest sweep;
    RunRequest& base = sweep.base;
    const std::string modelId = m_model->currentData().toString().toStdString();
    if (modelId == kCustomId) {
        base.model = core::ModelSpec{"custom",
                                     "Custom model",
                                     m_hidden->value(),
                                     m_ffn->value(),
                                     m_heads->value(),
                                     m_kvHeads->value(),
                                     m_heads->value() > 0 ? m_hidden->value() / m_heads->value() : 0,
                                     m_layers->value(),
                                     m_vocab->value(),
                                     "entered in the run panel"};
        TPSCOPE_TRY(core::validateModel(base.model));
    } else {
        TPSCOPE_TRY_ASSIGN(base.model, m_catalog.model(modelId));
    }
    applyMoeChoices(*m_experts, *m_skew, base.model, base.moeParallel);
    const auto dtype = core::parseDtype(m_dtype->currentText().toStdString());
    base.dtype = dtype.value_or(core::Dtype::Fp16);
    base.tokens = m_tokens->value();
    base.contextLen = m_context->value();
    base.backend = m_local->isChecked() ? BackendKind::LocalGpus : BackendKind::SimulatedCluster;
    TPSCOPE_TRY_ASSIGN(base.gpu, m_catalog.gpu(m_gpu->currentData().toString().toStdString()));
    TPSCOPE_TRY_ASSIGN(base.fabric, m_catalog.fabric(m_fabric->currentData().toString().toStdString()));
    base.nodes = m_nodes->value();
    base.gpusPerNode = m_gpusPerNode->value();
    if (base.nodes > 1) {
        if (m_interFabric->count() == 0)
            return core::makeError(core::ErrorCode::InvalidArgument,
                                   "several nodes need an inter-node fabric; the catalog has none");
        TPSCOPE_TRY_ASSIGN(base.interFabric, m_catalog.fabric(m_interFabric->currentData().toString().toStdString()));
    }
    base.overlap = m_overlap->isChecked();
    base.runtime = core::sim::parseRuntime(m_runtime->currentData().toString().toStdString())
                       .value_or(core::sim::kDefaults.runtime);
    base.allReduceEngine = core::sim::parseAllReduceEngine(m_engine->currentData().toString().toStdString())
                               .value_or(core::sim::AllReduceEngine::Nccl);
    base.pricePerGpuHour = m_price->value();
    for (std::size_t i = 0; i < m_tp.size(); ++i) {
        if (m_tp[i]->isChecked()) sweep.tps.push_back(kTpChoices[i]);
    }
    if (sweep.tps.empty()) return core::makeError(core::ErrorCode::InvalidArgument, "choose at least one TP degree");
    const int gpus = base.nodes * base.gpusPerNode;
    if (base.backend == BackendKind::SimulatedCluster && sweep.tps.back() > gpus) {
        return core::makeError(core::ErrorCode::InvalidArgument, "TP " + std::to_string(sweep.tps.back()) + " needs " +
                                                                     std::to_string(sweep.tps.back()) +
                                                                     " GPUs; the cluster has " + std::to_string(gpus));
    }
    TPSCOPE_TRY_ASSIGN(sweep.batches, core::parsePositiveIntList(m_batches->text().toStdString(), "batch sizes"));
    // A batch given twice would run twice, and two runs at one (TP, batch) have no scaling.
    for (std::size_t i = 0; i < sweep.batches.size(); ++i) {
        if (std::find(sweep.batches.begin(), sweep.batches.begin() + static_cast<std::ptrdiff_t>(i),
                      sweep.batches[i]) != sweep.batches.begin() + static_cast<std::ptrdiff_t>(i)) {
            return core::makeError(core::ErrorCode::InvalidArgument,
                                   "batch size " + std::to_string(sweep.batches[i]) + " is given twice", "batch sizes");
        }
    }
    return sweep;
}

void RunPanel::setPricePerGpuHour(double price) {
    m_price->setValue(price);
}

double RunPanel::pricePerGpuHour() const {
    return m_price->value();
}

void RunPanel::validate() {
    const auto sweep = sweepRequest();
    m_problem->setText(sweep ? QString() : QString::fromStdString(sweep.error().describe()));
    m_problem->setVisible(!sweep);
    m_run->setEnabled(sweep.ok() && !m_busy);
    if (!sweep) {
        m_fitHint->clear();
        return;
    }
    const auto& base = sweep->base;
    RunRequest largest = base;  // the largest batch needs the most memory
    largest.tp = 1;
    largest.batch = *std::max_element(sweep->batches.begin(), sweep->batches.end());
    const int minTp = core::minimumTpThatFits(largest.plan(), base.gpu, {1, 2, 4, 8, 16, 32, 64});
    m_fitHint->setText(
        minTp == 0 ? tr("does not fit %1 at any TP up to 64").arg(QString::fromStdString(base.gpu.name))
        : minTp == 1
            ? tr("fits one %1").arg(QString::fromStdString(base.gpu.name))
            : tr("fits %1 from TP %2 (smaller TPs will fail)").arg(QString::fromStdString(base.gpu.name)).arg(minTp));
}

void RunPanel::setBusy(bool busy) {
    m_busy = busy;
    m_cancel->setEnabled(busy);
    validate();
}

void RunPanel::setOverallProgress(const SweepCounts& counts, double currentFraction) {
    // Runs that ended either way fill the bar; cancelled runs did neither and leave it short.
    const int ended = counts.finished + counts.failed + counts.notFitting;
    const double overall = counts.total > 0 ? (ended + currentFraction) / counts.total : 0;
    m_progress->setValue(static_cast<int>(overall * 1000));
    QString text = counts.total > 0 ? tr("%1 of %2 runs finished").arg(counts.finished).arg(counts.total) : QString();
    if (counts.notFitting > 0) text += tr(", %1 not fitting").arg(counts.notFitting);
    if (counts.failed > 0) text += tr(", %1 failed").arg(counts.failed);
    m_progressText->setText(text);
}

QString RunPanel::progressText() const {
    return m_progressText->text();
}

int RunPanel::progressPerMille() const {
    return m_progress->value();
}

void RunPanel::saveSettings(QSettings& s) const {
    s.beginGroup(QStringLiteral("runPanel"));
    s.setValue(QStringLiteral("model"), m_model->currentData());
    s.setValue(QStringLiteral("dtype"), m_dtype->currentText());
    QStringList tps;
    for (std::size_t i = 0; i < m_tp.size(); ++i) {
        if (m_tp[i]->isChecked()) tps << QString::number(kTpChoices[i]);
    }
    s.setValue(QStringLiteral("tp"), tps);
    s.setValue(QStringLiteral("batches"), m_batches->text());
    s.setValue(QStringLiteral("tokens"), m_tokens->value());
    s.setValue(QStringLiteral("context"), m_context->value());
    s.setValue(QStringLiteral("gpu"), m_gpu->currentData());
    s.setValue(QStringLiteral("fabric"), m_fabric->currentData());
    s.setValue(QStringLiteral("interFabric"), m_interFabric->currentData());
    s.setValue(QStringLiteral("nodes"), m_nodes->value());
    s.setValue(QStringLiteral("gpusPerNode"), m_gpusPerNode->value());
    s.setValue(QStringLiteral("overlap"), m_overlap->isChecked());
    s.setValue(QStringLiteral("runtime"), m_runtime->currentData());
    s.setValue(QStringLiteral("allReduceEngine"), m_engine->currentData());
    s.setValue(QStringLiteral("moeParallel"), m_experts->currentData());
    s.setValue(QStringLiteral("routingSkew"), m_skew->value());
    s.setValue(QStringLiteral("price"), m_price->value());
    s.endGroup();
}

void RunPanel::restoreSettings(const QSettings& s) {
    const auto get = [&](const char* key) { return s.value(QStringLiteral("runPanel/") + QLatin1String(key)); };
    if (!get("model").isValid()) return;
    const auto pick = [](QComboBox* c, const QVariant& v) {
        const int i = c->findData(v);
        if (i >= 0) c->setCurrentIndex(i);
    };
    pick(m_model, get("model"));
    m_dtype->setCurrentText(get("dtype").toString());
    const QStringList tps = get("tp").toStringList();
    for (std::size_t i = 0; i < m_tp.size(); ++i) m_tp[i]->setChecked(tps.contains(QString::number(kTpChoices[i])));
    m_batches->setText(get("batches").toString());
    m_tokens->setValue(get("tokens").toInt());
    m_context->setValue(get("context").toInt());
    pick(m_gpu, get("gpu"));
    pick(m_fabric, get("fabric"));
    pick(m_interFabric, get("interFabric"));
    m_nodes->setValue(get("nodes").toInt());
    m_gpusPerNode->setValue(get("gpusPerNode").toInt());
    m_overlap->setChecked(get("overlap").toBool());
    // Settings of a build before the runtime choice hold the "CUDA graphs" checkbox instead.
    if (get("runtime").isValid()) {
        pick(m_runtime, get("runtime"));
    } else {
        pick(m_runtime,
             QString::fromLatin1(core::sim::toString(get("graphs").toBool() ? core::sim::Runtime::CudaGraphs
                                                                            : core::sim::Runtime::PytorchEager)));
    }
    pick(m_engine, get("allReduceEngine"));
    // Settings of a build before the MoE choices: tensor-parallel experts, uniform routing.
    pick(m_experts, get("moeParallel").isValid() ? get("moeParallel") : m_experts->itemData(0));
    m_skew->setValue(get("routingSkew").toDouble());
    m_price->setValue(get("price").toDouble());
    updateCustomVisibility();
    validate();
}

}  // namespace tpscope::ui
