// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Sequential reading of a file in blocks, inflating gzip on the fly (any number of concatenated
// members), so an importer holds one block of text at a time instead of the whole file and never
// both the compressed and the inflated copy. A file that ends inside a gzip member is reported as
// truncated; corrupt deflate data as corrupt.

#include <zlib.h>

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/util/result.h"

namespace tpscope::core {

class ByteSource {
  public:
    ~ByteSource();
    ByteSource(const ByteSource&) = delete;
    ByteSource& operator=(const ByteSource&) = delete;

    // Opens path; gzip is recognised by its magic bytes, not the file name.
    static Result<std::unique_ptr<ByteSource>> open(const std::string& path);
    // Reads from memory the caller keeps alive (tests, fuzzing); `name` is used in messages.
    static std::unique_ptr<ByteSource> fromMemory(std::string_view bytes, std::string name);

    // Reads up to maxBytes into dst; returns the count, 0 at the end of the data.
    Result<std::size_t> read(char* dst, std::size_t maxBytes);

    bool isGzip() const { return m_gzip; }
    std::uint64_t fileBytes() const { return m_fileBytes; }
    std::uint64_t fileBytesConsumed() const { return m_consumed; }  // for progress
    const std::string& path() const { return m_path; }

  private:
    ByteSource() = default;
    Result<std::size_t> readRaw(char* dst, std::size_t maxBytes);
    std::size_t readUnderlying(void* dst, std::size_t maxBytes);  // file or memory
    bool underlyingFailed() const;
    Result<std::size_t> readInflated(char* dst, std::size_t maxBytes);

    std::string m_path;
    std::FILE* m_file = nullptr;
    std::string_view m_memory;  // when not reading a file
    bool m_gzip = false;
    bool m_streamEnded = true;  // between gzip members
    bool m_zInit = false;
    z_stream m_z{};
    std::vector<unsigned char> m_in;
    std::uint64_t m_fileBytes = 0;
    std::uint64_t m_consumed = 0;
    bool m_eof = false;
};

}  // namespace tpscope::core
