// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Issue 27 §3 on the public real traces (shared/traces/public): with the built-in rules, the kernels
// classed "other" take less than 5 % of each trace's kernel time. Skipped when the folder is absent.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "core/io/import/trace_reader.h"
#include "core/trace/kernel_time.h"
#include "io_test_util.h"
#include "test_support.h"

namespace tpscope::test {
namespace {

std::vector<std::filesystem::path> publicTraceFiles() {
    std::vector<std::filesystem::path> out;
    if (!std::filesystem::exists(publicTraces())) return out;
    for (const auto& e : std::filesystem::recursive_directory_iterator(publicTraces())) {
        const std::string name = e.path().filename().string();
        if (name.ends_with(".json") || name.ends_with(".json.gz") || name.ends_with(".sqlite")) out.push_back(e.path());
    }
    std::sort(out.begin(), out.end());
    return out;
}

TEST(PublicKernelClasses, OtherIsUnderFivePercentOfKernelTimeOnEveryPublicTrace) {
    const auto files = publicTraceFiles();
    if (files.empty()) GTEST_SKIP() << "no public traces under " << publicTraces();
    for (const auto& file : files) {
        auto trace = core::readTrace(file.string());
        ASSERT_TRUE(trace) << trace.error().describe();
        const core::KernelTime time = core::kernelTime(**trace);
        // The share, recomputed from the events with the io tests' own tally.
        const auto all = tally(**trace, [](std::string_view) { return true; });
        std::int64_t otherNs = 0;
        for (const auto& r : (*trace)->ranks) {
            for (const auto& s : r.streams) {
                for (std::size_t i = 0; i < s.events.size(); ++i) {
                    if (s.events.kind(i) == core::EventKind::Other) otherNs += s.events.durNs(i);
                }
            }
        }
        ASSERT_GT(all.sumNs, 0) << file;
        EXPECT_EQ(time.kernelNs, all.sumNs) << file;
        const double share = static_cast<double>(otherNs) / static_cast<double>(all.sumNs);
        EXPECT_DOUBLE_EQ(time.share(core::EventKind::Other), share) << file;
        EXPECT_LT(share, 0.05) << file << ": "
                               << (core::topKernelNames(**trace, core::EventKind::Other, 1).empty()
                                       ? std::string()
                                       : core::topKernelNames(**trace, core::EventKind::Other, 1)[0].name);
    }
}

}  // namespace
}  // namespace tpscope::test
