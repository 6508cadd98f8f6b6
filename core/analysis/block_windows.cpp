// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/analysis/block_windows.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace tpscope::core::analysis {

namespace {

bool sameRun(const BlockWindow& a, const BlockWindow& b) {
    return a.step == b.step && a.layer == b.layer;
}

}  // namespace

BlockWindows::BlockWindows(const std::vector<BlockWindow>& blocks) {
    if (blocks.size() > kWide) throw std::length_error("block windows: more than 2^32 - 1 blocks in a rank");
    std::size_t runs = 0;
    for (std::size_t i = 0; i < blocks.size(); ++i) runs += i == 0 || !sameRun(blocks[i], blocks[i - 1]) ? 1 : 0;
    m_runs.reserve(runs);
    m_groups.reserve((runs + kGroup - 1) / kGroup);
    m_blocks.resize(blocks.size());
    for (std::size_t i = 0; i < blocks.size(); ++i) {
        const BlockWindow& b = blocks[i];
        if (i == 0 || !sameRun(b, blocks[i - 1])) {
            if (m_runs.size() % kGroup == 0) m_groups.push_back({b.startNs, b.step});
            const Group& g = m_groups.back();
            const std::size_t run = m_runs.size();
            // Differences of 64-bit values, taken only where they cannot overflow.
            const auto stepOffset =
                b.step >= g.step ? static_cast<std::uint64_t>(b.step) - static_cast<std::uint64_t>(g.step) : kWideRun;
            const bool fits =
                stepOffset < kWideRun && b.layer >= 0 && b.layer <= std::numeric_limits<std::uint16_t>::max();
            m_runs.push_back({static_cast<std::uint32_t>(i),
                              fits ? static_cast<std::uint16_t>(b.layer) : std::uint16_t{0},
                              fits ? static_cast<std::uint16_t>(stepOffset) : kWideRun});
            if (!fits) m_wideRuns.emplace_back(static_cast<std::uint32_t>(run), StepLayer{b.step, b.layer});
        }
        const Group& g = m_groups.back();
        const bool ordered = b.startNs >= g.startNs && b.endNs >= b.startNs;
        const auto offset = ordered ? static_cast<std::uint64_t>(b.startNs) - static_cast<std::uint64_t>(g.startNs) : 0;
        const auto length = ordered ? static_cast<std::uint64_t>(b.endNs) - static_cast<std::uint64_t>(b.startNs) : 0;
        const auto kind = static_cast<std::uint32_t>(b.kind);
        if (!ordered || offset >= kWide || length >= kKindBit - 1 || kind > 1) {
            m_blocks[i].lengthAndKind = kWide;
            m_wide.emplace_back(static_cast<std::uint32_t>(i), b);
            continue;
        }
        m_blocks[i] = {static_cast<std::uint32_t>(offset),
                       static_cast<std::uint32_t>(length) | (kind != 0 ? kKindBit : 0)};
    }
    m_wideRuns.shrink_to_fit();
    m_wide.shrink_to_fit();
}

std::size_t BlockWindows::runOf(std::size_t block) const {
    const auto it = std::upper_bound(m_runs.begin(), m_runs.end(), block,
                                     [](std::size_t b, const Run& run) { return b < run.firstBlock; });
    return static_cast<std::size_t>(it - m_runs.begin()) - 1;
}

BlockWindows::StepLayer BlockWindows::stepLayer(std::size_t run) const {
    const Run& r = m_runs[run];
    if (r.stepOffset == kWideRun) {
        const auto it = std::lower_bound(m_wideRuns.begin(), m_wideRuns.end(), run,
                                         [](const auto& w, std::size_t i) { return w.first < i; });
        return it != m_wideRuns.end() && it->first == run ? it->second : StepLayer{};
    }
    return {m_groups[run / kGroup].step + static_cast<std::int64_t>(r.stepOffset), static_cast<int>(r.layer)};
}

BlockWindow BlockWindows::unpack(std::size_t block, std::size_t run) const {
    const Packed& p = m_blocks[block];
    if (p.lengthAndKind == kWide) {
        const auto it = std::lower_bound(m_wide.begin(), m_wide.end(), block,
                                         [](const auto& w, std::size_t b) { return w.first < b; });
        return it != m_wide.end() && it->first == block ? it->second : BlockWindow{};
    }
    const StepLayer sl = stepLayer(run);
    const std::int64_t start = m_groups[run / kGroup].startNs + static_cast<std::int64_t>(p.offsetNs);
    return {sl.step, sl.layer, (p.lengthAndKind & kKindBit) != 0 ? BlockKind::Mlp : BlockKind::Attention, start,
            start + static_cast<std::int64_t>(p.lengthAndKind & ~kKindBit)};
}

std::size_t BlockWindows::residentBytes() const {
    return m_groups.capacity() * sizeof(Group) + m_runs.capacity() * sizeof(Run) +
           m_blocks.capacity() * sizeof(Packed) + m_wideRuns.capacity() * sizeof(m_wideRuns.front()) +
           m_wide.capacity() * sizeof(m_wide.front());
}

}  // namespace tpscope::core::analysis
