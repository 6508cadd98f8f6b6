// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// A program that starts as tpscope's programs do (core::restartWithHugePages first), fills a 64 MB
// block and prints what it found, one `key=value` a line: whether it was restarted, its GLIBC_TUNABLES
// and the kernel's AnonHugePages for the process (kB, /proc/self/smaps_rollup). For huge_pages_test.

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "core/util/huge_pages.h"

int main(int /*argc*/, char** argv) {
    const std::string reason = tpscope::core::restartWithHugePages(argv);
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
    std::printf("marker=%s\ntunables=%s\nreason=%s\nanon_huge_kb=%ld\nfirst_byte=%d\n", marker ? marker : "",
                tunables ? tunables : "", reason.c_str(), hugeKb, block[block.size() / 2]);
    return 0;
}
