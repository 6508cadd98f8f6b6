// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// External id -> class of the CPU op that has it, filled from the classifying cpu_op records and
// read once per kernel (kineto_parser.cpp). Kineto numbers External ids from 1 upwards, so a byte
// per id in a vector is the fast path; ids beyond kDenseIds go to a map.
// Cost: O(1) set and find; memory one byte per id up to the largest dense id seen.

#include <algorithm>
#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

#include "core/trace/event_kind.h"

namespace tpscope::core::kineto {

class OpClassTable {
  public:
    void set(std::int64_t id, EventKind kind) {
        if (id < kDenseIds) {
            const auto i = static_cast<std::size_t>(id);
            if (i >= m_dense.size()) m_dense.resize(std::max(i + 1, 2 * m_dense.size()), kNone);
            m_dense[i] = static_cast<std::uint8_t>(kind);
        } else {
            m_sparse[id] = kind;
        }
    }
    std::optional<EventKind> find(std::int64_t id) const {
        if (id < kDenseIds) {
            const auto i = static_cast<std::size_t>(id);
            if (i >= m_dense.size() || m_dense[i] == kNone) return std::nullopt;
            return static_cast<EventKind>(m_dense[i]);
        }
        const auto it = m_sparse.find(id);
        return it == m_sparse.end() ? std::nullopt : std::optional<EventKind>(it->second);
    }

  private:
    static constexpr std::int64_t kDenseIds = std::int64_t{1} << 24;
    static constexpr std::uint8_t kNone = 0xFF;
    std::vector<std::uint8_t> m_dense;
    std::unordered_map<std::int64_t, EventKind> m_sparse;
};

}  // namespace tpscope::core::kineto
