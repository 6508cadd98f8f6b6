#pragma once
// Runs a sweep's runs one after another on a worker thread (the hotspot pattern: a QObject adapter
// that emits plain value types). Progress is reported per run; cancel() sets a flag the run
// function polls, so a sweep stops within one step of the current run and keeps the runs that
// finished. Signals are emitted from the worker thread and reach GUI-thread receivers queued.

#include <QObject>
#include <QString>

#include <atomic>
#include <memory>
#include <thread>
#include <vector>

#include "ui/services.h"

namespace tpscope::ui {

class SweepRunner : public QObject {
    Q_OBJECT

  public:
    using RunFn = decltype(Services::runOne);

    explicit SweepRunner(RunFn runOne, QObject* parent = nullptr);
    ~SweepRunner() override;  // cancels and joins

    // False (and nothing starts) while a sweep is running.
    bool start(std::vector<RunRequest> runs);
    void cancel();
    bool isRunning() const { return m_running.load(); }
    // Blocks until the worker has ended (tests, shutdown).
    void wait();

  Q_SIGNALS:
    void runStarted(int index);
    void runProgress(int index, double fraction);
    void runFinished(int index, tpscope::ui::RunOutcome outcome);
    void runFailed(int index, QString message, bool cancelled);
    void finished(bool cancelled);

  private:
    void work(std::vector<RunRequest> runs);

    RunFn m_runOne;
    std::thread m_thread;
    std::atomic<bool> m_running{false};
    CancelFlag m_cancel{false};
};

}  // namespace tpscope::ui
