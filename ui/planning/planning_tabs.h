// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Puts the Calculator, Advice and Collective calls tabs into the main window (addViewTab) and keeps
// them on the current run: the calculator prefills its plan from the run's request, the advice
// follows the run's sweep (recomputed through core when a run of it finishes or goes), the per-call
// busbw chart shows the run's calls on its fabric. Nothing is computed here.

#include <QObject>

#include "ui/planning/sweep_advice.h"
#include "ui/run_id.h"

namespace tpscope::ui {

class AdvicePage;
class CallBusbwPage;
class CalculatorPage;
class MainWindow;

class PlanningTabs : public QObject {
    Q_OBJECT

  public:
    explicit PlanningTabs(MainWindow* window);
    CalculatorPage* calculator() const { return m_calculator; }
    AdvicePage* advice() const { return m_advice; }
    CallBusbwPage* collectiveCalls() const { return m_calls; }

  private:
    void onCurrentRun(RunId id);
    // The current run's sweep's advice, shown and returned.
    core::Result<SweepAdvice> showAdvice();
    void refreshAdvice();

    MainWindow* m_window;
    CalculatorPage* m_calculator = nullptr;
    AdvicePage* m_advice = nullptr;
    CallBusbwPage* m_calls = nullptr;
};

}  // namespace tpscope::ui
