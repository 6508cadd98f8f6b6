// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/io/export/output_file.h"

#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>

namespace tpscope::core {

namespace {
bool endsWithGz(const std::string& p) {
    return p.size() > 3 && p.compare(p.size() - 3, 3, ".gz") == 0;
}
}  // namespace

Result<OutputFile> OutputFile::create(const std::string& path) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (fs::is_directory(path, ec)) return makeError(ErrorCode::InvalidArgument, "is a folder", path);
    const fs::path target = fs::absolute(path, ec);
    static std::atomic<unsigned> counter{0};
    OutputFile out;
    out.m_path = path;
    out.m_tmp = (target.parent_path() / ("." + target.filename().string() + ".tmp-" + std::to_string(::getpid()) + "-" +
                                         std::to_string(counter++)))
                    .string();
    out.m_file = std::fopen(out.m_tmp.c_str(), "wb");
    if (out.m_file == nullptr) {
        return makeError(ErrorCode::IoError, std::string("cannot create: ") + std::strerror(errno), path);
    }
    if (endsWithGz(path)) {
        out.m_gz = gzdopen(::dup(::fileno(out.m_file)), "wb6");
        if (out.m_gz == nullptr) return makeError(ErrorCode::IoError, "cannot start gzip output", path);
    }
    return out;
}

OutputFile::OutputFile(OutputFile&& o) noexcept
    : m_path(std::move(o.m_path)),
      m_tmp(std::move(o.m_tmp)),
      m_file(o.m_file),
      m_gz(o.m_gz),
      m_failed(o.m_failed),
      m_committed(o.m_committed) {
    o.m_file = nullptr;
    o.m_gz = nullptr;
    o.m_committed = true;  // the moved-from object owns nothing to clean up
}

OutputFile::~OutputFile() {
    if (m_gz != nullptr) gzclose(m_gz);
    if (m_file != nullptr) std::fclose(m_file);
    if (!m_committed) {
        std::error_code ec;
        std::filesystem::remove(m_tmp, ec);
    }
}

void OutputFile::releaseHandle() {
    if (m_gz != nullptr) gzclose(m_gz);
    if (m_file != nullptr) std::fclose(m_file);
    m_gz = nullptr;
    m_file = nullptr;
}

bool OutputFile::write(std::string_view bytes) {
    if (m_failed || bytes.empty()) return !m_failed;
    if (m_gz != nullptr) {
        m_failed = gzwrite(m_gz, bytes.data(), static_cast<unsigned>(bytes.size())) != static_cast<int>(bytes.size());
    } else if (m_file != nullptr) {
        m_failed = std::fwrite(bytes.data(), 1, bytes.size(), m_file) != bytes.size();
    } else {
        m_failed = true;
    }
    return !m_failed;
}

Status OutputFile::commit() {
    if (m_gz != nullptr) {
        m_failed = gzclose(m_gz) != Z_OK || m_failed;
        m_gz = nullptr;
    }
    if (m_file != nullptr) {
        m_failed = std::fflush(m_file) != 0 || m_failed;
        m_failed = std::fclose(m_file) != 0 || m_failed;
        m_file = nullptr;
    }
    if (m_failed) return makeError(ErrorCode::IoError, "write failed (disk full?)", m_path);
    if (std::rename(m_tmp.c_str(), m_path.c_str()) != 0) {
        return makeError(ErrorCode::IoError, std::string("cannot rename into place: ") + std::strerror(errno), m_path);
    }
    m_committed = true;
    return Ok{};
}

}  // namespace tpscope::core
