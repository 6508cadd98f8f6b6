// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "open_timings.h"

#include <QElapsedTimer>
#include <QEvent>

#include <sys/resource.h>
#include <unistd.h>

#include <charconv>
#include <cmath>
#include <ctime>
#include <fstream>
#include <iterator>
#include <sstream>
#include <system_error>

#include "core/util/json_writer.h"
#include "ui/timeline/timeline_view.h"

namespace tpscope::app {

namespace {

// The process's start in seconds since boot: field 22 of /proc/self/stat, in clock ticks. The fields
// are counted after the command name's closing parenthesis (the name itself may hold spaces).
std::optional<double> processStartSinceBoot() {
    std::ifstream in("/proc/self/stat");
    const std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto close = stat.rfind(')');
    if (close == std::string::npos) return std::nullopt;
    std::istringstream fields(stat.substr(close + 1));
    std::string field;
    for (int i = 3; i <= 22 && fields >> field; ++i) {
        if (i == 22) {
            const long ticksPerSec = sysconf(_SC_CLK_TCK);
            if (ticksPerSec <= 0) return std::nullopt;
            long long ticks = 0;  // an integer: from_chars reads it the same under every locale
            const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), ticks);
            if (error != std::errc() || end != field.data() + field.size()) return std::nullopt;
            return static_cast<double>(ticks) / static_cast<double>(ticksPerSec);
        }
    }
    return std::nullopt;
}

// Rounded to the millisecond: the JSON line is for people and scripts, not for nanoseconds.
double milliRounded(double seconds) {
    return std::round(seconds * 1000.0) / 1000.0;
}

}  // namespace

OpenTimings::OpenTimings(QWidget* timeline) : m_timeline(timeline) {
    secondsSinceProcessStart();  // starts the fallback clock as early as possible
    m_timeline->installEventFilter(this);
}

double OpenTimings::secondsSinceProcessStart() {
    static QElapsedTimer fallback;
    if (!fallback.isValid()) fallback.start();
    static const std::optional<double> start = processStartSinceBoot();
    timespec now{};
    if (start && clock_gettime(CLOCK_BOOTTIME, &now) == 0) {
        const double since = static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) / 1e9 - *start;
        if (since >= 0) return since;
    }
    return static_cast<double>(fallback.nsecsElapsed()) / 1e9;
}

// The paint is delivered here first; it is run now so that the time taken is that of its end.
bool OpenTimings::eventFilter(QObject* watched, QEvent* event) {
    if (watched != m_timeline || event->type() != QEvent::Paint || m_firstFrameS) return false;
    const auto* view = qobject_cast<const ui::TimelineView*>(m_timeline);
    if (view == nullptr || view->trace() == nullptr) return false;
    static_cast<QObject*>(m_timeline)->event(event);
    m_firstFrameS = secondsSinceProcessStart();
    return true;
}

std::string OpenTimings::jsonLine() const {
    rusage usage{};
    const bool haveUsage = getrusage(RUSAGE_SELF, &usage) == 0;
    std::ostringstream out;
    core::JsonWriter json(out, /*pretty=*/false);
    json.beginObject();
    json.key("first_frame_s");
    m_firstFrameS ? json.value(milliRounded(*m_firstFrameS)) : json.null();
    json.key("complete_s");
    m_completeS ? json.value(milliRounded(*m_completeS)) : json.null();
    json.key("peak_rss_mb");
    // ru_maxrss is in KiB on Linux.
    haveUsage ? json.value(std::round(static_cast<double>(usage.ru_maxrss) * 1024.0 / 1e5) / 10.0) : json.null();
    json.endObject();
    return out.str() + "\n";
}

}  // namespace tpscope::app
