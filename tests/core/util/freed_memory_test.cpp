// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/util/freed_memory.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace tpscope::core {
namespace {

std::size_t residentBytes() {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind("VmRSS:", 0) == 0) return std::stoull(line.substr(6)) * 1024;
    }
    return 0;
}

// A worker thread fills its arena with 64 MB of small blocks (below glibc's mmap threshold), each
// followed by a small block it keeps, and frees the large ones: free space between live blocks, which
// free() alone never gives back (only an arena's free top is). The pattern the analysis' workers leave.
TEST(FreedMemory, ReturnsAWorkersFreedPagesToTheSystem) {
#if !defined(__GLIBC__) || !defined(__linux__) || defined(__SANITIZE_ADDRESS__)
    GTEST_SKIP() << "glibc's allocator on Linux only (a sanitizer brings its own)";
#else
    constexpr std::size_t kBlock = 16 * 1024;
    constexpr std::size_t kBlocks = 4096;  // 64 MB
    std::vector<std::unique_ptr<char[]> > kept;
    std::thread worker([&] {
        std::vector<std::unique_ptr<char[]> > blocks;
        blocks.reserve(kBlocks);
        kept.reserve(kBlocks);
        for (std::size_t i = 0; i < kBlocks; ++i) {
            blocks.emplace_back(new char[kBlock]);
            std::memset(blocks.back().get(), 1, kBlock);
            kept.emplace_back(new char[64]);
        }
    });
    worker.join();
    // The large blocks were freed when the worker's list went out of scope; the small ones between
    // them keep that space inside the arena.
    const std::size_t before = residentBytes();
    returnFreedMemory();
    const std::size_t after = residentBytes();
    ASSERT_GT(before, kBlock * kBlocks) << "the freed blocks stay resident until they are returned";
    // Each freed 16 KB holds at least three whole pages that can go back: 3/4 of 64 MB; half is asked.
    EXPECT_LT(after + kBlock * kBlocks / 2, before) << "before " << before << " after " << after;
#endif
}

}  // namespace
}  // namespace tpscope::core
