#include "ui/sweep_runner.h"

#include "ui/logging.h"
#include "ui/timeline/timeline_data.h"

namespace tpscope::ui {

SweepRunner::SweepRunner(RunFn runOne, QObject* parent) : QObject(parent), m_runOne(std::move(runOne)) {
    qRegisterMetaType<tpscope::ui::RunOutcome>();
}

SweepRunner::~SweepRunner() {
    cancel();
    wait();
}

bool SweepRunner::start(std::vector<RunRequest> runs) {
    if (m_running.load()) return false;
    wait();  // join the previous, already finished worker
    m_cancel.store(false);
    m_running.store(true);
    qCInfo(lcRuns) << "starting a sweep of" << runs.size() << "runs";
    m_thread = std::thread([this, runs = std::move(runs)]() mutable { work(std::move(runs)); });
    return true;
}

void SweepRunner::cancel() {
    m_cancel.store(true);
}

void SweepRunner::wait() {
    if (m_thread.joinable()) m_thread.join();
}

void SweepRunner::work(std::vector<RunRequest> runs) {
    bool cancelled = false;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const int index = static_cast<int>(i);
        if (m_cancel.load()) {
            cancelled = true;
            break;
        }
        Q_EMIT runStarted(index);
        // Throttle: a run may report thousands of steps; the table needs a few updates per second.
        int lastPercent = -1;
        const ProgressFn progress = [&](double fraction) {
            const int percent = static_cast<int>(fraction * 100);
            if (percent != lastPercent) {
                lastPercent = percent;
                Q_EMIT runProgress(index, fraction);
            }
        };
        auto outcome = m_runOne(runs[i], progress, m_cancel);
        if (!outcome) {
            const bool wasCancelled = outcome.error().code == core::ErrorCode::Cancelled;
            Q_EMIT runFailed(index, QString::fromStdString(outcome.error().describe()), wasCancelled);
            if (wasCancelled) {
                cancelled = true;
                break;
            }
            continue;
        }
        if (outcome->trace && !outcome->timeline) outcome->timeline = TimelineData::build(*outcome->trace);
        Q_EMIT runFinished(index, std::move(*outcome));
    }
    cancelled = cancelled || m_cancel.load();
    m_running.store(false);
    Q_EMIT finished(cancelled);
}

}  // namespace tpscope::ui
