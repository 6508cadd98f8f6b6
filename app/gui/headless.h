// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// What tpscope does without a screen: render the main window to a PNG (--screenshot) and write the
// default sweep's report (--report): screenshots and a Markdown summary. Both run the real window
// on the offscreen platform and wait for its worker threads through its signals.

#include <QString>
#include <QStringList>

namespace tpscope::ui {
class MainWindow;
}

namespace tpscope::app {
class OpenTimings;
}

namespace tpscope::app {

// Opens `file` (or runs the embedded default sweep when empty), renders the window to `out`; with
// `timings`, marks there when the complete view was grabbed.
int takeScreenshot(ui::MainWindow& window, const QString& out, const QString& file, OpenTimings* timings = nullptr);
// Opens 2–4 files and renders the window on the Compare tab of their runs (2–4 in all).
int takeCompareScreenshot(ui::MainWindow& window, const QString& out, const QStringList& files);
// Opens `files` (none: runs the embedded default sweep) and writes screenshots and summary.md of
// them into `dir`; report.pdf beside them comes from the same files (main.cpp), so DIR never mixes inputs.
int writeReport(ui::MainWindow& window, const QString& dir, const QStringList& files = {});

}  // namespace tpscope::app
