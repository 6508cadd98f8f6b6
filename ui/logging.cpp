// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/logging.h"

#include <QFile>

#include <ctime>

namespace tpscope::ui {

Q_LOGGING_CATEGORY(lcTimeline, "tpscope.timeline", QtWarningMsg)
Q_LOGGING_CATEGORY(lcRuns, "tpscope.runs", QtWarningMsg)
Q_LOGGING_CATEGORY(lcDocument, "tpscope.document", QtWarningMsg)
Q_LOGGING_CATEGORY(lcApp, "tpscope.app", QtWarningMsg)

QString memoryUseText() {
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly | QIODevice::Text)) return {};
    QString resident, peak;
    const auto gb = [](const QByteArray& line) {  // "VmRSS:\t  123456 kB"
        const QList<QByteArray> parts = line.simplified().split(' ');
        return parts.size() >= 2 ? QString::number(parts[1].toDouble() / (1024.0 * 1024.0), 'f', 2) : QString();
    };
    for (QByteArray line = status.readLine(); !line.isEmpty(); line = status.readLine()) {
        if (line.startsWith("VmRSS:")) resident = gb(line);
        if (line.startsWith("VmHWM:")) peak = gb(line);
    }
    if (resident.isEmpty() || peak.isEmpty()) return {};
    // The process's CPU time (all threads, user and system): on a shared machine a stage's wall time is
    // mostly waiting for a core, its CPU time much less so.
    timespec cpu{};
    const QString cpuText =
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu) == 0
            ? QStringLiteral(", cpu %1 s")
                  .arg(static_cast<double>(cpu.tv_sec) + static_cast<double>(cpu.tv_nsec) / 1e9, 0, 'f', 2)
            : QString();
    return QStringLiteral("resident %1 GB, peak %2 GB").arg(resident, peak) + cpuText;
}

}  // namespace tpscope::ui
