// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Puts the Compare tab into the window (TabHost::addViewTab) and makes the actions that fill it (the
// window places them in its tool bar, Run menu and runs table context menu):
// - Compare: the 2–4 runs selected in the runs table;
// - Simulate this configuration… on a captured or imported run: the same model, TP, batch and
//   context on the catalog's GPU and fabric (a dialog, prefilled from the trace), run through the
//   window's sweep path (core::sim::runSweep, as the run panel's sweeps) at the charts' price; when
//   it finishes (the window connects its sweepFinished to onSweepFinished), Compare opens on
//   [measured, simulated] with the per-layer residual;
// - What if on… on any finished run: core::sim::runWhatIf (as `tpscope-cli whatif`, through
//   Services::whatIf) as a job (ui/jobs/job.h), cancelled without waiting when the window closes; the
//   prediction joins the document as a new run (trace origin Predicted) and Compare
//   opens on [run, prediction] with its residual.
// The Compare tab drops a run that leaves the document.

#include <QObject>

#include <optional>
#include <vector>

#include "core/util/result.h"
#include "ui/compare/compare_view.h"
#include "ui/compare/run_config_dialog.h"
#include "ui/document/run_id.h"
#include "ui/document/run_request.h"
#include "ui/jobs/job.h"
#include "ui/report/sweep_report.h"

class QAction;

namespace tpscope::ui {

class ChartsController;
class TabHost;

class CompareController : public QObject {
    Q_OBJECT

  public:
    CompareController(TabHost& host, const ChartsController& prices, QObject* parent);
    ~CompareController() override;

    CompareView* view() const { return m_view; }
    QAction* compareAction() const { return m_compare; }
    QAction* simulateAction() const { return m_simulate; }
    QAction* whatIfAction() const { return m_whatIf; }

    // Opens Compare on these runs (2–4 finished ones); an error (shown in the window) otherwise. A pair
    // of one measured run (captured or imported) and one model of it (simulated or predicted) gets
    // the residual.
    core::Status compare(const std::vector<RunId>& ids);
    // Starts the simulation of `measured`'s configuration as `choice` says; Compare opens when it ends.
    core::Status simulateConfiguration(RunId measured, const RunConfigChoice& choice);
    // Starts the what-if replay of `run` on choice.fabricId (at choice.tp when it differs from the
    // run's ranks); the prediction is added and compared when it is ready.
    core::Status whatIf(RunId run, const RunConfigChoice& choice);
    bool isWhatIfRunning() const { return m_whatIfJob.id() != 0; }
    // Stops a running what-if replay without waiting for it (the window closing); its outcome is dropped.
    void cancelWhatIf();
    // The comparison pages of File → Export report: the Compare tab's runs, baseline and aligned layer
    // (nothing when it shows none).
    ReportPages reportPages() const;

    // The window connects these: its sweepFinished (a simulation for Compare may have ended) and the
    // runs table's selectionChanged (the actions follow the selected runs).
    void onSweepFinished();
    void updateActions();

  Q_SIGNALS:
    void comparisonShown();
    // A simulation or what-if that was started could not finish (the reason is shown in the window).
    void comparisonFailed(const QString& message);

  private:
    struct Selection {
        std::vector<CompareRun> runs;
        std::optional<ResidualPair> residual;
    };
    core::Result<Selection> gather(const std::vector<RunId>& ids) const;
    void onWhatIfDone(RunId measured, const core::Result<RunRecord>& outcome);
    void compareSelected();
    void simulateDialog();
    void whatIfDialog();
    // Both dialogs: prefilled from the one selected finished run, the choice handed to `action`.
    using RunAction = core::Status (CompareController::*)(RunId, const RunConfigChoice&);
    void runConfigDialog(RunConfigDialog::Mode mode, RunAction action, const QString& failure);
    void fail(const QString& message);
    RunId singleSelectedRun() const;

    TabHost& m_host;
    const ChartsController& m_prices;
    CompareView* m_view;
    QAction* m_compare = nullptr;
    QAction* m_simulate = nullptr;
    QAction* m_whatIf = nullptr;
    // The simulation started for a measured run: compared when the window's sweep ends.
    struct PendingSimulation {
        RunId measured = RunId::None;
        RunId simulated = RunId::None;
    };
    std::optional<PendingSimulation> m_pending;
    JobHandle m_whatIfJob;  // id 0: none running
};

}  // namespace tpscope::ui
