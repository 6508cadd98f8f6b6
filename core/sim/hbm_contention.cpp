// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/sim/hbm_contention.h"

#include <algorithm>

namespace tpscope::core::sim {

void HbmWindows::push(const HbmWindow& w) {
    m_slots[static_cast<std::size_t>(m_next)] = w;
    m_next = (m_next + 1) % kWindows;
}

double HbmWindows::stretchedEnd(double startNs, double workNs) const {
    // The ring is written alternately, so slot 0 may hold the newer window: walk a time-ordered copy,
    // or the older window's slowdown would be skipped once the kernel is past the newer one's start.
    std::array<HbmWindow, kWindows> windows = m_slots;
    std::sort(windows.begin(), windows.end(),
              [](const HbmWindow& a, const HbmWindow& b) { return a.startNs < b.startNs; });
    double t = startNs;
    double left = workNs;
    for (const HbmWindow& w : windows) {
        if (left <= 0) break;
        if (w.endNs <= t || w.share <= 0) continue;
        if (w.startNs > t) {
            const double free = w.startNs - t;
            if (left <= free) return t + left;
            left -= free;
            t = w.startNs;
        }
        const double rate = 1.0 - w.share;
        const double inside = (w.endNs - t) * rate;
        if (left <= inside) return t + left / rate;
        left -= inside;
        t = w.endNs;
    }
    return t + left;
}

}  // namespace tpscope::core::sim
