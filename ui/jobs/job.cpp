// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/jobs/job.h"

#include <QCoreApplication>
#include <QThread>

#include <algorithm>

namespace tpscope::ui {

JobId nextJobId() {
    static std::atomic<JobId> last{0};
    return ++last;
}

QThreadPool* jobPool() {
    auto* app = QCoreApplication::instance();
    const QString name = QStringLiteral("tpscope-jobs");
    auto* pool = app->findChild<QThreadPool*>(name, Qt::FindDirectChildrenOnly);
    if (pool == nullptr) {
        pool = new QThreadPool(app);
        pool->setObjectName(name);
        pool->setMaxThreadCount(std::max(4, QThread::idealThreadCount()));
    }
    return pool;
}

}  // namespace tpscope::ui
