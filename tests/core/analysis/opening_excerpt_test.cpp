// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// The opening excerpt draws, inside its window, exactly what the whole trace draws: every row's
// level-of-detail items at several widths and zooms are the same events, and the totals are the
// whole trace's.
#include <gtest/gtest.h>

#include <ostream>
#include <string>

#include "core/analysis/exposed_comm.h"
#include "core/analysis/opening_excerpt.h"
#include "core/sim/sim_test_support.h"
#include "core/trace/level_of_detail.h"
#include "core/trace/nvtx_depth_rows.h"
#include "core/trace/range_stats.h"

namespace tpscope::test {
namespace {

std::shared_ptr<core::Trace> simulatedRun(int tokens, const std::string& model = "llama3-8b", int tp = 4) {
    auto config = simConfig(model, "h100-sxm", "nvlink4", tp, 1, tokens);
    auto r = core::sim::simulate(config);
    EXPECT_TRUE(r) << r.error().describe();
    return r ? std::const_pointer_cast<core::Trace>(r->trace) : nullptr;
}

// The items of one row over [t0, t1) in both traces: same times, counts, kinds, representatives and
// labels; NVTX rows also the parity of their first index (the timeline alternates colours by it).
// Events: core::EventColumns or core::NvtxDepthRow (the timeline's NVTX rows).
template <class Events>
void expectSameItems(const core::Trace& full, const Events& a, const core::Trace& part, const Events& b,
                     std::int64_t t0, std::int64_t t1, int width, bool parity, const std::string& what) {
    const auto x = core::visibleSpans(a, t0, t1, width);
    const auto y = core::visibleSpans(b, t0, t1, width);
    ASSERT_EQ(x.size(), y.size()) << what << " width " << width;
    for (std::size_t i = 0; i < x.size(); ++i) {
        SCOPED_TRACE(what + " width " + std::to_string(width) + " item " + std::to_string(i));
        EXPECT_EQ(x[i].startNs, y[i].startNs);
        EXPECT_EQ(x[i].endNs, y[i].endNs);
        EXPECT_EQ(x[i].count, y[i].count);
        EXPECT_EQ(x[i].kind, y[i].kind);
        EXPECT_EQ(a.startNs(x[i].representative), b.startNs(y[i].representative));
        EXPECT_EQ(full.name(a.name(x[i].firstIndex)), part.name(b.name(y[i].firstIndex)));
        if (parity) {
            EXPECT_EQ(x[i].firstIndex % 2, y[i].firstIndex % 2);
        }
    }
}

void expectExcerptDrawsAsTrace(const std::shared_ptr<core::Trace>& full, int tokens) {
    const auto excerpt = core::analysis::makeOpeningExcerpt(*full);
    ASSERT_TRUE(excerpt);
    const core::Trace& part = *excerpt->events;
    ASSERT_EQ(part.ranks.size(), full->ranks.size());
    // Three steps or fewer: the window and its margins hold them all.
    if (tokens > 3) {
        EXPECT_LT(part.eventCount(), full->eventCount());
    } else {
        EXPECT_EQ(part.eventCount(), full->eventCount());
    }
    const std::int64_t w0 = excerpt->windowStartNs, w1 = excerpt->windowEndNs;
    const std::int64_t span = w1 - w0;
    // The window, zooms into it and its edges, at widths from a narrow pane to a wide screen.
    const std::pair<std::int64_t, std::int64_t> views[] = {
        {w0, w1}, {w0 + span / 3, w0 + span / 2}, {w0, w0 + span / 50}, {w1 - span / 7, w1}};
    for (const auto& [t0, t1] : views) {
        for (const int width : {97, 1112, 1600, 3840}) {
            for (std::size_t r = 0; r < full->ranks.size(); ++r) {
                const auto& fr = full->ranks[r];
                const auto& pr = part.ranks[r];
                ASSERT_EQ(fr.streams.size(), pr.streams.size());
                ASSERT_EQ(fr.hostThreads.size(), pr.hostThreads.size());
                for (std::size_t s = 0; s < fr.streams.size(); ++s) {
                    EXPECT_EQ(fr.streams[s].label, pr.streams[s].label);
                    expectSameItems(*full, fr.streams[s].events, part, pr.streams[s].events, t0, t1, width, false,
                                    "stream");
                }
                for (std::size_t h = 0; h < fr.hostThreads.size(); ++h) {
                    expectSameItems(*full, fr.hostThreads[h].events, part, pr.hostThreads[h].events, t0, t1, width,
                                    false, "host thread");
                }
                const auto fn = core::nvtxDepthIndex(fr, 2);
                const auto pn = core::nvtxDepthIndex(pr, 2);
                ASSERT_EQ(fn.size(), pn.size());
                for (std::size_t d = 0; d < fn.size(); ++d) {
                    expectSameItems(*full, core::NvtxDepthRow(fr.ranges, fn[d]), part,
                                    core::NvtxDepthRow(pr.ranges, pn[d]), t0, t1, width, true,
                                    "nvtx depth " + std::to_string(d));
                }
            }
        }
    }
}

struct Shape {
    std::string model;
    int tp = 0;
    int tokens = 0;
};

// Printed and named by its fields (the default prints the std::string's bytes, a heap address).
void PrintTo(const Shape& s, std::ostream* os) {
    *os << s.model << " tp" << s.tp << " " << s.tokens << " tokens";
}

std::string shapeName(const ::testing::TestParamInfo<Shape>& info) {
    std::string name =
        info.param.model + "_tp" + std::to_string(info.param.tp) + "_" + std::to_string(info.param.tokens) + "tokens";
    for (char& c : name) {
        if (c == '-') c = '_';
    }
    return name;
}

class OpeningExcerptShapes : public ::testing::TestWithParam<Shape> {};

// Several shapes, so that the excerpt's NVTX rows start at odd positions of the whole rank's rows too.
INSTANTIATE_TEST_SUITE_P(Shapes, OpeningExcerptShapes,
                         ::testing::Values(Shape{"llama3-8b", 4, 6}, Shape{"llama3-8b", 2, 3},
                                           Shape{"llama3-70b", 8, 4}, Shape{"llama2-7b", 2, 5},
                                           Shape{"llama3-8b", 8, 4}),
                         shapeName);

TEST_P(OpeningExcerptShapes, DrawsTheWholeTracesItemsInsideItsWindow) {
    const auto full = simulatedRun(GetParam().tokens, GetParam().model, GetParam().tp);
    ASSERT_TRUE(full);
    expectExcerptDrawsAsTrace(full, GetParam().tokens);
    // One more layer and block range before everything on every rank: each excerpt row's first range
    // moves to a position of the other parity, which the excerpt must keep (NVTX colours alternate).
    for (auto& rank : full->ranks) {
        const std::int64_t t = rank.ranges.front().startNs - 100;
        rank.ranges.push_back({t, t + 10, full->intern("early layer"), 1});
        rank.ranges.push_back({t, t + 10, full->intern("early block"), 2});
        rank.ranges.finalize();  // both first, as an insert at the front left them
    }
    expectExcerptDrawsAsTrace(full, GetParam().tokens);
}

TEST(OpeningExcerpt, ExposedCommunicationInsideTheWindowIsTheWholeTraces) {
    const auto full = simulatedRun(5);
    ASSERT_TRUE(full);
    const auto excerpt = core::analysis::makeOpeningExcerpt(*full);
    ASSERT_TRUE(excerpt);
    const auto clipped = [&](const std::vector<core::analysis::TimeInterval>& in) {
        std::vector<core::analysis::TimeInterval> out;
        for (auto [s, e] : in) {
            s = std::max(s, excerpt->windowStartNs);
            e = std::min(e, excerpt->windowEndNs);
            if (s < e) out.push_back({s, e});
        }
        return out;
    };
    std::size_t intervals = 0;
    for (std::size_t r = 0; r < full->ranks.size(); ++r) {
        const auto a = clipped(core::analysis::exposedCommIntervals(full->ranks[r]));
        const auto b = clipped(core::analysis::exposedCommIntervals(excerpt->events->ranks[r]));
        EXPECT_EQ(a, b) << "rank " << r;
        intervals += a.size();
    }
    EXPECT_GT(intervals, 0u);
}

TEST(OpeningExcerpt, TotalsAreTheWholeTraces) {
    const auto full = simulatedRun(4);
    ASSERT_TRUE(full);
    const auto excerpt = core::analysis::makeOpeningExcerpt(*full, 1);
    ASSERT_TRUE(excerpt);
    EXPECT_EQ(excerpt->traceStartNs, full->startNs());
    EXPECT_EQ(excerpt->traceEndNs, full->endNs());
    EXPECT_EQ(excerpt->traceEventCount, full->eventCount());
    ASSERT_EQ(excerpt->ranks.size(), full->ranks.size());
    for (std::size_t r = 0; r < full->ranks.size(); ++r) {
        const auto& rank = full->ranks[r];
        std::array<std::uint64_t, core::kEventKindCount> counts{};
        for (const auto& s : rank.streams) {
            for (std::size_t i = 0; i < s.events.size(); ++i) ++counts[static_cast<std::size_t>(s.events.kind(i))];
        }
        EXPECT_EQ(excerpt->ranks[r].kindCount, counts) << "rank " << r;
        std::int64_t exposed = 0;
        for (const auto& [s, e] : core::analysis::exposedCommIntervals(rank)) exposed += e - s;
        EXPECT_EQ(excerpt->ranks[r].exposedNs, exposed) << "rank " << r;
        EXPECT_GT(exposed, 0);
    }
}

TEST(OpeningExcerpt, OpensOnRankZerosSecondStep) {
    const auto full = simulatedRun(4);
    ASSERT_TRUE(full);
    std::vector<core::NvtxRange> steps;
    for (const auto& r : full->ranks.front().ranges) {
        if (r.depth == 0) steps.push_back(r);
    }
    ASSERT_GE(steps.size(), 2u);
    const auto window = core::analysis::openingWindow(*full);
    ASSERT_TRUE(window);
    EXPECT_EQ(window->first, steps[1].startNs);
    EXPECT_EQ(window->second, steps[1].endNs);
}

TEST(OpeningExcerpt, NoneWithoutStepsOnRankZero) {
    const auto full = simulatedRun(2);
    ASSERT_TRUE(full);
    core::Trace stripped = *full;
    stripped.ranks.front().ranges.clear();
    EXPECT_FALSE(core::analysis::openingWindow(stripped));
    EXPECT_FALSE(core::analysis::makeOpeningExcerpt(stripped));
}

}  // namespace
}  // namespace tpscope::test
