// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/logging.h"

#include <QFile>

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
    return QStringLiteral("resident %1 GB, peak %2 GB").arg(resident, peak);
}

}  // namespace tpscope::ui
