// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Streaming JSON writer for the CLI's --json output and the Chrome-trace exporter. simdjson (our
// reader) does not write JSON and core has no Qt, so this small writer produces RFC 8259 text:
// strings escaped, non-finite numbers written as null.

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace tpscope::core {

class JsonWriter {
  public:
    explicit JsonWriter(std::ostream& out, bool pretty = true) : m_out(out), m_pretty(pretty) {}

    JsonWriter& beginObject();
    JsonWriter& endObject();
    JsonWriter& beginArray();
    JsonWriter& endArray();
    JsonWriter& key(std::string_view name);

    JsonWriter& value(std::string_view s);
    JsonWriter& value(const char* s) { return value(std::string_view(s)); }
    JsonWriter& value(const std::string& s) { return value(std::string_view(s)); }
    JsonWriter& value(double d);
    JsonWriter& value(std::int64_t i);
    JsonWriter& value(std::uint64_t u);
    JsonWriter& value(int i) { return value(static_cast<std::int64_t>(i)); }
    JsonWriter& value(unsigned u) { return value(static_cast<std::uint64_t>(u)); }
    JsonWriter& value(bool b);
    JsonWriter& null();

    template <typename T>
    JsonWriter& field(std::string_view name, const T& v) {
        key(name);
        return value(v);
    }

    static void writeEscaped(std::ostream& out, std::string_view s);

  private:
    void beforeValue();
    void newline();

    struct Level {
        bool isObject;
        bool empty;
    };
    std::ostream& m_out;
    bool m_pretty;
    bool m_afterKey = false;
    std::vector<Level> m_stack;
};

}  // namespace tpscope::core
