#include "ui/planning/planning_tabs.h"

#include "ui/charts/call_busbw_page.h"
#include "ui/main_window.h"
#include "ui/planning/advice_page.h"
#include "ui/planning/calculator_page.h"
#include "ui/run_document.h"

namespace tpscope::ui {

PlanningTabs::PlanningTabs(MainWindow* window) : QObject(window), m_window(window) {
    m_calculator = new CalculatorPage(window->catalog(), window);
    m_window->addViewTab(m_calculator);
    m_advice = new AdvicePage(window);
    m_window->addViewTab(m_advice);
    m_calls = new CallBusbwPage(window->catalog(), window);
    m_window->addViewTab(m_calls);
    connect(m_window, &MainWindow::currentRunChanged, this, &PlanningTabs::onCurrentRun);
    auto* doc = m_window->document();
    connect(doc, &RunDocument::runChanged, this, [this](RunId id) {
        const RunRecord* r = m_window->document()->run(id);
        if (r != nullptr && r->status == RunStatus::Running) return;  // progress ticks
        if (id == m_window->currentRun()) return onCurrentRun(id);    // it finished while selected
        refreshAdvice();
    });
    connect(doc, &RunDocument::runRemoved, this, &PlanningTabs::refreshAdvice);
    connect(doc, &RunDocument::reset, this, &PlanningTabs::refreshAdvice);
    connect(m_advice, &AdvicePage::efficiencyThresholdChanged, this, &PlanningTabs::refreshAdvice);
    onCurrentRun(m_window->currentRun());
}

void PlanningTabs::onCurrentRun(RunId id) {
    const RunRecord* run = m_window->document()->run(id);
    if (run != nullptr) m_calculator->setRun(run->request);
    if (run == nullptr) {
        m_calls->setRun(nullptr, nullptr, {});
    } else {
        m_calls->setRun(run->trace, run->analysis, run->request.fabric.id);
    }
    refreshAdvice();
}

void PlanningTabs::refreshAdvice() {
    const auto* doc = m_window->document();
    const RunRecord* current = doc->run(m_window->currentRun());
    if (current == nullptr) {
        m_advice->setAdvice(core::makeError(core::ErrorCode::InvalidArgument, "select a run of a sweep"));
        return;
    }
    m_advice->setAdvice(adviceForSweep(doc->runs(), current->sweep, m_advice->efficiencyThreshold()));
}

}  // namespace tpscope::ui
