// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// A stream's events read in index order a block at a time, for the analysis' passes over every event
// (coverage chunks, kind shares, a repeat layer's kernels, NVTX layers and blocks). EventColumns keeps
// each column by block at the width the block needs (BlockCells), so reading one value costs its
// block's entry, a load and a mask; a scan that reads event after event pays that per value. EventScan
// decodes the asked columns of an event's block into small arrays when the scan enters the block, and
// answers from them until it leaves.
//
// Input: finalized columns (EventColumns::finalize()) and the columns a scan reads; indices in any
//   order (index order is what it is for: a jump to another block decodes that block).
// Mapping: the current block's starts, durations, kinds and names, exactly as EventColumns' accessors
//   give them (escapes included: decodeStarts / decodeDurations resolve them).
// Cost: 21 bytes a block's event (about 1.3 kB); a block decoded once per kBlock events read in
//   order, then a compare an access. Random access stays with EventColumns' own accessors.

#include <array>
#include <cstddef>
#include <cstdint>

#include "core/trace/event_columns.h"
#include "core/util/strong_id.h"

namespace tpscope::core {

class EventScan {
  public:
    // The columns a scan reads (a bit each): only those are decoded.
    static constexpr unsigned kStarts = 1U;
    static constexpr unsigned kDurations = 2U;
    static constexpr unsigned kKinds = 4U;
    static constexpr unsigned kNames = 8U;

    EventScan(const EventColumns& events, unsigned columns) : m_events(&events), m_columns(columns) {}

    // Event i's start, duration, kind and name at once (the columns asked for; the others read 0).
    struct Event {
        std::int64_t startNs;
        std::int64_t durNs;
        std::uint8_t kind;
        NameId name;
    };

    std::size_t size() const { return m_events->size(); }
    Event at(std::size_t i) {
        enter(i);
        const std::size_t j = i % kBlock;
        return {m_startNs[j], m_durNs[j], m_kinds[j], NameId{m_names[j]}};
    }
    std::int64_t startNs(std::size_t i) {
        enter(i);
        return m_startNs[i % kBlock];
    }
    std::int64_t durNs(std::size_t i) {
        enter(i);
        return m_durNs[i % kBlock];
    }
    std::int64_t endNs(std::size_t i) { return startNs(i) + durNs(i); }
    std::uint8_t kind(std::size_t i) {  // an EventKind value, as EventKinds gives it
        enter(i);
        return m_kinds[i % kBlock];
    }
    NameId name(std::size_t i) {
        enter(i);
        return NameId{m_names[i % kBlock]};
    }

  private:
    static constexpr std::size_t kBlock = EventColumns::kBlock;
    static constexpr std::size_t kNone = SIZE_MAX;

    void enter(std::size_t i) {
        if (i / kBlock != m_block) decode(i / kBlock);
    }
    void decode(std::size_t b) {
        if ((m_columns & kStarts) != 0) m_events->decodeStarts(b, m_startNs.data());
        if ((m_columns & kDurations) != 0) m_events->decodeDurations(b, m_durNs.data());
        if ((m_columns & kKinds) != 0) m_events->decodeKinds(b, m_kinds.data());
        if ((m_columns & kNames) != 0) m_events->decodeNames(b, m_names.data());
        m_block = b;
    }

    const EventColumns* m_events;
    unsigned m_columns;
    std::size_t m_block = kNone;
    std::array<std::int64_t, kBlock> m_startNs{};
    std::array<std::int64_t, kBlock> m_durNs{};
    std::array<std::uint8_t, kBlock> m_kinds{};
    std::array<std::uint32_t, kBlock> m_names{};
};

}  // namespace tpscope::core
