// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/analysis/layer_windows.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace tpscope::core::analysis {

namespace {

// Window `w` kept from its group's first start and step; `fits` false when a value does not fit.
struct Narrow {
    std::uint32_t offsetNs;
    std::uint32_t lengthNs;
    std::uint16_t layer;
    std::uint16_t stepOffset;
    bool fits;
};

Narrow narrow(const LayerWindow& w, std::int64_t groupStartNs, std::int64_t groupStep, std::uint32_t wideMarker) {
    // Differences of 64-bit values, taken only where they cannot overflow.
    const bool ordered = w.startNs >= groupStartNs && w.endNs >= w.startNs && w.step >= groupStep;
    const auto offset = ordered ? static_cast<std::uint64_t>(w.startNs) - static_cast<std::uint64_t>(groupStartNs) : 0;
    const auto length = ordered ? static_cast<std::uint64_t>(w.endNs) - static_cast<std::uint64_t>(w.startNs) : 0;
    const auto stepOffset = ordered ? static_cast<std::uint64_t>(w.step) - static_cast<std::uint64_t>(groupStep) : 0;
    constexpr std::uint64_t kNarrow = std::numeric_limits<std::uint16_t>::max();
    const bool fits = ordered && offset <= std::numeric_limits<std::uint32_t>::max() && length < wideMarker &&
                      stepOffset <= kNarrow && w.layer >= 0 && static_cast<std::uint64_t>(w.layer) <= kNarrow;
    return {static_cast<std::uint32_t>(offset), static_cast<std::uint32_t>(length), static_cast<std::uint16_t>(w.layer),
            static_cast<std::uint16_t>(stepOffset), fits};
}

}  // namespace

LayerWindows::LayerWindows(std::span<const LayerWindow> windows) {
    if (windows.size() >= kWide) throw std::length_error("layer windows: more than 2^32 - 1 windows in a rank");
    m_groups.resize((windows.size() + kGroup - 1) / kGroup);
    m_windows.resize(windows.size());
    for (std::size_t g = 0; g < m_groups.size(); ++g) {
        const std::size_t first = g * kGroup;
        const std::size_t last = std::min(windows.size(), first + kGroup);
        const Group group{windows[first].startNs, windows[first].step};
        m_groups[g] = group;
        for (std::size_t i = first; i < last; ++i) {
            const Narrow n = narrow(windows[i], group.startNs, group.step, kWide);
            if (n.fits) {
                m_windows[i] = {n.offsetNs, n.lengthNs, n.layer, n.stepOffset};
            } else {
                m_windows[i] = {0, kWide, 0, 0};
                m_wide.emplace_back(static_cast<std::uint32_t>(i), windows[i]);
            }
        }
    }
    m_wide.shrink_to_fit();
}

LayerWindow LayerWindows::wideAt(std::size_t i) const {
    const auto it = std::lower_bound(m_wide.begin(), m_wide.end(), i,
                                     [](const auto& w, std::size_t index) { return w.first < index; });
    return it != m_wide.end() && it->first == i ? it->second : LayerWindow{};
}

std::size_t LayerWindows::residentBytes() const {
    return m_groups.capacity() * sizeof(Group) + m_windows.capacity() * sizeof(Packed) +
           m_wide.capacity() * sizeof(m_wide.front());
}

}  // namespace tpscope::core::analysis
