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
//
// Then tuneHeapGrowth() (the CLI calls it next, in the restarted process too): glibc's malloc takes memory
// from the kernel for an arena in steps of the request plus M_TOP_PAD (128 KB by default) and hands blocks
// above a moving threshold (from 128 KB) to mmap, fresh and zero-filled each time. A thread's arena grows
// in steps too small for huge pages. The import's parse threads allocate and free blocks of 128 KB to a
// few MB by the thousand, so they faulted in fresh 4 KB pages again and again. With the pad at 16 MiB and
// the threshold fixed at 32 MiB (the ceiling glibc's moving threshold stops at; setting the pad alone
// would fix it at 128 KB), those blocks are reused from the arenas. Measured (docs/PERFORMANCE.md,
// "Import" and "Heap growth"): `analyze` of the 400 MB Kineto trace 9-11 % less CPU (page faults from
// ~4,400 to ~1,400); cost: a peak 7-13 MB higher (blocks kept for reuse). The GUI does not call it: on the
// 100 M-event workspace its open took as long or longer (more system time) with a peak 10-40 MB higher.
// Not done with TPSCOPE_HUGE_PAGES=0, or where GLIBC_TUNABLES sets either value itself.

#include <cstddef>
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

// What tuneHeapGrowth() sets; 0: leaves that value as glibc has it.
struct HeapGrowthPlan {
    std::size_t topPadBytes = 0;
    std::size_t mmapThresholdBytes = 0;
    std::string reason;  // why not (when both are 0), for a log
};
inline constexpr std::size_t kHeapTopPadBytes = std::size_t{16} << 20;
inline constexpr std::size_t kHeapMmapThresholdBytes = std::size_t{32} << 20;

// What tuneHeapGrowth() does, from the environment's variables (null: not set).
HeapGrowthPlan planHeapGrowth(const char* tpscopeHugePages, const char* glibcTunables);

// Sets glibc's heap growth for large traces (mallopt) as planHeapGrowth says; returns what it did, or
// why it did not. Call before the program starts its threads.
std::string tuneHeapGrowth();

}  // namespace tpscope::core
