// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// One job abstraction for the long work the window runs on a worker thread: a sweep, opening a file,
// saving a workspace, a what-if replay. A job is {id, progress, cancel, result, failed}:
//   id        unique in the process (JobHandle::id); an owner that replaced a job (a second open)
//             compares ids and drops the late outcome of the old one;
//   progress  the work reports fractions through core::TaskControl; the owner's thread gets them
//             queued and coalesced (QFutureWatcher), never more often than it can paint;
//   cancel    JobHandle::cancel sets the flag the work polls (TaskControl::cancel) and never blocks;
//             the work returns ErrorCode::Cancelled at its next check;
//   result / failed  exactly one of them, on the owner's thread, always: a job whose work never ran
//             (its task dropped from the pool) fails as Cancelled. An exception that escapes the work
//             (std::bad_alloc on a trace larger than memory) is its error (guardWorker), so it ends in
//             the window's error banner, never in std::terminate;
//   partial   values the work hands over before its end (a file's first run, each run of a sweep), in
//             order, on the owner's thread.
// The worker holds the work's own captures and the job's shared state, never the owner: an owner that
// goes away (the window closed during a replay) abandons the job and returns at once; its handlers
// live in a watcher it parents, so none runs after it is gone. Partial values stay in the job's future until
// the last JobHandle to it is dropped. Exports paint widgets, which only the GUI thread may do: they
// run there and report through the same error banner, not through a job.

#include <QFuture>
#include <QFutureWatcher>
#include <QObject>
#include <QPromise>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>

#include "core/util/result.h"
#include "core/util/task_control.h"
#include "ui/jobs/worker_guard.h"

namespace tpscope::ui {

using JobId = quint64;

// A new id, unique in the process (> 0).
JobId nextJobId();

// The jobs' threads: a pool owned by the application object, so that its end waits for workers
// (each stops at its next cancel check) and never for another program part's pool. More threads
// than cores: a cancelled open winds down while the next one starts. Call on the GUI thread.
QThreadPool* jobPool();

namespace detail {

struct JobShared {
    JobId id = 0;
    core::CancelFlag cancel{false};
    std::atomic<bool> abandoned{false};  // set and read on the owner's thread
};

template <typename T, typename Partial>
struct JobMessage {
    std::shared_ptr<const Partial> partial;    // a value handed over before the end
    std::shared_ptr<core::Result<T>> outcome;  // the end
};

}  // namespace detail

// What the work gets: its control (progress, cancel) and, for jobs with partial values, hand().
template <typename Partial = std::monostate>
struct JobContext {
    core::TaskControl control;
    std::function<void(Partial)> hand;
};

// Called on the owner's thread. Empty functions are skipped.
template <typename T, typename Partial = std::monostate>
struct JobHandlers {
    std::function<void(double fraction)> progress;
    std::function<void(const Partial&)> partial;
    std::function<void(T result)> result;
    std::function<void(const core::Error& error)> failed;  // code Cancelled when the work stopped on cancel
};

// The owner's side of a job: cheap to copy; a default one is no job.
class JobHandle {
  public:
    JobHandle() = default;
    JobId id() const { return m_shared ? m_shared->id : 0; }
    // The worker has not returned yet (a cancelled one may still be winding down).
    bool isRunning() const { return m_shared && !m_future.isFinished(); }
    void cancel() const {
        if (m_shared) m_shared->cancel.store(true);
    }
    bool cancelRequested() const { return m_shared && m_shared->cancel.load(); }
    // Cancels and drops the outcome: no handler of this job runs again (a replaced open, an owner
    // that closes). The worker winds down on its own.
    void abandon() const {
        if (!m_shared) return;
        m_shared->abandoned.store(true);
        cancel();
    }
    // Blocks until the worker has returned (tests, and owners whose work captures them).
    void wait() {
        if (m_shared) m_future.waitForFinished();
    }

    // startJob's.
    JobHandle(std::shared_ptr<detail::JobShared> shared, QFuture<void> future)
        : m_shared(std::move(shared)), m_future(std::move(future)) {}

  private:
    std::shared_ptr<detail::JobShared> m_shared;
    QFuture<void> m_future;
};

// Runs work on pool (jobPool() by default); handlers run on owner's thread while owner lives.
// what names the work in an exception's error ("what-if replay", a path).
template <typename T, typename Partial = std::monostate>
JobHandle startJob(QObject* owner, std::string what,
                   std::type_identity_t<std::function<core::Result<T>(const JobContext<Partial>&)>> work,
                   std::type_identity_t<JobHandlers<T, Partial>> handlers, QThreadPool* pool = nullptr) {
    using Message = detail::JobMessage<T, Partial>;
    auto shared = std::make_shared<detail::JobShared>();
    shared->id = nextJobId();
    QFuture<Message> future = QtConcurrent::run(
        pool != nullptr ? pool : jobPool(),
        [shared, what = std::move(what), work = std::move(work)](QPromise<Message>& promise) {
            promise.setProgressRange(0, 1000);
            JobContext<Partial> context;
            context.control.cancel = &shared->cancel;
            context.control.progress = [&promise](double f) { promise.setProgressValue(static_cast<int>(f * 1000)); };
            context.hand = [&promise](Partial p) {
                promise.addResult(Message{std::make_shared<const Partial>(std::move(p)), nullptr});
            };
            auto outcome = std::make_shared<core::Result<T>>(guardWorker([&] { return work(context); }, what));
            promise.addResult(Message{nullptr, std::move(outcome)});
        });
    auto* watcher = new QFutureWatcher<Message>(owner);
    auto owned = std::make_shared<JobHandlers<T, Partial>>(std::move(handlers));
    auto ended = std::make_shared<bool>(false);  // an outcome was handed to the owner (GUI thread only)
    if (owned->progress) {
        QObject::connect(watcher, &QFutureWatcherBase::progressValueChanged, watcher, [shared, h = owned](int value) {
            if (!shared->abandoned.load()) h->progress(value / 1000.0);
        });
    }
    QObject::connect(watcher, &QFutureWatcherBase::resultsReadyAt, watcher,
                     [watcher, shared, ended, h = owned](int begin, int end) {
                         for (int i = begin; i < end; ++i) {
                             const Message message = watcher->resultAt(i);
                             if (shared->abandoned.load()) {
                                 if (!message.partial) watcher->deleteLater();
                                 continue;
                             }
                             if (message.partial) {
                                 if (h->partial) h->partial(*message.partial);
                                 continue;
                             }
                             watcher->deleteLater();
                             if (!message.outcome || *ended) continue;
                             *ended = true;
                             if (*message.outcome) {
                                 if (h->result) h->result(std::move(**message.outcome));
                             } else if (h->failed) {
                                 h->failed(message.outcome->error());
                             }
                         }
                     });
    // A job whose work never ran (its pool dropped the task, the pool went away) finishes without an
    // outcome: it ends as cancelled, so no owner waits for it forever ("saving…" that never ends).
    QObject::connect(watcher, &QFutureWatcherBase::finished, watcher, [watcher, shared, ended, h = owned] {
        if (*ended) return;
        *ended = true;
        watcher->deleteLater();
        if (shared->abandoned.load() || !h->failed) return;
        h->failed(core::makeError(core::ErrorCode::Cancelled, "the job stopped before it produced a result"));
    });
    watcher->setFuture(future);
    return JobHandle(std::move(shared), QFuture<void>(future));
}

}  // namespace tpscope::ui
