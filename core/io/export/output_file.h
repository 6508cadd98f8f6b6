// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Output files for the exporters: plain or gzip (chosen by a ".gz" suffix), written through a
// temporary file in the same folder and renamed into place on success, so a failed export (full
// disk, cancel) never leaves a truncated file under the requested name.

#include <zlib.h>

#include <cstdio>
#include <string>
#include <string_view>

#include "core/util/result.h"

namespace tpscope::core {

class OutputFile {
  public:
    static Result<OutputFile> create(const std::string& path);
    OutputFile(OutputFile&& o) noexcept;
    OutputFile& operator=(OutputFile&&) = delete;
    OutputFile(const OutputFile&) = delete;
    OutputFile& operator=(const OutputFile&) = delete;
    ~OutputFile();  // removes the temporary file unless commit() succeeded

    bool write(std::string_view bytes);  // false after any write error
    Status commit();                     // flush, close, rename into place
    const std::string& path() const { return m_path; }
    // The temporary path (tools that write the file themselves, e.g. SQLite, use it and then commit()).
    const std::string& temporaryPath() const { return m_tmp; }
    // For writers that produce the file by other means: close our handle without writing.
    void releaseHandle();

  private:
    OutputFile() = default;
    std::string m_path;
    std::string m_tmp;
    std::FILE* m_file = nullptr;
    gzFile m_gz = nullptr;
    bool m_failed = false;
    bool m_committed = false;
};

// Small buffered text sink on top of OutputFile.
class BufferedOutput {
  public:
    explicit BufferedOutput(OutputFile& file) : m_file(file) { m_buf.reserve(kFlushBytes + 4096); }
    std::string& buf() { return m_buf; }
    bool maybeFlush() { return m_buf.size() < kFlushBytes || flush(); }
    bool flush() {
        const bool ok = m_file.write(m_buf);
        m_buf.clear();
        return ok;
    }

  private:
    static constexpr std::size_t kFlushBytes = std::size_t{1} << 20;
    OutputFile& m_file;
    std::string m_buf;
};

}  // namespace tpscope::core
