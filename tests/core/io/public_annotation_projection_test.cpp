// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// CPU annotation trees of the public Kineto traces (ProfilerStep#N > forward > ...), projected onto
// the GPU work they launched (step_projection.h): every range shown lies in GPU time (it starts at a
// kernel's start and ends at a kernel's end on its rank), nesting holds (a range below depth 0 lies
// inside one a depth above), and the ProfilerStep range is a depth-0 range above its kernels.
// Skipped when the traces are absent.

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "core/io/import/trace_reader.h"
#include "test_support.h"

namespace tpscope::test {
namespace {

void expectRangesInGpuTime(const char* file) {
    auto trace = core::readTrace((publicTraces() / file).string());
    ASSERT_TRUE(trace) << trace.error().describe();
    const core::Trace& t = **trace;
    std::size_t profilerSteps = 0;
    for (const auto& rank : t.ranks) {
        std::set<std::int64_t> starts;
        std::set<std::int64_t> ends;
        for (const auto& s : rank.streams) {
            for (std::size_t i = 0; i < s.events.size(); ++i) {
                starts.insert(s.events.startNs(i));
                ends.insert(s.events.endNs(i));
            }
        }
        for (const auto& r : rank.ranges) {
            const std::string name(t.name(r.name));
            EXPECT_TRUE(starts.count(r.startNs) == 1 && ends.count(r.endNs) == 1)
                << file << " rank " << rank.id.value << ": " << name << " is not in GPU time";
            if (r.depth > 0) {
                bool inside = false;
                for (const auto& p : rank.ranges) {
                    inside = inside || (p.depth + 1 == r.depth && p.startNs <= r.startNs && r.endNs <= p.endNs);
                }
                EXPECT_TRUE(inside) << file << ": " << name << " at depth " << int{r.depth} << " has no parent";
            }
            if (name.rfind("ProfilerStep#", 0) == 0) {
                ++profilerSteps;
                EXPECT_EQ(r.depth, 0) << file << ": " << name;
            }
        }
    }
    EXPECT_GT(profilerSteps, 0U) << file;
}

TEST(PublicAnnotationProjection, ParamDlrmEightRanks) {
    TPSCOPE_REQUIRE_PUBLIC("param-dlrm_kineto-8rank");
    expectRangesInGpuTime("param-dlrm_kineto-8rank");
}

TEST(PublicAnnotationProjection, HtaV100ProfilerSteps) {
    TPSCOPE_REQUIRE_PUBLIC("hta-df_index_resolver/df_index_resolver.json.gz");
    expectRangesInGpuTime("hta-df_index_resolver/df_index_resolver.json.gz");
}

TEST(PublicAnnotationProjection, HtaControlTrace) {
    TPSCOPE_REQUIRE_PUBLIC("hta-trace_diff-control/control.json.gz");
    expectRangesInGpuTime("hta-trace_diff-control/control.json.gz");
}

}  // namespace
}  // namespace tpscope::test
