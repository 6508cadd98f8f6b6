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

// "resident 2.9 GB, peak 3.3 GB" of this process (Linux /proc/self/status), for log lines that
// measure a large load; empty where the file is not there.
QString memoryUseText();

}  // namespace tpscope::ui
