// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// HBM contention in overlap mode: while a collective moves bytes it takes a share of the rank's HBM
// bandwidth, so a memory-bound kernel that overlaps it runs at (1 - share) of its speed for the
// overlapping part.
//
// Input: the last kWindows collective windows of one rank ([startNs, endNs) at a share of HBM), kept
// in a ring that is overwritten oldest first, and a kernel's start and its work in ns at full speed.
// Mapping: the kernel's end, walking the windows in time order (the ring's slots are not), each
// window slowing the part of the kernel inside it. Cost: O(kWindows).

#include <array>

namespace tpscope::core::sim {

struct HbmWindow {  // a collective moving bytes on one rank: [startNs, endNs) at `share` of HBM
    double startNs = 0;
    double endNs = 0;
    double share = 0;
};

class HbmWindows {
  public:
    static constexpr int kWindows = 2;  // windows are few: the last two collectives

    // Replaces the oldest window.
    void push(const HbmWindow& w);
    // End of a kernel of `workNs` (at full HBM bandwidth) started at `startNs`.
    double stretchedEnd(double startNs, double workNs) const;

  private:
    std::array<HbmWindow, kWindows> m_slots{};
    int m_next = 0;
};

}  // namespace tpscope::core::sim
