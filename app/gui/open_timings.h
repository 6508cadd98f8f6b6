// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// `tpscope --screenshot OUT --timings`: how long the opening took, measured from inside, printed as one
// JSON line so that a script can compare builds (issue 47):
//   {"first_frame_s": 0.84, "complete_s": 4.71, "peak_rss_mb": 1890.2}
// first_frame_s: from the process's start to the end of the timeline's first paint with a trace
// (null when it never painted one); complete_s: to the grab of the complete view the screenshot saves;
// peak_rss_mb: the process's peak resident memory (getrusage, 10^6 bytes). Times are from the start
// of the process as the kernel recorded it (10 ms resolution), so they include loading the libraries.

#include <QObject>

#include <optional>
#include <string>

class QWidget;

namespace tpscope::app {

class OpenTimings final : public QObject {
  public:
    // Watches `timeline` (the main window's timeline view) for its first paint that shows a trace.
    explicit OpenTimings(QWidget* timeline);

    void markComplete() { m_completeS = secondsSinceProcessStart(); }
    // The JSON line, with a trailing newline.
    std::string jsonLine() const;

    // Seconds since this process started (Linux /proc/self/stat); since the first call where that is
    // not readable.
    static double secondsSinceProcessStart();

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    QWidget* m_timeline;
    std::optional<double> m_firstFrameS;
    std::optional<double> m_completeS;
};

}  // namespace tpscope::app
