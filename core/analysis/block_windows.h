// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// A rank's attention and MLP blocks (RankSegmentation::blocks), held compactly: two a layer, 20 M
// at 100 M events (640 MB as BlockWindow values).
//
// Input: blocks in start order (layer_blocks.h makes them), those of one layer together. Mapping:
// each run of blocks with one (step, layer) is a run; each group of 64 consecutive runs keeps its
// first block's start and its first run's step key once (16 bytes); a run keeps its first block's
// index, its layer index and its step key's offset from the group's in 16 bits each (8 bytes); a
// block keeps its start as a 32-bit offset from its group's start and its length in 31 bits, the
// kind in the top bit (8 bytes). A run whose layer index is outside [0, 65535] or whose step key is
// below its group's or 65,535 or more above it keeps its (step, layer) in a side table; a block whose
// offset or length does not fit (a block of 2.1 s or more, a start before its group's or 4.29 s or
// more after it) is kept whole in another: every block reads back exactly as given.
// Cost: 8 bytes a block, 8 a run and 16 a group of 64 runs (about 12 a block for two blocks a layer;
// 24 a run before). Block i by index: O(log runs); while iterating: O(1) a block (plus O(log wide
// blocks or runs) when any is wide).

#include <cstdint>
#include <utility>
#include <vector>

#include "core/analysis/run_iterator.h"

namespace tpscope::core::analysis {

enum class BlockKind : std::uint8_t { Attention = 0, Mlp };

// A layer's attention or MLP block, from NVTX ranges or derived from the kernel sequence.
struct BlockWindow {
    std::int64_t step = 0;  // step key
    int layer = 0;
    BlockKind kind = BlockKind::Attention;
    std::int64_t startNs = 0;
    std::int64_t endNs = 0;
};

class BlockWindows {
  public:
    using Iterator = RunIterator<BlockWindows, BlockWindow>;

    BlockWindows() = default;
    // Implicit, so that a list of blocks can be assigned: seg.blocks = nvtxBlocks(...).
    BlockWindows(const std::vector<BlockWindow>& blocks);  // NOLINT(google-explicit-constructor)

    std::size_t size() const { return m_blocks.size(); }
    bool empty() const { return m_blocks.empty(); }
    BlockWindow operator[](std::size_t i) const { return unpack(i, runOf(i)); }
    Iterator begin() const { return {this, 0, 0}; }
    Iterator end() const { return {this, m_blocks.size(), m_runs.size()}; }
    std::size_t runCount() const { return m_runs.size(); }
    std::size_t wideCount() const { return m_wide.size(); }         // blocks kept whole
    std::size_t wideRunCount() const { return m_wideRuns.size(); }  // runs whose (step, layer) is kept apart
    std::size_t residentBytes() const;

  private:
    struct Group {
        std::int64_t startNs = 0;  // its first run's first block's start: the base of its blocks' offsets
        std::int64_t step = 0;     // its first run's step key
    };
    struct Run {
        std::uint32_t firstBlock = 0;
        std::uint16_t layer = 0;
        std::uint16_t stepOffset = 0;  // step - the group's step; kWideRun: (step, layer) in m_wideRuns
    };
    struct Packed {
        std::uint32_t offsetNs = 0;       // start - the group's startNs
        std::uint32_t lengthAndKind = 0;  // length in the low 31 bits, kind in the top one; kWide: in m_wide
    };
    struct StepLayer {
        std::int64_t step = 0;
        int layer = 0;
    };
    static_assert(sizeof(Group) == 16);
    static_assert(sizeof(Run) == 8, "the run budget of issue 31: 8 bytes a layer instance beside its group");
    static_assert(sizeof(Packed) == 8, "the block budget of issue 31: 8 bytes a block beside its run");
    static constexpr std::size_t kGroup = 64;
    static constexpr std::uint32_t kWide = 0xFFFFFFFF;
    static constexpr std::uint32_t kKindBit = 0x80000000;
    static constexpr std::uint16_t kWideRun = 0xFFFF;

    friend Iterator;
    BlockWindow unpack(std::size_t block, std::size_t run) const;
    StepLayer stepLayer(std::size_t run) const;
    std::size_t runOf(std::size_t block) const;
    std::size_t runOf(std::size_t block, std::size_t previousRun) const {
        const bool next = previousRun + 1 < m_runs.size() && block >= m_runs[previousRun + 1].firstBlock;
        return next ? previousRun + 1 : previousRun;
    }

    std::vector<Group> m_groups;
    std::vector<Run> m_runs;
    std::vector<Packed> m_blocks;
    std::vector<std::pair<std::uint32_t, StepLayer>> m_wideRuns;  // sorted by run index
    std::vector<std::pair<std::uint32_t, BlockWindow>> m_wide;    // sorted by block index
};

}  // namespace tpscope::core::analysis
