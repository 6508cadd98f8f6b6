// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The heap on transparent huge pages (THP), for the programs that hold a large trace (the GUI, the CLI).
//
// Input: the environment (GLIBC_TUNABLES, TPSCOPE_HUGE_PAGES, LD_PRELOAD), the kernel's THP mode
// (/sys/kernel/mm/transparent_hugepage/enabled) and glibc's version.
// Mapping: in THP's "madvise" mode the kernel backs memory with 2 MB pages only where the program asks
// (madvise(MADV_HUGEPAGE)). glibc's malloc asks for its large blocks and its heaps when its tunable
// glibc.malloc.hugetlb=1 is set (glibc 2.35 on), and it reads tunables once, before main(). So main()
// calls restartWithHugePages() first: in that mode, with the tunable not set, it adds the tunable to
// GLIBC_TUNABLES, sets TPSCOPE_HUGE_PAGES=1 (so that it happens once) and executes the same program
// again with the same arguments (/proc/self/exe; the process id stays). Measured on the 100 M-event
// workspace (docs/PERFORMANCE.md, "Huge pages"): 4 s less user CPU (the TLB misses of the read's and
// the analysis' walks over 2.5 GB), 2-3 s more system CPU on this VM (2 MB pages cleared whole); the
// complete view 5-10 % sooner with the stored analysis, 25-28 % without.
// Not done: under valgrind (its preload would not follow the exec), in "always" mode (the kernel
// already does it), in "never" mode or without THP, with TPSCOPE_HUGE_PAGES set (0 turns it off),
// with the tunable already set by the user, with a glibc older than 2.35, outside Linux and glibc.
// Cost: one exec of the program at start (its shared libraries load twice: milliseconds); memory
// rounded up to 2 MB pages where a block ends (a few MB in all).

#include <string>
#include <string_view>

namespace tpscope::core {

enum class ThpMode { Unavailable, Never, Madvise, Always };

// The mode the kernel's `enabled` file selects ("always [madvise] never"): the bracketed word.
ThpMode parseThpMode(std::string_view enabledFile);

struct HugePagesPlan {
    bool restart = false;
    std::string tunables;  // GLIBC_TUNABLES for the restarted program (when restart)
    std::string reason;    // why not (when !restart), for a log
};

// What restartWithHugePages() does, from its inputs (null: the variable is not set).
HugePagesPlan planHugePages(ThpMode mode, const char* tpscopeHugePages, const char* glibcTunables,
                            const char* ldPreload, int glibcMajor, int glibcMinor);

// Executes the program again with the heap on huge pages where planHugePages says so; returns only
// when it did not (the reason), or when the exec failed (the program then goes on as it is).
std::string restartWithHugePages(char** argv);

}  // namespace tpscope::core
