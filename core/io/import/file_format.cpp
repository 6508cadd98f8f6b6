// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/io/import/file_format.h"

#include <array>
#include <cctype>
#include <cstring>

#include "core/io/import/byte_source.h"

namespace tpscope::core {

namespace {

constexpr std::string_view kSqliteMagic{"SQLite format 3\0", 16};

// First non-space byte of text, skipping a UTF-8 byte order mark.
char firstSignificant(std::string_view s) {
    if (s.size() >= 3 && static_cast<unsigned char>(s[0]) == 0xEF && static_cast<unsigned char>(s[1]) == 0xBB &&
        static_cast<unsigned char>(s[2]) == 0xBF) {
        s.remove_prefix(3);
    }
    for (const char c : s) {
        if (c != ' ' && c != '\t' && c != '\r' && c != '\n') return c;
    }
    return '\0';
}

}  // namespace

std::string_view describeMagic(std::string_view b) {
    auto starts = [&](std::string_view m) { return b.substr(0, m.size()) == m; };
    if (starts("\x89PNG")) return "a PNG image";
    if (starts("\xFF\xD8\xFF")) return "a JPEG image";
    if (starts("PK\x03\x04")) return "a ZIP archive";
    if (starts("%PDF")) return "a PDF document";
    if (starts("\x7F"
               "ELF")) {
        return "an executable";
    }
    if (starts("\x1f\x8b")) return "gzip data";
    if (starts(kSqliteMagic)) return "an SQLite database";
    std::size_t binary = 0;
    for (const char c : b) {
        const auto u = static_cast<unsigned char>(c);
        if (u < 0x09 || (u > 0x0d && u < 0x20)) ++binary;
    }
    return binary > 0 ? "binary data" : "text that is not JSON";
}

Result<FileFormat> detectFileFormat(const std::string& path) {
    auto src = ByteSource::open(path);
    if (!src) return src.error();
    if ((*src)->fileBytes() == 0) return makeError(ErrorCode::WrongFormat, "the file is empty", path);
    std::array<char, 512> head{};
    std::size_t n = 0;
    if ((*src)->isGzip()) {
        auto got = (*src)->read(head.data(), head.size());
        if (!got) return got.error();
        n = *got;
        if (n == 0) return makeError(ErrorCode::WrongFormat, "the gzip file holds no data", path);
        const char c = firstSignificant({head.data(), n});
        if (c == '{' || c == '[') return FileFormat::GzipJson;
        return makeError(ErrorCode::WrongFormat,
                         "the gzip file holds " + std::string(describeMagic({head.data(), n})) +
                             ", expected a Kineto/Chrome JSON trace",
                         path);
    }
    auto got = (*src)->read(head.data(), head.size());
    if (!got) return got.error();
    n = *got;
    const std::string_view bytes{head.data(), n};
    if (bytes.substr(0, kSqliteMagic.size()) == kSqliteMagic) return FileFormat::Sqlite;
    const char c = firstSignificant(bytes);
    if (c == '{' || c == '[') return FileFormat::Json;
    if (c == '\0' && describeMagic(bytes) != std::string_view("binary data")) {
        return makeError(ErrorCode::WrongFormat, "the file holds only white space", path);
    }
    return makeError(ErrorCode::WrongFormat,
                     "this is " + std::string(describeMagic(bytes)) +
                         ", not a trace (expected Kineto/Chrome JSON, .json.gz, an Nsight Systems SQLite export "
                         "or a .tpscope workspace)",
                     path);
}

}  // namespace tpscope::core
