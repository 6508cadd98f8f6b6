// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/sweep_runner.h"

#include "ui/logging.h"
#include "ui/worker_guard.h"

namespace tpscope::ui {

SweepRunner::SweepRunner(SweepFn runSweep, QObject* parent) : QObject(parent), m_runSweep(std::move(runSweep)) {
    qRegisterMetaType<tpscope::ui::RunOutcome>();
}

SweepRunner::~SweepRunner() {
    cancel();
    wait();
}

quint64 SweepRunner::start(SweepRequest sweep) {
    if (m_running.load()) return 0;
    wait();  // join the previous, already finished worker
    m_cancel.store(false);
    m_running.store(true);
    const quint64 job = ++m_lastJob;
    qCInfo(lcRuns) << "starting sweep job" << job;
    m_thread = std::thread([this, job, sweep = std::move(sweep)]() mutable { work(job, std::move(sweep)); });
    return job;
}

void SweepRunner::cancel() {
    m_cancel.store(true);
}

void SweepRunner::wait() {
    if (m_thread.joinable()) m_thread.join();
}

void SweepRunner::work(quint64 job, SweepRequest sweep) {
    // Throttle: a run may report thousands of steps; the table needs a few updates per second.
    int lastIndex = -1;
    int lastPerMille = -1;
    SweepCallbacks callbacks;
    callbacks.progress = [&](int index, double fraction) {
        const int perMille = static_cast<int>(fraction * 1000);
        if (index == lastIndex && perMille / 10 == lastPerMille / 10) return;
        lastIndex = index;
        lastPerMille = perMille;
        Q_EMIT runProgress(job, index, fraction);
    };
    callbacks.finished = [&](int index, RunOutcome outcome) { Q_EMIT runFinished(job, index, std::move(outcome)); };
    callbacks.failed = [&](int index, const core::Error& error) {
        Q_EMIT runFailed(job, index, QString::fromStdString(error.describe()),
                         error.code == core::ErrorCode::Cancelled);
    };
    const core::Status status =
        guardWorker([&]() -> core::Status { return m_runSweep(sweep, callbacks, m_cancel); }, "sweep");
    const bool cancelled = m_cancel.load() || (!status && status.error().code == core::ErrorCode::Cancelled);
    const QString error = !status && !cancelled ? QString::fromStdString(status.error().describe()) : QString();
    m_running.store(false);
    Q_EMIT finished(job, cancelled, error);
}

}  // namespace tpscope::ui
