// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/analysis/block_windows.h"

#include <algorithm>
#include <stdexcept>

namespace tpscope::core::analysis {

BlockWindows::BlockWindows(const std::vector<BlockWindow>& blocks) {
    if (blocks.size() > kWide) throw std::length_error("block windows: more than 2^32 - 1 blocks in a rank");
    std::size_t runs = 0;
    for (std::size_t i = 0; i < blocks.size(); ++i) {
        runs += i == 0 || blocks[i].step != blocks[i - 1].step || blocks[i].layer != blocks[i - 1].layer ? 1 : 0;
    }
    m_runs.reserve(runs);
    m_blocks.resize(blocks.size());
    for (std::size_t i = 0; i < blocks.size(); ++i) {
        const BlockWindow& b = blocks[i];
        if (m_runs.empty() || b.step != m_runs.back().step || b.layer != m_runs.back().layer) {
            m_runs.push_back({b.step, b.startNs, b.layer, static_cast<std::uint32_t>(i)});
        }
        const Run& run = m_runs.back();
        // Differences of 64-bit times, taken only where they cannot overflow.
        const bool ordered = b.startNs >= run.baseNs && b.endNs >= b.startNs;
        const auto offset =
            ordered ? static_cast<std::uint64_t>(b.startNs) - static_cast<std::uint64_t>(run.baseNs) : 0;
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
    m_wide.shrink_to_fit();
}

std::size_t BlockWindows::runOf(std::size_t block) const {
    const auto it = std::upper_bound(m_runs.begin(), m_runs.end(), block,
                                     [](std::size_t b, const Run& run) { return b < run.firstBlock; });
    return static_cast<std::size_t>(it - m_runs.begin()) - 1;
}

BlockWindow BlockWindows::unpack(std::size_t block, std::size_t run) const {
    const Packed& p = m_blocks[block];
    if (p.lengthAndKind == kWide) {
        const auto it = std::lower_bound(m_wide.begin(), m_wide.end(), block,
                                         [](const auto& w, std::size_t b) { return w.first < b; });
        return it != m_wide.end() && it->first == block ? it->second : BlockWindow{};
    }
    const Run& r = m_runs[run];
    const std::int64_t start = r.baseNs + static_cast<std::int64_t>(p.offsetNs);
    return {r.step, r.layer, (p.lengthAndKind & kKindBit) != 0 ? BlockKind::Mlp : BlockKind::Attention, start,
            start + static_cast<std::int64_t>(p.lengthAndKind & ~kKindBit)};
}

std::size_t BlockWindows::residentBytes() const {
    return m_runs.capacity() * sizeof(Run) + m_blocks.capacity() * sizeof(Packed) +
           m_wide.capacity() * sizeof(m_wide.front());
}

}  // namespace tpscope::core::analysis
