// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/timeline/time_ruler.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "core/util/units.h"

namespace tpscope::ui {

std::int64_t tickStepNs(double nsPerPx, double minSpacingPx) {
    const double minStep = std::max(1.0, nsPerPx * minSpacingPx);
    std::int64_t decade = 1;
    while (decade <= INT64_MAX / 10 && static_cast<double>(decade) * 10 <= minStep) decade *= 10;
    for (const std::int64_t m : {1, 2, 5, 10}) {
        if (static_cast<double>(decade * m) >= minStep) return decade * m;
    }
    return decade * 10;
}

std::vector<RulerTick> rulerTicks(std::int64_t t0, std::int64_t t1, std::int64_t stepNs) {
    std::vector<RulerTick> ticks;
    if (stepNs <= 0 || t1 <= t0) return ticks;
    // A 2-step splits into 4 minors of 0.5; 1- and 5-steps into 5 minors.
    std::int64_t leading = stepNs;
    while (leading >= 10) leading /= 10;
    const std::int64_t minors = leading == 2 ? 4 : 5;
    const std::int64_t minorStep = std::max<std::int64_t>(1, stepNs / minors);
    std::int64_t t = t0 >= 0 ? t0 / minorStep * minorStep : -((-t0 + minorStep - 1) / minorStep) * minorStep;
    for (; t < t1; t += minorStep) {
        if (t < t0) continue;
        ticks.push_back({t, t % stepNs == 0});
    }
    return ticks;
}

namespace {

QString formatIn(double ns, double unitNs, const char* unit, int decimals) {
    return QStringLiteral("%1 %2").arg(ns / unitNs, 0, 'f', decimals).arg(QString::fromUtf8(unit));
}

int decimalsFor(double stepInUnit) {
    int decimals = 0;
    while (decimals < 6 && stepInUnit * std::pow(10.0, decimals) < 0.999) ++decimals;
    return decimals;
}

}  // namespace

QString formatTickLabel(std::int64_t timeNs, std::int64_t stepNs, std::int64_t magnitudeNs) {
    const auto ns = static_cast<double>(timeNs);
    const auto step = static_cast<double>(stepNs);
    const auto magnitude = static_cast<double>(std::max(std::abs(magnitudeNs), stepNs));
    if (magnitude >= 1e9) return formatIn(ns, 1e9, "s", decimalsFor(step / 1e9));
    if (magnitude >= 1e6) return formatIn(ns, 1e6, "ms", decimalsFor(step / 1e6));
    if (magnitude >= 1e3) return formatIn(ns, 1e3, "µs", decimalsFor(step / 1e3));
    return formatIn(ns, 1, "ns", 0);
}

QString formatDuration(double ns) {
    return QString::fromStdString(core::formatDurationNs(ns, core::DurationStyle::Detail));
}

}  // namespace tpscope::ui
