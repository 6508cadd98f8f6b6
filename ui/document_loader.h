// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Opens a file (workspace, Kineto JSON, rank folder, nsys SQLite) on a worker thread through
// Services::open and emits the result as a value: loaded(OpenedDocument) or failed(path, message).
// Each run's timeline data and analysis are derived on the same thread; before that, preview(run)
// hands over the first run with its trace and timeline rows (TimelineData::buildRows), so that a
// large file paints while it is analysed.
//
// A new load cancels the previous one without waiting for it: the superseded worker winds down on
// the loader's own thread pool while the new one starts, so the GUI thread never blocks. Every
// result carries its load's generation and is checked on the GUI thread, so a queued result of a
// superseded (or cancelled) load is never applied.

#include <QObject>
#include <QString>
#include <QThreadPool>

#include <atomic>
#include <memory>

#include "ui/services.h"

namespace tpscope::ui {

class DocumentLoader : public QObject {
    Q_OBJECT

  public:
    using OpenFn = decltype(Services::open);

    explicit DocumentLoader(OpenFn open, QObject* parent = nullptr);
    ~DocumentLoader() override;

    void start(const QString& path);
    void cancel();
    bool isLoading() const { return m_current != nullptr; }
    // Blocks until every worker has ended (tests, shutdown).
    void wait();

  Q_SIGNALS:
    void progress(double fraction);
    void preview(tpscope::ui::RunRecord firstRun);
    void loaded(tpscope::ui::OpenedDocument document);
    void failed(QString path, QString message);
    // Worker -> GUI thread; checked against the current generation there.
    void workerProgress(quint64 generation, double fraction, QPrivateSignal);
    void workerPreview(quint64 generation, tpscope::ui::RunRecord firstRun, QPrivateSignal);
    void workerDone(quint64 generation, QString path, tpscope::ui::OpenedDocument document, QString error,
                    QPrivateSignal);

  private:
    struct Job {
        quint64 generation = 0;
        CancelFlag cancel{false};
    };
    void onWorkerDone(quint64 generation, const QString& path, OpenedDocument document, const QString& error);

    OpenFn m_open;
    QThreadPool m_pool;
    std::shared_ptr<Job> m_current;  // GUI thread only
    quint64 m_generation = 0;        // GUI thread only
};

}  // namespace tpscope::ui
