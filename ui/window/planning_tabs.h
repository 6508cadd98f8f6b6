// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Puts the Calculator, Advice and Collective calls tabs into the window (TabHost::addViewTab) and
// keeps them on the current run: the calculator prefills its plan from the run's request, the advice
// follows the charts' scaling input and price (the ChartsController it is given, recomputed through
// core whenever its scaling is), the Collective calls tab (CollectiveCallsPage) shows the run's calls
// on its fabric. Nothing is computed here.

#include <QObject>

#include "ui/document/run_id.h"
#include "ui/planning/sweep_advice.h"

namespace tpscope::ui {

class AdvicePage;
class CalculatorPage;
class CollectiveCallsPage;
class ChartsController;
class TabHost;

class PlanningTabs : public QObject {
    Q_OBJECT

  public:
    PlanningTabs(TabHost& host, const ChartsController& charts, QObject* parent);
    CalculatorPage* calculator() const { return m_calculator; }
    AdvicePage* advice() const { return m_advice; }
    CollectiveCallsPage* collectiveCalls() const { return m_calls; }
    // What the Advice tab shows (adviceFor over the charts' input, price and the tab's threshold):
    // the report prints this, not advice of its own.
    const core::Result<SweepAdvice>& currentAdvice() const { return m_lastAdvice; }

    // The window connects its currentRunChanged here.
    void setCurrentRun(RunId id);

  private:
    // The shown group's advice, shown and returned.
    const core::Result<SweepAdvice>& showAdvice();
    void refreshAdvice();

    TabHost& m_host;
    const ChartsController& m_charts;
    CalculatorPage* m_calculator = nullptr;
    AdvicePage* m_advice = nullptr;
    CollectiveCallsPage* m_calls = nullptr;
    core::Result<SweepAdvice> m_lastAdvice{core::makeError(core::ErrorCode::InvalidArgument, "no run yet")};
};

}  // namespace tpscope::ui
