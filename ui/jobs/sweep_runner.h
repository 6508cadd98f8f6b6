// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Runs a sweep as a job (ui/jobs/job.h) through Services::runSweep and re-emits it as plain value types.
// Every signal carries the job id that start() returned, so the GUI-thread receiver can drop what a
// superseded sweep still had in flight; runs are addressed by their index in SweepRequest::expand(),
// which the receiver maps to run ids (each run's progress and end are the job's partial values).
// cancel() sets the job's flag, which a run polls once per decode step, so a sweep stops within one
// step and keeps the runs that finished.

#include <QObject>
#include <QString>

#include "ui/jobs/job.h"
#include "ui/jobs/services.h"

namespace tpscope::ui {

class SweepRunner : public QObject {
    Q_OBJECT

  public:
    explicit SweepRunner(SweepFn runSweep, QObject* parent = nullptr);
    ~SweepRunner() override;  // cancels and waits (the sweep function may refer to its owner's data)

    // The new job's id (> 0), or 0 (and nothing starts) while the worker is still running.
    quint64 start(SweepRequest sweep);
    void cancel();
    bool isRunning() const { return m_job.isRunning(); }
    // Blocks until the worker has ended (tests, shutdown).
    void wait();

  Q_SIGNALS:
    void runProgress(quint64 job, int index, double fraction);
    void runFinished(quint64 job, int index, tpscope::ui::RunOutcome outcome);
    // status: Failed, Cancelled or DoesNotFit (core's DoesNotFit: a configuration memory cannot hold).
    void runFailed(quint64 job, int index, QString message, tpscope::ui::RunStatus status);
    void finished(quint64 job, bool cancelled, QString error);

  private:
    // One partial value of the job: a run's progress, its outcome or its failure.
    struct RunEvent {
        enum class Kind { Progress, Finished, Failed } kind = Kind::Progress;
        int index = 0;
        double fraction = 0;
        RunOutcome outcome;
        QString message;
        RunStatus ended = RunStatus::Failed;
    };
    void onRunEvent(quint64 job, const RunEvent& event);

    SweepFn m_runSweep;
    JobHandle m_job;
};

}  // namespace tpscope::ui
