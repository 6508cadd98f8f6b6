// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/document_loader.h"

#include "ui/logging.h"
#include "ui/worker_guard.h"

namespace tpscope::ui {

DocumentLoader::DocumentLoader(OpenFn open, QObject* parent) : QObject(parent), m_open(std::move(open)) {
    qRegisterMetaType<tpscope::ui::OpenedDocument>();
    qRegisterMetaType<tpscope::ui::RunRecord>();
    // Two threads: a new load starts at once while a cancelled one finishes its current chunk.
    m_pool.setMaxThreadCount(2);
    connect(this, &DocumentLoader::workerProgress, this, [this](quint64 generation, double f) {
        if (m_current && generation == m_current->generation) Q_EMIT progress(f);
    });
    connect(this, &DocumentLoader::workerPreview, this, [this](quint64 generation, RunRecord run) {
        if (m_current && generation == m_current->generation) Q_EMIT preview(std::move(run));
    });
    connect(this, &DocumentLoader::workerDone, this, &DocumentLoader::onWorkerDone);
}

DocumentLoader::~DocumentLoader() {
    cancel();
    wait();
}

void DocumentLoader::start(const QString& path) {
    cancel();
    auto job = std::make_shared<Job>();
    job->generation = ++m_generation;
    m_current = job;
    qCInfo(lcDocument) << "opening" << path << "generation" << job->generation;
    m_pool.start([this, job, path] {
        const TaskControl control{[this, &job](double f) { Q_EMIT workerProgress(job->generation, f, {}); },
                                  &job->cancel};
        const OpenPreviewFn preview = [this, &job](const RunRecord& run) {
            Q_EMIT workerPreview(job->generation, run, {});
        };
        auto result = guardWorker([&] { return m_open(path, control, preview); }, path.toStdString());
        if (result) {
            Q_EMIT workerDone(job->generation, path, std::move(*result), QString(), {});
        } else {
            Q_EMIT workerDone(job->generation, path, OpenedDocument{}, QString::fromStdString(result.error().message),
                              {});
        }
    });
}

void DocumentLoader::onWorkerDone(quint64 generation, const QString& path, OpenedDocument document,
                                  const QString& error) {
    if (!m_current || generation != m_current->generation) return;  // superseded or cancelled
    m_current.reset();
    if (error.isEmpty()) {
        Q_EMIT loaded(std::move(document));
    } else {
        qCWarning(lcDocument) << "could not open" << path << ":" << error;
        Q_EMIT failed(path, error);
    }
}

void DocumentLoader::cancel() {
    if (m_current) m_current->cancel.store(true);
    m_current.reset();
}

void DocumentLoader::wait() {
    m_pool.waitForDone();
}

}  // namespace tpscope::ui
