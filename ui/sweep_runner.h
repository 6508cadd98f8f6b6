// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Runs a sweep on a worker thread through Services::runSweep (the hotspot pattern: a QObject adapter
// that emits plain value types). Every signal carries the job id that start() returned, so the
// GUI-thread receiver can drop what a superseded sweep still had in flight; runs are addressed by
// their index in SweepRequest::expand(), which the receiver maps to run ids. cancel() sets a flag the
// run polls once per decode step, so a sweep stops within one step and keeps the runs that finished.

#include <QObject>
#include <QString>

#include <atomic>
#include <memory>
#include <thread>

#include "ui/services.h"

namespace tpscope::ui {

class SweepRunner : public QObject {
    Q_OBJECT

  public:
    explicit SweepRunner(SweepFn runSweep, QObject* parent = nullptr);
    ~SweepRunner() override;  // cancels and joins

    // The new job's id (> 0), or 0 (and nothing starts) while the worker is still running.
    quint64 start(SweepRequest sweep);
    void cancel();
    bool isRunning() const { return m_running.load(); }
    // Blocks until the worker has ended (tests, shutdown).
    void wait();

  Q_SIGNALS:
    void runProgress(quint64 job, int index, double fraction);
    void runFinished(quint64 job, int index, tpscope::ui::RunOutcome outcome);
    void runFailed(quint64 job, int index, QString message, bool cancelled);
    void finished(quint64 job, bool cancelled, QString error);

  private:
    void work(quint64 job, SweepRequest sweep);

    SweepFn m_runSweep;
    std::thread m_thread;
    std::atomic<bool> m_running{false};
    quint64 m_lastJob = 0;
    CancelFlag m_cancel{false};
};

}  // namespace tpscope::ui
