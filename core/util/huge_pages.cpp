// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/util/huge_pages.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>

#if defined(__linux__) && defined(__GLIBC__)
#include <gnu/libc-version.h>
#include <malloc.h>
#include <unistd.h>
#endif

namespace tpscope::core {

namespace {

constexpr std::string_view kTunable = "glibc.malloc.hugetlb";

}  // namespace

ThpMode parseThpMode(std::string_view enabledFile) {
    const std::size_t open = enabledFile.find('[');
    const std::size_t close = enabledFile.find(']', open);
    if (open == std::string_view::npos || close == std::string_view::npos) return ThpMode::Unavailable;
    const std::string_view mode = enabledFile.substr(open + 1, close - open - 1);
    if (mode == "madvise") return ThpMode::Madvise;
    if (mode == "always") return ThpMode::Always;
    if (mode == "never") return ThpMode::Never;
    return ThpMode::Unavailable;
}

HugePagesPlan planHugePages(ThpMode mode, const char* tpscopeHugePages, const char* glibcTunables,
                            const char* ldPreload, int glibcMajor, int glibcMinor) {
    HugePagesPlan plan;
    const std::string_view tunables = glibcTunables != nullptr ? glibcTunables : "";
    if (tpscopeHugePages != nullptr) {
        plan.reason = std::string_view(tpscopeHugePages) == "0" ? "turned off (TPSCOPE_HUGE_PAGES=0)"
                                                                : "already restarted (TPSCOPE_HUGE_PAGES set)";
    } else if (tunables.find(kTunable) != std::string_view::npos) {
        plan.reason = "GLIBC_TUNABLES already sets glibc.malloc.hugetlb";
    } else if (ldPreload != nullptr && std::string_view(ldPreload).find("vgpreload") != std::string_view::npos) {
        plan.reason = "running under valgrind";
    } else if (glibcMajor < 2 || (glibcMajor == 2 && glibcMinor < 35)) {
        plan.reason = "glibc older than 2.35 has no glibc.malloc.hugetlb";
    } else if (mode != ThpMode::Madvise) {
        plan.reason = mode == ThpMode::Always ? "the kernel gives every large block huge pages (THP always)"
                                              : "no transparent huge pages (THP never or missing)";
    } else {
        plan.restart = true;
        plan.tunables = tunables.empty() ? std::string() : std::string(tunables) + ":";
        plan.tunables.append(kTunable).append("=1");
    }
    return plan;
}

std::string restartWithHugePages(char** argv) {
#if defined(__linux__) && defined(__GLIBC__)
    std::ifstream file("/sys/kernel/mm/transparent_hugepage/enabled");
    const std::string enabled{std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
    int major = 0;
    int minor = 0;
    if (std::sscanf(gnu_get_libc_version(), "%d.%d", &major, &minor) != 2) major = 0;
    const HugePagesPlan plan = planHugePages(parseThpMode(enabled), std::getenv("TPSCOPE_HUGE_PAGES"),
                                             std::getenv("GLIBC_TUNABLES"), std::getenv("LD_PRELOAD"), major, minor);
    if (!plan.restart) return plan.reason;
    const char* before = std::getenv("GLIBC_TUNABLES");
    const std::string saved = before != nullptr ? before : "";
    if (::setenv("TPSCOPE_HUGE_PAGES", "1", 1) != 0 || ::setenv("GLIBC_TUNABLES", plan.tunables.c_str(), 1) != 0) {
        return "could not set the environment";
    }
    std::fflush(nullptr);
    ::execv("/proc/self/exe", argv);
    // The exec failed (no /proc, say): go on as before, the environment as it was.
    if (before != nullptr) {
        ::setenv("GLIBC_TUNABLES", saved.c_str(), 1);
    } else {
        ::unsetenv("GLIBC_TUNABLES");
    }
    return "the restart failed (execv /proc/self/exe)";
#else
    (void)argv;
    return "only with glibc on Linux";
#endif
}

HeapGrowthPlan planHeapGrowth(const char* tpscopeHugePages, const char* glibcTunables) {
    HeapGrowthPlan plan;
    const std::string_view tunables = glibcTunables != nullptr ? glibcTunables : "";
    if (tpscopeHugePages != nullptr && std::string_view(tpscopeHugePages) == "0") {
        plan.reason = "turned off (TPSCOPE_HUGE_PAGES=0)";
        return plan;
    }
    // The user's own value of either wins (mallopt would override it).
    if (tunables.find("glibc.malloc.top_pad") == std::string_view::npos) plan.topPadBytes = kHeapTopPadBytes;
    if (tunables.find("glibc.malloc.mmap_threshold") == std::string_view::npos) {
        plan.mmapThresholdBytes = kHeapMmapThresholdBytes;
    }
    if (plan.topPadBytes == 0 && plan.mmapThresholdBytes == 0) plan.reason = "GLIBC_TUNABLES sets both";
    return plan;
}

std::string tuneHeapGrowth() {
#if defined(__linux__) && defined(__GLIBC__)
    const HeapGrowthPlan plan = planHeapGrowth(std::getenv("TPSCOPE_HUGE_PAGES"), std::getenv("GLIBC_TUNABLES"));
    // mallopt takes an int: both values are far below INT_MAX.
    if (plan.topPadBytes != 0 && ::mallopt(M_TOP_PAD, static_cast<int>(plan.topPadBytes)) != 1) {
        return "mallopt(M_TOP_PAD) refused";
    }
    if (plan.mmapThresholdBytes != 0 && ::mallopt(M_MMAP_THRESHOLD, static_cast<int>(plan.mmapThresholdBytes)) != 1) {
        return "mallopt(M_MMAP_THRESHOLD) refused";
    }
    return plan.reason.empty() ? "heap growth tuned" : plan.reason;
#else
    return "only with glibc on Linux";
#endif
}

}  // namespace tpscope::core
