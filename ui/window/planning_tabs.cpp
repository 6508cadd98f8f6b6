// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/window/planning_tabs.h"

#include "ui/charts/chart_set.h"
#include "ui/collective_calls/collective_calls_page.h"
#include "ui/document/run_document.h"
#include "ui/planning/advice_page.h"
#include "ui/planning/calculator_page.h"
#include "ui/window/chart_tabs.h"
#include "ui/window/main_window.h"

namespace tpscope::ui {

PlanningTabs::PlanningTabs(MainWindow* window) : QObject(window), m_window(window) {
    m_calculator = new CalculatorPage(window->catalog(), window);
    m_window->addViewTab(m_calculator);
    m_advice = new AdvicePage(window);
    m_window->addViewTab(m_advice);
    m_calls = new CollectiveCallsPage(window->catalog(), window);
    m_window->addViewTab(m_calls);
    connect(m_window, &MainWindow::currentRunChanged, this, &PlanningTabs::onCurrentRun);
    connect(m_window->document(), &RunDocument::runChanged, this, [this](RunId id) {
        const RunRecord* r = m_window->document()->run(id);
        if (r != nullptr && r->status == RunStatus::Running) return;  // progress ticks
        if (id == m_window->currentRun()) onCurrentRun(id);           // it finished while selected
    });
    // The advice follows the charts' scaling input and price: one input, one price (ChartsController).
    connect(controller(), &ChartsController::scalingChanged, this, &PlanningTabs::refreshAdvice);
    connect(m_advice, &AdvicePage::efficiencyThresholdChanged, this, &PlanningTabs::refreshAdvice);
    onCurrentRun(m_window->currentRun());
}

void PlanningTabs::onCurrentRun(RunId id) {
    const RunRecord* run = m_window->document()->run(id);
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
    const auto* c = controller();
    m_lastAdvice = adviceFor(c->input(), c->pricePerGpuHour(), m_advice->efficiencyThreshold());
    m_advice->setAdvice(m_lastAdvice);
    return m_lastAdvice;
}

ChartsController* PlanningTabs::controller() const {
    return m_window->chartTabs()->charts()->controller();
}

void PlanningTabs::refreshAdvice() {
    static_cast<void>(showAdvice());
}

}  // namespace tpscope::ui
