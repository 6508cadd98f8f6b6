// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// CalculatorPage: the inputs and the recompute on every edit (the tables: calculator_page_fill.cpp).

#include "ui/planning/calculator_page.h"

#include <qcustomplot.h>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <array>
#include <vector>

#include "core/util/units.h"
#include "ui/export/plot_export.h"
#include "ui/palette_colors.h"
#include "ui/planning/moe_choices.h"

namespace tpscope::ui {

namespace {

constexpr std::array kDtypes{core::Dtype::Fp16, core::Dtype::Bf16, core::Dtype::Fp8, core::Dtype::Fp32};

QSpinBox* spin(int lo, int hi, int value, QWidget* parent) {
    auto* s = new QSpinBox(parent);
    s->setRange(lo, hi);
    s->setValue(value);
    s->setKeyboardTracking(false);  // recompute on a finished number, not on each digit
    return s;
}

QTableView* sideTableView(QStandardItemModel* model, QWidget* parent) {
    auto* view = new QTableView(parent);
    view->setModel(model);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view->verticalHeader()->hide();
    view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    view->horizontalHeader()->setStretchLastSection(true);
    return view;
}

}  // namespace

CalculatorPage::CalculatorPage(core::Catalog catalog, QWidget* parent)
    : ChartPage(tr("Calculator"), parent), m_catalog(std::move(catalog)), m_models(m_catalog.models()) {
    m_inputs.fabrics = m_catalog.fabrics();
    auto* table = addTable({tr("Fabric"), tr("busbw"), tr("bandwidth-only / call"), tr("bandwidth-only / step"),
                            tr("min latency"), tr("α-β / call"), tr("α-β / step"), tr("dominant"),
                            tr("α-β ÷ HBM floor"), tr("note")});
    setCsvHeader(*table, {"fabric", "busbw_bytes_per_sec", "bandwidth_only_per_call_us", "bandwidth_only_per_step_us",
                          "min_call_latency_us", "alpha_beta_per_call_us", "alpha_beta_per_step_us", "dominant",
                          "alpha_beta_over_hbm_floor_ratio", "note"});
    placeLegendBelowPlot();  // over the axes it hid the bars of the last fabrics (nvl72)
    controls()->addWidget(buildInputs(), 0);
    controls()->addWidget(buildSideTables(), 1);
    recompute();
}

QWidget* CalculatorPage::buildInputs() {
    auto* box = new QWidget(this);
    auto* grid = new QGridLayout(box);
    grid->setContentsMargins(0, 0, 0, 0);
    m_model = new QComboBox(box);
    for (const auto& m : m_models) m_model->addItem(modelLabel(m));
    m_gpu = new QComboBox(box);
    for (const auto& g : m_catalog.gpus()) m_gpu->addItem(QString::fromStdString(g.name));
    m_tp = spin(1, 1024, 8, box);
    m_batch = spin(1, 1 << 20, 1, box);
    m_context = spin(1, 1 << 24, 1024, box);
    m_dtype = new QComboBox(box);
    for (const auto d : kDtypes) m_dtype->addItem(QString::fromLatin1(core::toString(d)));
    m_experts = newExpertPlacementBox(box);
    m_experts->setObjectName(QStringLiteral("calculatorExperts"));
    m_skew = newRoutingSkewBox(box);
    m_skew->setObjectName(QStringLiteral("calculatorRoutingSkew"));
    m_serial = new QDoubleSpinBox(box);
    m_serial->setRange(0, 1);
    m_serial->setDecimals(4);
    m_serial->setSingleStep(0.01);
    m_serial->setValue(m_inputs.serialFraction);
    m_serial->setKeyboardTracking(false);
    m_gpuCounts = new QLineEdit(QStringLiteral("1,2,4,8,16"), box);
    m_problem = new QLabel(box);
    m_problem->setWordWrap(true);
    m_problem->setObjectName(QStringLiteral("calculatorProblem"));
    restyle();
    const std::vector<std::pair<QString, QWidget*>> rows = {
        {tr("Model"), m_model},         {tr("GPU"), m_gpu},           {tr("TP"), m_tp},
        {tr("Batch"), m_batch},         {tr("Context"), m_context},   {tr("dtype"), m_dtype},
        {tr("MoE experts"), m_experts}, {tr("Routing skew"), m_skew}, {tr("Amdahl S"), m_serial},
        {tr("at GPUs"), m_gpuCounts}};
    m_tp->setObjectName(QStringLiteral("calculatorTp"));
    m_gpu->setObjectName(QStringLiteral("calculatorGpu"));
    int row = 0;
    for (const auto& [label, widget] : rows) {
        grid->addWidget(new QLabel(label, box), row, 0);
        grid->addWidget(widget, row++, 1);
    }
    m_serialSource = new QLabel(box);
    m_serialSource->setWordWrap(true);
    grid->addWidget(m_serialSource, row++, 0, 1, 2);
    grid->addWidget(m_problem, row, 0, 1, 2);
    grid->setRowStretch(row, 1);
    const auto changed = [this] {
        if (!m_updating) recompute();
    };
    connect(m_model, &QComboBox::currentIndexChanged, this, changed);
    connect(m_gpu, &QComboBox::currentIndexChanged, this, changed);
    connect(m_dtype, &QComboBox::currentIndexChanged, this, changed);
    connect(m_experts, &QComboBox::currentIndexChanged, this, changed);
    connect(m_skew, &QDoubleSpinBox::valueChanged, this, changed);
    for (auto* s : {m_tp, m_batch, m_context}) connect(s, &QSpinBox::valueChanged, this, changed);
    connect(m_serial, &QDoubleSpinBox::valueChanged, this, [this, changed] {
        if (!m_updating) m_serialSource->clear();  // the user's own S now
        changed();
    });
    connect(m_gpuCounts, &QLineEdit::editingFinished, this, changed);
    return box;
}

QWidget* CalculatorPage::buildSideTables() {
    auto* box = new QWidget(this);
    auto* layout = new QHBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    m_planTable = new QStandardItemModel(0, 2, this);
    m_planTable->setHorizontalHeaderLabels({tr("Plan, per GPU"), tr("Value")});
    // Each row's value has its own unit, named in the row's label: the CSV keeps the label column.
    setCsvHeader(*m_planTable, {"quantity_with_unit", "value"});
    layout->addWidget(sideTableView(m_planTable, box), 3);
    auto* amdahl = new QWidget(box);
    auto* amdahlLayout = new QVBoxLayout(amdahl);
    amdahlLayout->setContentsMargins(0, 0, 0, 0);
    m_amdahlTable = new QStandardItemModel(0, 3, this);
    m_amdahlTable->setHorizontalHeaderLabels({tr("GPUs"), tr("Amdahl speed-up"), tr("efficiency")});
    setCsvHeader(*m_amdahlTable, {"gpus", "amdahl_speedup_ratio", "efficiency_fraction"});
    for (int c = 0; c < 3; ++c) {
        static constexpr std::array kFields{"gpus", "speedup", "efficiency"};
        m_amdahlTable->setHeaderData(c, Qt::Horizontal, QString::fromLatin1(kFields[static_cast<std::size_t>(c)]),
                                     kFieldRole);
    }
    amdahlLayout->addWidget(sideTableView(m_amdahlTable, amdahl), 1);
    m_amdahlLimit = new QLabel(amdahl);
    amdahlLayout->addWidget(m_amdahlLimit);
    layout->addWidget(amdahl, 2);
    box->setMinimumHeight(230);
    return box;
}

namespace {

bool sameDimensions(const core::ModelSpec& a, const core::ModelSpec& b) {
    return a.hidden == b.hidden && a.ffn == b.ffn && a.heads == b.heads && a.kvHeads == b.kvHeads &&
           a.headDim == b.headDim && a.layers == b.layers && a.vocab == b.vocab && a.attention == b.attention &&
           a.moe.experts == b.moe.experts && a.moe.topK == b.moe.topK && a.moe.expertFfn == b.moe.expertFfn &&
           a.moe.sharedExperts == b.moe.sharedExperts && a.moe.denseLayers == b.moe.denseLayers;
}

}  // namespace

void CalculatorPage::restyle() {
    // The error colour for this palette (light or dark), not a fixed red that a dark theme hides.
    QPalette colours = m_problem->palette();
    colours.setColor(QPalette::WindowText, errorTextColor(palette()));
    m_problem->setPalette(colours);
}

void CalculatorPage::setRun(const RunRequest& request) {
    if (request.model.layers <= 0 || request.model.hidden <= 0) return;
    const auto it = std::find_if(m_models.begin(), m_models.end(),
                                 [&](const core::ModelSpec& m) { return m.id == request.model.id; });
    const QString name = QString::fromStdString(request.model.name.empty() ? "custom" : request.model.name);
    if (it == m_models.end()) {
        // A custom model of the run panel: offered here too, under its own name.
        m_models.push_back(request.model);
        m_model->addItem(name);
    } else if (!sameDimensions(*it, request.model)) {
        // Another custom model under the same id: this run's dimensions, not the first one's.
        *it = request.model;
        m_model->setItemText(static_cast<int>(it - m_models.begin()), name);
    }
    const auto gpuKnown = m_catalog.gpu(request.gpu.id);
    m_updating = true;  // the run's MoE choices, then one recompute through setPlan
    selectExpertPlacement(*m_experts, request.moeParallel);
    if (request.model.isMoe()) m_skew->setValue(request.model.moe.routingSkew);
    m_updating = false;
    setPlan(request.model.id, gpuKnown ? request.gpu.id : m_inputs.gpu.id, request.tp, request.batch,
            request.contextLen, request.dtype);
}

void CalculatorPage::setPlan(const std::string& modelId, const std::string& gpuId, int tp, int batch, int context,
                             core::Dtype dtype) {
    m_updating = true;
    for (std::size_t i = 0; i < m_models.size(); ++i) {
        if (m_models[i].id == modelId) m_model->setCurrentIndex(static_cast<int>(i));
    }
    const auto& gpus = m_catalog.gpus();
    for (std::size_t i = 0; i < gpus.size(); ++i) {
        if (gpus[i].id == gpuId) m_gpu->setCurrentIndex(static_cast<int>(i));
    }
    m_tp->setValue(tp);
    m_batch->setValue(batch);
    m_context->setValue(context);
    const int d = m_dtype->findText(QString::fromLatin1(core::toString(dtype)));
    if (d >= 0) m_dtype->setCurrentIndex(d);
    m_updating = false;
    recompute();
}

void CalculatorPage::setExpertPlacement(core::MoeParallel mode) {
    selectExpertPlacement(*m_experts, mode);  // recomputes through the signal
}

void CalculatorPage::setRoutingSkew(double skew) {
    m_skew->setValue(skew);  // recomputes through the signal
}

void CalculatorPage::setAmdahl(double serialFraction, const QString& gpuCounts) {
    m_updating = true;
    m_serial->setValue(serialFraction);
    m_gpuCounts->setText(gpuCounts);
    m_updating = false;
    recompute();
}

void CalculatorPage::setSerialFraction(double serialFraction, const QString& source) {
    m_updating = true;
    m_serial->setValue(serialFraction);
    m_updating = false;
    m_serialSource->setText(tr("S = %1 %2").arg(m_serial->value(), 0, 'f', 4).arg(source));
    recompute();
}

QString CalculatorPage::serialSource() const {
    return m_serialSource->text();
}

QString CalculatorPage::problem() const {
    return m_problem->text();
}

void CalculatorPage::recompute() {
    if (m_models.empty() || m_catalog.gpus().empty()) {
        return clearNumbers(tr("The preset catalog has no model or GPU."));
    }
    m_inputs.plan = core::PlanConfig{};
    m_inputs.plan.model = m_models[static_cast<std::size_t>(std::max(0, m_model->currentIndex()))];
    m_inputs.plan.tp = m_tp->value();
    m_inputs.plan.batch = m_batch->value();
    m_inputs.plan.contextLen = m_context->value();
    m_inputs.plan.dtype = kDtypes[static_cast<std::size_t>(std::max(0, m_dtype->currentIndex()))];
    enableMoeChoices(m_inputs.plan.model.isMoe(), *m_experts, *m_skew);
    applyMoeChoices(*m_experts, *m_skew, m_inputs.plan.model, m_inputs.plan.moeParallel);
    m_inputs.gpu = m_catalog.gpus()[static_cast<std::size_t>(std::max(0, m_gpu->currentIndex()))];
    m_inputs.serialFraction = m_serial->value();
    auto counts = core::parsePositiveIntList(m_gpuCounts->text().toStdString(), "GPU counts");
    m_inputs.gpuCounts = counts ? *counts : std::vector<int>{};
    auto numbers = computeCalculator(m_inputs);
    if (!numbers) return clearNumbers(QString::fromStdString(numbers.error().describe()));
    if (!counts) numbers->amdahlError = counts.error().describe();
    m_problem->setText(QString::fromStdString(numbers->amdahlError));
    fillPlan(*numbers);
    fillFabrics(*numbers);
    fillAmdahl(*numbers);
    plotFabrics(*numbers);
}

void CalculatorPage::clearNumbers(const QString& why) {
    m_problem->setText(why);
    m_planTable->setRowCount(0);
    tableModel()->setRowCount(0);
    m_amdahlTable->setRowCount(0);
    m_amdahlLimit->clear();
    plot()->clearPlottables();
    requestReplot();
}

QStringList CalculatorPage::exportCompanions(const QString& path) const {
    if (exportSuffix(path) != QLatin1String("csv")) return {};
    const QFileInfo info(path);
    const QString stem = info.dir().filePath(info.completeBaseName());
    return {stem + QStringLiteral("-plan.csv"), stem + QStringLiteral("-amdahl.csv")};
}

core::Status CalculatorPage::exportTo(const ExportRequest& request) const {
    if (exportSuffix(request.path) != QLatin1String("csv")) return ChartPage::exportTo(request);
    if (auto st = exportTableCsv(*tableModel(), request.path); !st) return st;
    const QStringList companions = exportCompanions(request.path);
    if (auto st = exportTableCsv(*m_planTable, companions.at(0)); !st) return st;
    return exportTableCsv(*m_amdahlTable, companions.at(1));
}

}  // namespace tpscope::ui
