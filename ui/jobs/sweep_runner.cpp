// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/jobs/sweep_runner.h"

#include "ui/logging.h"

namespace tpscope::ui {

SweepRunner::SweepRunner(SweepFn runSweep, QObject* parent) : QObject(parent), m_runSweep(std::move(runSweep)) {
    qRegisterMetaType<tpscope::ui::RunOutcome>();
}

SweepRunner::~SweepRunner() {
    cancel();
    wait();
}

namespace {

// The sweep's callbacks, each handing a partial value over; progress throttled: a run may report
// thousands of steps and the table needs a few updates per second.
template <typename Event>
core::Status runSweepAsJob(const SweepFn& runSweep, const SweepRequest& sweep, const JobContext<Event>& job) {
    int lastIndex = -1;
    int lastPercent = -1;
    SweepCallbacks callbacks;
    callbacks.progress = [&](int index, double fraction) {
        const int percent = static_cast<int>(fraction * 100);
        if (index == lastIndex && percent == lastPercent) return;
        lastIndex = index;
        lastPercent = percent;
        job.hand(Event{Event::Kind::Progress, index, fraction, {}, {}, RunStatus::Running});
    };
    callbacks.finished = [&](int index, RunOutcome outcome) {
        job.hand(Event{Event::Kind::Finished, index, 1, std::move(outcome), {}, RunStatus::Done});
    };
    callbacks.failed = [&](int index, const core::Error& error) {
        job.hand(Event{Event::Kind::Failed,
                       index,
                       0,
                       {},
                       QString::fromStdString(error.describe()),
                       error.code == core::ErrorCode::Cancelled    ? RunStatus::Cancelled
                       : error.code == core::ErrorCode::DoesNotFit ? RunStatus::DoesNotFit
                                                                   : RunStatus::Failed});
    };
    return runSweep(sweep, callbacks, *job.control.cancel);
}

}  // namespace

quint64 SweepRunner::start(SweepRequest sweep) {
    if (isRunning()) return 0;
    JobHandlers<core::Ok, RunEvent> handlers;
    auto id = std::make_shared<quint64>(0);  // known once startJob returns, before any handler runs
    handlers.partial = [this, id](const RunEvent& event) { onRunEvent(*id, event); };
    handlers.result = [this, id](core::Ok) { Q_EMIT finished(*id, m_job.cancelRequested(), QString()); };
    handlers.failed = [this, id](const core::Error& error) {
        const bool cancelled = m_job.cancelRequested() || error.code == core::ErrorCode::Cancelled;
        Q_EMIT finished(*id, cancelled, cancelled ? QString() : QString::fromStdString(error.describe()));
    };
    m_job = startJob<core::Ok, RunEvent>(
        this, "sweep",
        [runSweep = m_runSweep, sweep = std::move(sweep)](const JobContext<RunEvent>& job) {
            return runSweepAsJob(runSweep, sweep, job);
        },
        std::move(handlers));
    *id = m_job.id();
    qCInfo(lcRuns) << "starting sweep job" << *id;
    return *id;
}

void SweepRunner::onRunEvent(quint64 job, const RunEvent& event) {
    switch (event.kind) {
        case RunEvent::Kind::Progress:
            Q_EMIT runProgress(job, event.index, event.fraction);
            break;
        case RunEvent::Kind::Finished:
            Q_EMIT runFinished(job, event.index, event.outcome);
            break;
        case RunEvent::Kind::Failed:
            Q_EMIT runFailed(job, event.index, event.message, event.ended);
            break;
    }
}

void SweepRunner::cancel() {
    m_job.cancel();
}

void SweepRunner::wait() {
    m_job.wait();
}

}  // namespace tpscope::ui
