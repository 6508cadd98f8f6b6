// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Interned strings: kernel names repeat millions of times in a decode trace (the same ~20 kernels
// per layer), so events store a 4-byte NameId and the text lives here once.

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "core/util/strong_id.h"

namespace tpscope::core {

class StringTable {
  public:
    StringTable();
    StringTable(const StringTable& other);
    StringTable& operator=(const StringTable& other);
    StringTable(StringTable&&) noexcept = default;
    StringTable& operator=(StringTable&&) noexcept = default;

    // Id 0 is the empty string.
    NameId intern(std::string_view text);
    std::string_view view(NameId id) const { return m_strings[id.value]; }
    std::size_t size() const { return m_strings.size(); }
    std::size_t residentBytes() const;
    std::optional<NameId> find(std::string_view text) const;

  private:
    void rebuildIndex();
    // deque: stable addresses, so the index can key on string_views into it.
    std::deque<std::string> m_strings;
    std::unordered_map<std::string_view, std::uint32_t> m_index;
};

}  // namespace tpscope::core
