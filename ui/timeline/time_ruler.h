// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The adaptive time ruler: tick spacing from the 1-2-5 series so that labels sit at least
// minSpacingPx apart, and labels in the unit that suits the spacing (ns, µs, ms, s), relative to
// the trace origin. Pure functions, tested without a screen.

#include <QString>

#include <cstdint>
#include <vector>

namespace tpscope::ui {

struct RulerTick {
    std::int64_t timeNs = 0;  // relative to the origin
    bool major = false;       // labelled
};

// The smallest 1-2-5 x 10^k step (ns, >= 1) whose width in pixels is at least minSpacingPx.
std::int64_t tickStepNs(double nsPerPx, double minSpacingPx);
// Major ticks every step, four minor ticks between (five for 2-steps), covering [t0, t1).
std::vector<RulerTick> rulerTicks(std::int64_t t0, std::int64_t t1, std::int64_t stepNs);
// "150 µs", "12.3456 ms": the unit suits magnitudeNs (the largest time shown, so every label of a
// ruler uses one unit), with just enough decimals to tell ticks stepNs apart.
QString formatTickLabel(std::int64_t timeNs, std::int64_t stepNs, std::int64_t magnitudeNs);
// A duration for tooltips and tables: "812 ns", "12.41 µs", "15.203 ms", "1.2035 s".
QString formatDuration(double ns);

}  // namespace tpscope::ui
