// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/jobs/document_loader.h"

#include <utility>
#include "ui/logging.h"

namespace tpscope::ui {

DocumentLoader::DocumentLoader(OpenFn open, QObject* parent) : QObject(parent), m_open(std::move(open)) {
    qRegisterMetaType<tpscope::ui::OpenedDocument>();
    qRegisterMetaType<tpscope::ui::RunRecord>();
}

// Waits: the open function (a test's fake, a service) may refer to what the loader's owner owns.
DocumentLoader::~DocumentLoader() {
    cancel();
    wait();
}

void DocumentLoader::start(const QString& path) {
    cancel();
    JobHandlers<OpenedDocument, RunRecord> handlers;
    handlers.progress = [this](double f) { Q_EMIT progress(f); };
    handlers.partial = [this](const RunRecord& run) { Q_EMIT preview(run); };
    handlers.result = [this](OpenedDocument document) {
        m_job = {};
        Q_EMIT loaded(std::move(document));
    };
    handlers.failed = [this, path](const core::Error& error) {
        m_job = {};
        const QString message = QString::fromStdString(error.message);
        qCWarning(lcDocument) << "could not open" << path << ":" << message;
        Q_EMIT failed(path, message);
    };
    m_job = startJob<OpenedDocument, RunRecord>(
        this, path.toStdString(),
        [open = m_open, path](const JobContext<RunRecord>& job) {
            return open(path, job.control, [&job](const RunRecord& run) { job.hand(run); });
        },
        std::move(handlers));
    qCInfo(lcDocument) << "opening" << path << "job" << m_job.id();
}

void DocumentLoader::cancel() {
    if (m_job.id() == 0) return;
    m_job.abandon();
    std::erase_if(m_abandoned, [](const JobHandle& job) { return !job.isRunning(); });
    m_abandoned.push_back(std::exchange(m_job, {}));
}

void DocumentLoader::wait() {
    m_job.wait();
    for (auto& job : m_abandoned) job.wait();
    m_abandoned.clear();
}

}  // namespace tpscope::ui
