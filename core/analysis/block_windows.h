// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// A rank's attention and MLP blocks (RankSegmentation::blocks), held compactly: two a layer, 20 M
// at 100 M events (640 MB as BlockWindow values).
//
// Input: blocks in start order (layer_blocks.h makes them), those of one layer together. Mapping:
// each run of blocks with one (step, layer) keeps those two and the run's first start once
// (24 bytes); a block keeps its start as a 32-bit offset from there and its length in 31 bits,
// the kind in the top bit (8 bytes). A block whose offset or length does not fit (a block of 2.1 s
// or more, a start 4.29 s or more after its run's first) is kept whole in a side table: every block
// reads back exactly as given.
// Cost: 8 bytes a block and 24 a run (about 20 a block for two blocks a layer). Block i by index:
// O(log runs); while iterating: O(1) a block (plus O(log wide blocks) when any block is wide).

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
    std::size_t wideCount() const { return m_wide.size(); }
    std::size_t residentBytes() const;

  private:
    struct Run {
        std::int64_t step = 0;
        std::int64_t baseNs = 0;  // the first block's start
        int layer = 0;
        std::uint32_t firstBlock = 0;
    };
    struct Packed {
        std::uint32_t offsetNs = 0;       // start - the run's baseNs
        std::uint32_t lengthAndKind = 0;  // length in the low 31 bits, kind in the top one; kWide: in m_wide
    };
    static_assert(sizeof(Run) == 24);
    static_assert(sizeof(Packed) == 8, "the block budget of issue 31: 8 bytes a block beside its run");
    static constexpr std::uint32_t kWide = 0xFFFFFFFF;
    static constexpr std::uint32_t kKindBit = 0x80000000;

    friend Iterator;
    BlockWindow unpack(std::size_t block, std::size_t run) const;
    std::size_t runOf(std::size_t block) const;
    std::size_t runOf(std::size_t block, std::size_t previousRun) const {
        const bool next = previousRun + 1 < m_runs.size() && block >= m_runs[previousRun + 1].firstBlock;
        return next ? previousRun + 1 : previousRun;
    }

    std::vector<Run> m_runs;
    std::vector<Packed> m_blocks;
    std::vector<std::pair<std::uint32_t, BlockWindow>> m_wide;  // sorted by block index
};

}  // namespace tpscope::core::analysis
