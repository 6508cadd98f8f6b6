// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Puts the Calculator, Advice and Collective calls tabs into the main window (addViewTab) and keeps
// them on the current run: the calculator prefills its plan from the run's request, the advice
// follows the charts' scaling input and price (recomputed through core whenever the charts'
// scaling is; ChartTabs must exist first), the Collective calls tab (CollectiveCallsPage) shows the
// run's calls on its fabric. Nothing is computed here.

#include <QObject>

#include "ui/document/run_id.h"
#include "ui/planning/sweep_advice.h"

namespace tpscope::ui {

class AdvicePage;
class CalculatorPage;
class CollectiveCallsPage;
class ChartsController;
class MainWindow;

class PlanningTabs : public QObject {
    Q_OBJECT

  public:
    explicit PlanningTabs(MainWindow* window);
    CalculatorPage* calculator() const { return m_calculator; }
    AdvicePage* advice() const { return m_advice; }
    CollectiveCallsPage* collectiveCalls() const { return m_calls; }
    // What the Advice tab shows (adviceFor over the charts' input, price and the tab's threshold):
    // the report prints this, not advice of its own.
    const core::Result<SweepAdvice>& currentAdvice() const { return m_lastAdvice; }

  private:
    void onCurrentRun(RunId id);
    // The shown group's advice, shown and returned.
    const core::Result<SweepAdvice>& showAdvice();
    ChartsController* controller() const;
    void refreshAdvice();

    MainWindow* m_window;
    CalculatorPage* m_calculator = nullptr;
    AdvicePage* m_advice = nullptr;
    CollectiveCallsPage* m_calls = nullptr;
    core::Result<SweepAdvice> m_lastAdvice{core::makeError(core::ErrorCode::InvalidArgument, "no run yet")};
};

}  // namespace tpscope::ui
