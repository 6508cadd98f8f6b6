// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/trace/string_table.h"

namespace tpscope::core {

StringTable::StringTable() {
    intern("");
}

StringTable::StringTable(const StringTable& other) : m_strings(other.m_strings) {
    rebuildIndex();
}

StringTable& StringTable::operator=(const StringTable& other) {
    if (this != &other) {
        m_strings = other.m_strings;
        rebuildIndex();
    }
    return *this;
}

void StringTable::rebuildIndex() {
    m_index.clear();
    m_index.reserve(m_strings.size());
    for (std::uint32_t i = 0; i < m_strings.size(); ++i) m_index.emplace(m_strings[i], i);
}

NameId StringTable::intern(std::string_view text) {
    if (const auto it = m_index.find(text); it != m_index.end()) return NameId{it->second};
    const auto id = static_cast<std::uint32_t>(m_strings.size());
    m_strings.emplace_back(text);
    m_index.emplace(m_strings.back(), id);
    return NameId{id};
}

std::optional<NameId> StringTable::find(std::string_view text) const {
    if (const auto it = m_index.find(text); it != m_index.end()) return NameId{it->second};
    return std::nullopt;
}

std::size_t StringTable::residentBytes() const {
    std::size_t bytes = 0;
    for (const auto& s : m_strings) bytes += sizeof(std::string) + (s.size() > 15 ? s.capacity() : 0);
    return bytes + m_index.size() * (sizeof(std::string_view) + sizeof(std::uint32_t) + 2 * sizeof(void*));
}

}  // namespace tpscope::core
