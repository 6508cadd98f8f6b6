// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// A program that starts as tpscope's programs do (core::restartWithHugePages, then
// core::tuneHeapGrowth), takes an 8 MiB block, fills a 64 MB block and prints what it found, one
// `key=value` a line: whether it was restarted, its GLIBC_TUNABLES, the heap growth's answer, whether
// the 8 MiB block came from mmap and by how many MiB the main arena grew for it (mallinfo2), and the
// kernel's AnonHugePages for the process (kB, /proc/self/smaps_rollup). For huge_pages_test.

#include <malloc.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "core/util/huge_pages.h"

namespace {
void* volatile g_keep = nullptr;
}  // namespace

int main(int /*argc*/, char** argv) {
    const std::string reason = tpscope::core::restartWithHugePages(argv);
    const std::string growth = tpscope::core::tuneHeapGrowth();

    // Below the tuned mmap threshold and above glibc's starting one (128 KB).
    const struct mallinfo2 before = ::mallinfo2();
    void* medium = std::malloc(std::size_t{8} << 20);
    g_keep = medium;  // so that the compiler keeps the allocation
    const struct mallinfo2 after = ::mallinfo2();
    const bool mmapped = after.hblks > before.hblks;
    const std::size_t arenaGrowthMiB = (after.arena - before.arena) >> 20;
    std::free(medium);

    std::vector<char> block(std::size_t{64} << 20);
    std::memset(block.data(), 1, block.size());
    std::ifstream rollup("/proc/self/smaps_rollup");
    std::string line;
    long hugeKb = -1;
    while (std::getline(rollup, line)) {
        if (line.rfind("AnonHugePages:", 0) == 0) hugeKb = std::strtol(line.c_str() + 14, nullptr, 10);
    }
    const char* marker = std::getenv("TPSCOPE_HUGE_PAGES");
    const char* tunables = std::getenv("GLIBC_TUNABLES");
    std::printf(
        "marker=%s\ntunables=%s\nreason=%s\ngrowth=%s\nmedium_mmapped=%d\narena_growth_mib=%zu\n"
        "anon_huge_kb=%ld\nfirst_byte=%d\n",
        marker ? marker : "", tunables ? tunables : "", reason.c_str(), growth.c_str(), mmapped ? 1 : 0, arenaGrowthMiB,
        hugeKb, block[block.size() / 2]);
    return 0;
}
