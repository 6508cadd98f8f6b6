// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// One logging category per area of the GUI; enable with QT_LOGGING_RULES="tpscope.*.debug=true".

#include <QLoggingCategory>

namespace tpscope::ui {

Q_DECLARE_LOGGING_CATEGORY(lcTimeline)
Q_DECLARE_LOGGING_CATEGORY(lcRuns)
Q_DECLARE_LOGGING_CATEGORY(lcDocument)
Q_DECLARE_LOGGING_CATEGORY(lcApp)

// "resident 2.9 GB, peak 3.3 GB, cpu 12.5 s" of this process (Linux /proc/self/status and its CPU
// time over all threads), for log lines that measure a large load; empty where the file is not there.
QString memoryUseText();

}  // namespace tpscope::ui
