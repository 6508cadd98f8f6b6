// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/window/planning_tabs.h"

#include "ui/charts/charts_controller.h"
#include "ui/collective_calls/collective_calls_page.h"
#include "ui/document/run_document.h"
#include "ui/planning/advice_page.h"
#include "ui/planning/calculator_page.h"
#include "ui/window/tab_host.h"

namespace tpscope::ui {

PlanningTabs::PlanningTabs(TabHost& host, const ChartsController& charts, QObject* parent)
    : QObject(parent), m_host(host), m_charts(charts) {
    QWidget* window = m_host.dialogParent();
    m_calculator = new CalculatorPage(m_host.catalog(), window);
    m_host.addViewTab(m_calculator);
    m_advice = new AdvicePage(window);
    m_host.addViewTab(m_advice);
    m_calls = new CollectiveCallsPage(m_host.catalog(), window);
    m_host.addViewTab(m_calls);
    connect(m_host.document(), &RunDocument::runChanged, this, [this](RunId id) {
        const RunRecord* r = m_host.document()->run(id);
        if (r != nullptr && r->status == RunStatus::Running) return;  // progress ticks
        if (id == m_host.currentRun()) setCurrentRun(id);             // it finished while selected
    });
    // The advice follows the charts' scaling input and price: one input, one price (ChartsController).
    connect(&m_charts, &ChartsController::scalingChanged, this, &PlanningTabs::refreshAdvice);
    connect(m_advice, &AdvicePage::efficiencyThresholdChanged, this, &PlanningTabs::refreshAdvice);
    setCurrentRun(m_host.currentRun());
}

void PlanningTabs::setCurrentRun(RunId id) {
    const RunRecord* run = m_host.document()->run(id);
    const auto& advice = showAdvice();
    if (run == nullptr) {
        m_calls->setRun(nullptr, nullptr, {});
        return;
    }
    m_calculator->setRun(run->request);
    m_calls->setRun(run->trace, run->analysis, run->request.fabric.id);
    if (!advice) return;
    // Amdahl's S from the fit of the run's own sweep and batch (core's), where there is one.
    for (const auto& batch : advice->scaling.batches) {
        if (batch.batch == run->request.batch && batch.fit.valid) {
            m_calculator->setSerialFraction(batch.fit.serialFraction,
                                            tr("from the sweep's Amdahl fit at batch %1").arg(batch.batch));
        }
    }
}

const core::Result<SweepAdvice>& PlanningTabs::showAdvice() {
    m_lastAdvice = adviceFor(m_charts.input(), m_charts.pricePerGpuHour(), m_advice->efficiencyThreshold());
    m_advice->setAdvice(m_lastAdvice);
    return m_lastAdvice;
}

void PlanningTabs::refreshAdvice() {
    static_cast<void>(showAdvice());
}

}  // namespace tpscope::ui
