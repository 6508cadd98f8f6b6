// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/util/json_writer.h"

#include <charconv>
#include <cmath>

namespace tpscope::core {

void JsonWriter::newline() {
    if (!m_pretty) return;
    m_out << '\n';
    for (std::size_t i = 0; i < m_stack.size(); ++i) m_out << "  ";
}

void JsonWriter::beforeValue() {
    if (m_afterKey) {
        m_afterKey = false;
        return;
    }
    if (m_stack.empty()) return;
    Level& level = m_stack.back();
    if (!level.empty) m_out << ',';
    level.empty = false;
    newline();
}

JsonWriter& JsonWriter::beginObject() {
    beforeValue();
    m_out << '{';
    m_stack.push_back({true, true});
    return *this;
}

JsonWriter& JsonWriter::endObject() {
    const bool wasEmpty = m_stack.back().empty;
    m_stack.pop_back();
    if (!wasEmpty) newline();
    m_out << '}';
    if (m_stack.empty() && m_pretty) m_out << '\n';
    return *this;
}

JsonWriter& JsonWriter::beginArray() {
    beforeValue();
    m_out << '[';
    m_stack.push_back({false, true});
    return *this;
}

JsonWriter& JsonWriter::endArray() {
    const bool wasEmpty = m_stack.back().empty;
    m_stack.pop_back();
    if (!wasEmpty) newline();
    m_out << ']';
    if (m_stack.empty() && m_pretty) m_out << '\n';
    return *this;
}

JsonWriter& JsonWriter::key(std::string_view name) {
    beforeValue();
    writeEscaped(m_out, name);
    m_out << (m_pretty ? ": " : ":");
    m_afterKey = true;
    return *this;
}

void JsonWriter::writeEscaped(std::ostream& out, std::string_view s) {
    static constexpr char kHex[] = "0123456789abcdef";
    out << '"';
    for (const char c : s) {
        const auto u = static_cast<unsigned char>(c);
        switch (c) {
            case '"':
                out << "\\\"";
                break;
            case '\\':
                out << "\\\\";
                break;
            case '\n':
                out << "\\n";
                break;
            case '\r':
                out << "\\r";
                break;
            case '\t':
                out << "\\t";
                break;
            default:
                if (u < 0x20) {
                    out << "\\u00" << kHex[u >> 4] << kHex[u & 0xF];
                } else {
                    out << c;
                }
        }
    }
    out << '"';
}

JsonWriter& JsonWriter::value(std::string_view s) {
    beforeValue();
    writeEscaped(m_out, s);
    return *this;
}

JsonWriter& JsonWriter::value(double d) {
    beforeValue();
    if (!std::isfinite(d)) {
        m_out << "null";
        return *this;
    }
    // Shortest representation that round-trips: stable output for golden tests.
    char buf[32];
    const auto res = std::to_chars(buf, buf + sizeof buf, d);
    m_out.write(buf, res.ptr - buf);
    return *this;
}

JsonWriter& JsonWriter::value(std::int64_t i) {
    beforeValue();
    m_out << i;
    return *this;
}

JsonWriter& JsonWriter::value(std::uint64_t u) {
    beforeValue();
    m_out << u;
    return *this;
}

JsonWriter& JsonWriter::value(bool b) {
    beforeValue();
    m_out << (b ? "true" : "false");
    return *this;
}

JsonWriter& JsonWriter::null() {
    beforeValue();
    m_out << "null";
    return *this;
}

}  // namespace tpscope::core
