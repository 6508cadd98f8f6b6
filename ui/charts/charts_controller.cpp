// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/charts/charts_controller.h"

#include "ui/charts/cost_page.h"
#include "ui/charts/layers_page.h"
#include "ui/charts/scaling_page.h"

namespace tpscope::ui {

ChartsController::ChartsController(LayersPage* layers, ScalingPage* scaling, CostPage* cost, QObject* parent)
    : QObject(parent), m_layers(layers), m_scalingPage(scaling), m_cost(cost) {
    m_price = m_cost->pricePerGpuHour();
    m_targetMs = m_cost->latencyTargetMs();
    connect(m_cost, &CostPage::pricePerGpuHourEdited, this, &ChartsController::setPricePerGpuHour);
    connect(m_cost, &CostPage::latencyTargetEdited, this, &ChartsController::setLatencyTargetMs);
}

void ChartsController::setRuns(std::vector<ChartRun> runs) {
    m_runs = std::move(runs);
    std::erase_if(m_runs, [](const ChartRun& r) { return !r.analysis || !r.trace; });
    refreshScaling();
    refreshLayers();
}

const ChartRun* ChartsController::currentChartRun() const {
    for (const auto& r : m_runs) {
        if (r.id == m_current) return &r;
    }
    // Without a choice the largest TP is the most telling run: it has the most communication.
    const ChartRun* largest = nullptr;
    for (const auto& r : m_runs) {
        if (largest == nullptr || r.gpus > largest->gpus) largest = &r;
    }
    return largest;
}

void ChartsController::setCurrentRun(RunId id) {
    m_current = id;
    refreshLayers();
}

void ChartsController::setPricePerGpuHour(double price) {
    if (price == m_price) return;
    m_price = price;
    if (m_cost->pricePerGpuHour() != price) {
        const QSignalBlocker block(m_cost);
        m_cost->setPricePerGpuHour(price);
    }
    refreshScaling();
}

void ChartsController::setLatencyTargetMs(double ms) {
    if (ms == m_targetMs) return;
    m_targetMs = ms;
    if (m_cost->latencyTargetMs() != ms) {
        const QSignalBlocker block(m_cost);
        m_cost->setLatencyTargetMs(ms);
    }
    refreshScaling();
}

void ChartsController::refreshScaling() {
    std::vector<core::analysis::RunPoint> points;
    for (const auto& r : m_runs) {
        points.push_back(core::analysis::runPointOf(*r.trace, *r.analysis, r.label.toStdString(), r.gpus, r.batch));
    }
    m_candidates.clear();
    m_cheapest.reset();
    if (points.empty()) {
        m_scaling = core::analysis::ScalingReport{};
        m_scalingPage->clearReport(tr("No finished runs."));
        m_cost->clearCost(tr("No finished runs."));
        return;
    }
    m_scaling = core::analysis::analyzeScaling(std::move(points), {.pricePerGpuHour = m_price});
    if (!m_scaling) {
        const QString why = QString::fromStdString(m_scaling.error().describe());
        m_scalingPage->clearReport(why);
        m_cost->clearCost(why);
        return;
    }
    m_candidates = core::analysis::costCandidates(*m_scaling);
    m_cheapest = core::cheapestMeeting(m_candidates, m_targetMs);
    m_scalingPage->setReport(*m_scaling);
    m_cost->setCost(*m_scaling, m_candidates, m_cheapest);
}

void ChartsController::refreshLayers() {
    const ChartRun* run = currentChartRun();
    if (run == nullptr) {
        m_layers->clearRun(tr("No finished run."));
        return;
    }
    m_layers->setRun(run->analysis, run->label, run->id);
}

}  // namespace tpscope::ui
