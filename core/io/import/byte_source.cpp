// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/io/import/byte_source.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>

namespace tpscope::core {

namespace {
constexpr std::size_t kInBlock = 1 << 20;
}

ByteSource::~ByteSource() {
    if (m_zInit) inflateEnd(&m_z);
    if (m_file != nullptr) std::fclose(m_file);
}

Result<std::unique_ptr<ByteSource>> ByteSource::open(const std::string& path) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
        return makeError(ErrorCode::InvalidArgument, "is a folder, expected a file", path);
    }
    std::unique_ptr<ByteSource> src(new ByteSource());
    src->m_path = path;
    src->m_file = std::fopen(path.c_str(), "rb");
    if (src->m_file == nullptr) {
        return makeError(errno == ENOENT ? ErrorCode::NotFound : ErrorCode::IoError,
                         std::string("cannot open: ") + std::strerror(errno), path);
    }
    const auto size = std::filesystem::file_size(path, ec);
    src->m_fileBytes = ec ? 0 : size;
    std::array<unsigned char, 2> magic = {0, 0};
    const std::size_t n = std::fread(magic.data(), 1, magic.size(), src->m_file);
    src->m_gzip = n == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
    std::rewind(src->m_file);
    if (src->m_gzip) {
        src->m_in.resize(kInBlock);
        if (inflateInit2(&src->m_z, 15 + 16) != Z_OK) {
            return makeError(ErrorCode::Internal, "zlib initialisation failed", path);
        }
        src->m_zInit = true;
        src->m_streamEnded = false;
    }
    return src;
}

std::unique_ptr<ByteSource> ByteSource::fromMemory(std::string_view bytes, std::string name) {
    std::unique_ptr<ByteSource> src(new ByteSource());
    src->m_path = std::move(name);
    src->m_memory = bytes;
    src->m_fileBytes = bytes.size();
    src->m_gzip = bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
                  static_cast<unsigned char>(bytes[1]) == 0x8b;
    if (src->m_gzip) {
        src->m_in.resize(std::min<std::size_t>(kInBlock, bytes.size()));
        if (inflateInit2(&src->m_z, 15 + 16) == Z_OK) {
            src->m_zInit = true;
            src->m_streamEnded = false;
        }
    }
    return src;
}

std::size_t ByteSource::readUnderlying(void* dst, std::size_t maxBytes) {
    if (m_file != nullptr) return std::fread(dst, 1, maxBytes, m_file);
    const std::size_t n = std::min(maxBytes, m_memory.size());
    std::memcpy(dst, m_memory.data(), n);
    m_memory.remove_prefix(n);
    return n;
}

bool ByteSource::underlyingFailed() const {
    return m_file != nullptr && std::ferror(m_file) != 0;
}

Result<std::size_t> ByteSource::readRaw(char* dst, std::size_t maxBytes) {
    const std::size_t n = readUnderlying(dst, maxBytes);
    if (n == 0 && underlyingFailed()) return makeError(ErrorCode::IoError, "read failed", m_path);
    m_consumed += n;
    return n;
}

Result<std::size_t> ByteSource::readInflated(char* dst, std::size_t maxBytes) {
    m_z.next_out = reinterpret_cast<Bytef*>(dst);
    m_z.avail_out = static_cast<uInt>(std::min<std::size_t>(maxBytes, 1u << 30));
    while (m_z.avail_out > 0) {
        if (m_z.avail_in == 0 && !m_eof) {
            const std::size_t n = readUnderlying(m_in.data(), m_in.size());
            if (n == 0 && underlyingFailed()) return makeError(ErrorCode::IoError, "read failed", m_path);
            m_eof = n == 0;
            m_consumed += n;
            m_z.next_in = m_in.data();
            m_z.avail_in = static_cast<uInt>(n);
        }
        if (m_streamEnded) {
            // Another gzip member may follow (concatenated .gz); anything else after a member is garbage.
            if (m_z.avail_in == 0 && m_eof) break;
            if (m_z.avail_in == 0) continue;
            if (m_z.next_in[0] != 0x1f) {
                return makeError(ErrorCode::ParseError, "unexpected bytes after the end of the gzip data", m_path);
            }
            inflateReset(&m_z);
            m_streamEnded = false;
        }
        if (m_z.avail_in == 0 && m_eof) {
            return makeError(ErrorCode::ParseError, "truncated gzip file: the data ends inside a compressed block",
                             m_path);
        }
        const int rc = inflate(&m_z, Z_NO_FLUSH);
        if (rc == Z_STREAM_END) {
            m_streamEnded = true;
        } else if (rc == Z_BUF_ERROR) {
            if (m_z.avail_in == 0 && m_eof) {
                return makeError(ErrorCode::ParseError, "truncated gzip file: the data ends inside a compressed block",
                                 m_path);
            }
        } else if (rc != Z_OK) {
            return makeError(ErrorCode::ParseError,
                             std::string("corrupt gzip data: ") + (m_z.msg != nullptr ? m_z.msg : "inflate failed"),
                             m_path);
        }
    }
    return static_cast<std::size_t>(reinterpret_cast<char*>(m_z.next_out) - dst);
}

Result<std::size_t> ByteSource::read(char* dst, std::size_t maxBytes) {
    if (maxBytes == 0) return std::size_t{0};
    if (m_gzip && !m_zInit) return makeError(ErrorCode::Internal, "zlib initialisation failed", m_path);
    return m_gzip ? readInflated(dst, maxBytes) : readRaw(dst, maxBytes);
}

}  // namespace tpscope::core
