// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Counting helpers for the io tests: the reference rules of shared/traces/public/SOURCES.md applied
// to an imported Trace's kernel names, independent of tpscope's KernelClassifier.

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cstdint>
#include <filesystem>
#include <regex>
#include <string>
#include <string_view>

#include "core/trace/trace.h"

namespace tpscope::test {

struct KernelTally {
    std::size_t count = 0;
    std::int64_t sumNs = 0;
    double sumUs() const { return static_cast<double>(sumNs) / 1000.0; }
};

inline bool isKernel(core::EventKind k) {
    return k != core::EventKind::Memcpy && k != core::EventKind::Memset;
}

// SOURCES.md: GEMM = name matches gemm|nvjet|xmma|s1688|s884|s16816|bmm_ but not fbgemm.
inline bool referenceGemm(std::string_view name) {
    static const std::regex kGemm("gemm|nvjet|xmma|s1688|s884|s16816|bmm_");
    return std::regex_search(name.begin(), name.end(), kGemm) && name.find("fbgemm") == std::string_view::npos;
}
inline bool referenceAllReduce(std::string_view name) {
    return name.find("AllReduce") != std::string_view::npos || name.find("all_reduce") != std::string_view::npos;
}
inline bool referenceNccl(std::string_view name) {
    std::string lower(name);
    for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return lower.find("nccl") != std::string::npos;
}

// Tally of kernels (not memcpy/memset) whose name satisfies pred, over every rank and stream.
template <typename Pred>
KernelTally tally(const core::Trace& trace, Pred pred) {
    KernelTally t;
    for (const auto& r : trace.ranks) {
        for (const auto& s : r.streams) {
            for (std::size_t i = 0; i < s.events.size(); ++i) {
                if (!isKernel(s.events.kind(i)) || !pred(trace.name(s.events.name(i)))) continue;
                ++t.count;
                t.sumNs += s.events.durNs(i);
            }
        }
    }
    return t;
}

inline std::size_t countKind(const core::Trace& trace, core::EventKind kind) {
    std::size_t n = 0;
    for (const auto& r : trace.ranks) {
        for (const auto& s : r.streams) {
            for (const auto k : s.events.kinds()) n += static_cast<core::EventKind>(k) == kind ? 1 : 0;
        }
    }
    return n;
}

// A fresh temporary folder, removed with its contents when the object goes away.
class TempDir {
  public:
    TempDir() {
        static int counter = 0;
        m_path = std::filesystem::temp_directory_path() /
                 ("tpscope-io-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
        std::filesystem::create_directories(m_path);
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(m_path, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    std::filesystem::path operator/(const std::string& name) const { return m_path / name; }
    const std::filesystem::path& path() const { return m_path; }

  private:
    std::filesystem::path m_path;
};

// Runs SQL on a database file (created when missing): hand-made and tampered-with test databases.
inline void execSql(const std::filesystem::path& path, const char* sql) {
    sqlite3* db = nullptr;
    EXPECT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    char* err = nullptr;
    EXPECT_EQ(sqlite3_exec(db, sql, nullptr, nullptr, &err), SQLITE_OK) << (err ? err : "");
    sqlite3_free(err);
    sqlite3_close(db);
}

inline std::filesystem::path makeDb(const TempDir& dir, const char* name, const char* sql) {
    auto path = dir / name;
    execSql(path, sql);
    return path;
}

}  // namespace tpscope::test
