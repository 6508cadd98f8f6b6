// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/util/huge_pages.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>

#if defined(__linux__) && defined(__GLIBC__)
#include <gnu/libc-version.h>
#endif

#include "test_support.h"

namespace tpscope::core {
namespace {

TEST(HugePages, TheKernelsModeIsItsBracketedWord) {
    EXPECT_EQ(parseThpMode("always [madvise] never\n"), ThpMode::Madvise);
    EXPECT_EQ(parseThpMode("[always] madvise never\n"), ThpMode::Always);
    EXPECT_EQ(parseThpMode("always madvise [never]\n"), ThpMode::Never);
    EXPECT_EQ(parseThpMode(""), ThpMode::Unavailable);  // no such file: a kernel without THP
    EXPECT_EQ(parseThpMode("always madvise never"), ThpMode::Unavailable);
    EXPECT_EQ(parseThpMode("[sometimes]"), ThpMode::Unavailable);
    EXPECT_EQ(parseThpMode("[madvise"), ThpMode::Unavailable);
}

TEST(HugePages, RestartsOnlyInMadviseModeWithTheTunableUnset) {
    const HugePagesPlan plan = planHugePages(ThpMode::Madvise, nullptr, nullptr, nullptr, 2, 36);
    EXPECT_TRUE(plan.restart);
    EXPECT_EQ(plan.tunables, "glibc.malloc.hugetlb=1");
    // The user's own tunables are kept, ours appended.
    EXPECT_EQ(planHugePages(ThpMode::Madvise, nullptr, "glibc.malloc.arena_max=2", nullptr, 2, 41).tunables,
              "glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1");
    EXPECT_TRUE(planHugePages(ThpMode::Madvise, nullptr, "", "/usr/lib/libfoo.so", 3, 0).restart);

    for (const ThpMode mode : {ThpMode::Always, ThpMode::Never, ThpMode::Unavailable}) {
        const HugePagesPlan other = planHugePages(mode, nullptr, nullptr, nullptr, 2, 36);
        EXPECT_FALSE(other.restart);
        EXPECT_FALSE(other.reason.empty());
    }
    // Once only; off when asked; the user's own choice of the tunable kept; not under valgrind;
    // not where glibc does not know the tunable.
    EXPECT_FALSE(planHugePages(ThpMode::Madvise, "1", "glibc.malloc.hugetlb=1", nullptr, 2, 36).restart);
    EXPECT_EQ(planHugePages(ThpMode::Madvise, "0", nullptr, nullptr, 2, 36).reason,
              "turned off (TPSCOPE_HUGE_PAGES=0)");
    EXPECT_FALSE(planHugePages(ThpMode::Madvise, nullptr, "glibc.malloc.hugetlb=0", nullptr, 2, 36).restart);
    EXPECT_FALSE(
        planHugePages(ThpMode::Madvise, nullptr, nullptr, "/usr/libexec/valgrind/vgpreload_core-amd64-linux.so", 2, 36)
            .restart);
    EXPECT_FALSE(planHugePages(ThpMode::Madvise, nullptr, nullptr, nullptr, 2, 34).restart);
    EXPECT_TRUE(planHugePages(ThpMode::Madvise, nullptr, nullptr, nullptr, 2, 35).restart);
}

TEST(HeapGrowth, TunedUnlessTurnedOffOrSetByTheUser) {
    const HeapGrowthPlan plan = planHeapGrowth(nullptr, nullptr);
    EXPECT_EQ(plan.topPadBytes, kHeapTopPadBytes);
    EXPECT_EQ(plan.mmapThresholdBytes, kHeapMmapThresholdBytes);
    EXPECT_TRUE(plan.reason.empty());
    // After the restart (TPSCOPE_HUGE_PAGES=1, glibc's hugetlb tunable set) as well.
    const HeapGrowthPlan restarted = planHeapGrowth("1", "glibc.malloc.hugetlb=1");
    EXPECT_EQ(restarted.topPadBytes, kHeapTopPadBytes);
    EXPECT_EQ(restarted.mmapThresholdBytes, kHeapMmapThresholdBytes);

    const HeapGrowthPlan off = planHeapGrowth("0", nullptr);
    EXPECT_EQ(off.topPadBytes, 0U);
    EXPECT_EQ(off.mmapThresholdBytes, 0U);
    EXPECT_EQ(off.reason, "turned off (TPSCOPE_HUGE_PAGES=0)");
    // The user's own value of either is kept.
    const HeapGrowthPlan userPad = planHeapGrowth(nullptr, "glibc.malloc.hugetlb=1:glibc.malloc.top_pad=0");
    EXPECT_EQ(userPad.topPadBytes, 0U);
    EXPECT_EQ(userPad.mmapThresholdBytes, kHeapMmapThresholdBytes);
    const HeapGrowthPlan userBoth =
        planHeapGrowth(nullptr, "glibc.malloc.mmap_threshold=65536:glibc.malloc.top_pad=131072");
    EXPECT_EQ(userBoth.topPadBytes, 0U);
    EXPECT_EQ(userBoth.mmapThresholdBytes, 0U);
    EXPECT_EQ(userBoth.reason, "GLIBC_TUNABLES sets both");
    // glibc's mallopt takes an int, and refuses a threshold above its 32 MiB ceiling on 64-bit.
    EXPECT_LE(kHeapMmapThresholdBytes, std::size_t{32} << 20);
    EXPECT_LT(kHeapTopPadBytes, std::size_t{1} << 30);
}

std::map<std::string, std::string> probe(const std::string& environment) {
    const test::CommandResult r =
        test::runCommand("env -u TPSCOPE_HUGE_PAGES -u GLIBC_TUNABLES " + environment + " " + TPSCOPE_HUGE_PAGES_PROBE);
    EXPECT_EQ(r.exitCode, 0) << r.out;
    std::map<std::string, std::string> values;
    std::istringstream lines(r.out);
    std::string line;
    while (std::getline(lines, line)) {
        const std::size_t eq = line.find('=');
        if (eq != std::string::npos) values[line.substr(0, eq)] = line.substr(eq + 1);
    }
    return values;
}

// The program restarts itself with glibc's tunable where this machine's kernel and glibc call for it,
// and its large blocks then lie on huge pages; with TPSCOPE_HUGE_PAGES=0 it does not restart and,
// in madvise mode, gets none.
TEST(HugePages, AProgramRestartsWithItsLargeBlocksOnHugePages) {
#if !defined(__linux__) || !defined(__GLIBC__)
    GTEST_SKIP() << "glibc on Linux only";
#else
    std::ifstream file("/sys/kernel/mm/transparent_hugepage/enabled");
    const std::string enabled{std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
    const ThpMode mode = parseThpMode(enabled);
    int major = 0;
    int minor = 0;
    ASSERT_EQ(std::sscanf(gnu_get_libc_version(), "%d.%d", &major, &minor), 2);
    const HugePagesPlan plan = planHugePages(mode, nullptr, nullptr, nullptr, major, minor);

    auto started = probe("");
    if (plan.restart) {
        EXPECT_EQ(started["marker"], "1");
        EXPECT_EQ(started["tunables"], "glibc.malloc.hugetlb=1");
#if !defined(__SANITIZE_ADDRESS__)  // a sanitizer's allocator is not glibc's
        EXPECT_GT(std::stol(started["anon_huge_kb"]), 0) << "THP mode: " << enabled;
#endif
    } else {
        EXPECT_EQ(started["marker"], "");
        EXPECT_EQ(started["reason"], plan.reason);
    }

    auto off = probe("TPSCOPE_HUGE_PAGES=0");
    EXPECT_EQ(off["marker"], "0");
    EXPECT_EQ(off["tunables"], "");
    EXPECT_EQ(off["reason"], "turned off (TPSCOPE_HUGE_PAGES=0)");
    EXPECT_EQ(off["growth"], "turned off (TPSCOPE_HUGE_PAGES=0)");
    if (mode == ThpMode::Madvise) {
        EXPECT_EQ(off["anon_huge_kb"], "0");
    }
#if !defined(__SANITIZE_ADDRESS__)  // a sanitizer's allocator is not glibc's
    // Tuned, an 8 MiB block comes from the arena, which grows by it and most of the 16 MiB pad;
    // glibc as it is hands it to mmap (its threshold starts at 128 KB).
    EXPECT_EQ(started["growth"], "heap growth tuned");
    EXPECT_EQ(started["medium_mmapped"], "0");
    EXPECT_GE(std::stol(started["arena_growth_mib"]), 16);
    EXPECT_EQ(off["medium_mmapped"], "1");
    EXPECT_EQ(off["arena_growth_mib"], "0");
    // The user's own values win.
    auto own = probe("GLIBC_TUNABLES=glibc.malloc.hugetlb=0:glibc.malloc.mmap_threshold=65536:glibc.malloc.top_pad=0");
    EXPECT_EQ(own["growth"], "GLIBC_TUNABLES sets both");
    EXPECT_EQ(own["medium_mmapped"], "1");
    EXPECT_EQ(own["arena_growth_mib"], "0");
#endif
    if (!plan.restart) GTEST_SKIP() << "no restart on this machine: " << plan.reason;
#endif
}

}  // namespace
}  // namespace tpscope::core
