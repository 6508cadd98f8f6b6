// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/trace/level_of_detail.h"

#include <gtest/gtest.h>

#include <random>

namespace tpscope::core {
namespace {

EventColumns columnsOf(const std::vector<EventRecord>& records) {
    EventColumns c;
    for (const auto& r : records) c.append(r);
    c.finalize();
    return c;
}

EventRecord ev(std::int64_t start, std::int64_t dur, EventKind kind = EventKind::Gemm) {
    return EventRecord{start, dur, NameId{1}, kind, 0, kNoPayload};
}

// Back-to-back kernels with random widths (1 ns .. 200 us) and random gaps, like a decode stream.
EventColumns randomStream(std::size_t n, unsigned seed) {
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<int> kind(0, kEventKindCount - 1);
    std::lognormal_distribution<double> dur(8.0, 2.0);
    std::uniform_int_distribution<std::int64_t> gap(0, 3000);
    EventColumns c;
    std::int64_t t = 1000;
    for (std::size_t i = 0; i < n; ++i) {
        const auto d = std::clamp<std::int64_t>(static_cast<std::int64_t>(dur(rng)), 1, 200'000);
        c.append(ev(t, d, static_cast<EventKind>(kind(rng))));
        t += d + gap(rng);
    }
    c.finalize();
    return c;
}

std::size_t bruteForceVisible(const EventColumns& c, std::int64_t t0, std::int64_t t1) {
    std::size_t n = 0;
    for (std::size_t i = 0; i < c.size(); ++i) n += c.startNs(i) < t1 && c.endNs(i) > t0;
    return n;
}

TEST(LevelOfDetail, PixelColumnAndColumnStartAreInverse) {
    std::mt19937_64 rng(7);
    std::uniform_int_distribution<std::int64_t> t(-1'000'000, 5'000'000);
    for (int k = 0; k < 2000; ++k) {
        const std::int64_t t0 = 12'345, t1 = 3'000'017;
        const int width = 1 + k % 1999;
        const std::int64_t x = t(rng);
        const std::int64_t c = pixelColumn(x, t0, t1, width);
        EXPECT_LE(columnStartNs(c, t0, t1, width), x);
        EXPECT_GT(columnStartNs(c + 1, t0, t1, width), x);
    }
}

TEST(LevelOfDetail, ZoomedInItemsAreExactlyTheEvents) {
    std::vector<EventRecord> records;
    records.reserve(100);
    for (int i = 0; i < 100; ++i) {
        records.push_back(ev(std::int64_t{i} * 1500, 1000, i % 2 ? EventKind::Gemm : EventKind::Collective));
    }
    const auto c = columnsOf(records);
    // 100 ns per pixel: every event is 10 px wide.
    const auto spans = visibleSpans(c, 0, 150'000, 1500);
    ASSERT_EQ(spans.size(), 100u);
    for (std::size_t i = 0; i < spans.size(); ++i) {
        EXPECT_EQ(spans[i].count, 1u);
        EXPECT_EQ(spans[i].firstIndex, i);
        EXPECT_EQ(spans[i].representative, i);
        EXPECT_EQ(spans[i].startNs, records[i].startNs);
        EXPECT_EQ(spans[i].endNs, records[i].endNs());
        EXPECT_EQ(spans[i].kind, records[i].kind);
    }
}

TEST(LevelOfDetail, AtMostOneItemStartsInEachPixelColumn) {
    const auto c = randomStream(200'000, 1);
    const std::int64_t begin = c.firstStartNs(), end = c.lastEndNs();
    for (const int width : {1, 37, 800, 1920}) {
        for (const std::int64_t divisor : {1, 10, 1000, 100'000}) {
            const std::int64_t span = (end - begin) / divisor;
            const std::int64_t t0 = begin + (end - begin - span) / 2, t1 = t0 + span;
            const auto spans = visibleSpans(c, t0, t1, width);
            ASSERT_LE(spans.size(), static_cast<std::size_t>(width));
            std::int64_t previous = -1;
            for (const auto& s : spans) {
                const std::int64_t column = std::max<std::int64_t>(0, pixelColumn(s.startNs, t0, t1, width));
                EXPECT_GT(column, previous);
                EXPECT_LT(column, width);
                previous = column;
            }
        }
    }
}

TEST(LevelOfDetail, CountsAddUpToTheVisibleEventsAndCoverThemInOrder) {
    const auto c = randomStream(100'000, 2);
    const std::int64_t begin = c.firstStartNs(), end = c.lastEndNs();
    for (const std::int64_t divisor : {1, 7, 300, 20'000}) {
        const std::int64_t span = (end - begin) / divisor;
        const std::int64_t t0 = begin + (end - begin - span) / 3, t1 = t0 + span;
        const auto spans = visibleSpans(c, t0, t1, 1000);
        std::size_t total = 0;
        std::size_t next = spans.empty() ? 0 : spans.front().firstIndex;
        for (const auto& s : spans) {
            EXPECT_EQ(s.firstIndex, next);  // items tile the visible index range without gaps
            EXPECT_GE(s.representative, s.firstIndex);
            EXPECT_LT(s.representative, s.firstIndex + s.count);
            EXPECT_LE(s.startNs, s.endNs);
            next = s.firstIndex + s.count;
            total += s.count;
        }
        EXPECT_EQ(total, bruteForceVisible(c, t0, t1)) << "divisor " << divisor;
    }
}

TEST(LevelOfDetail, DenseRunOfNarrowEventsFoldsIntoOneItemWithTheDominantKind) {
    std::vector<EventRecord> records;
    // 1000 back-to-back 10 ns kernels, one in ten a collective: 10 us in a 1 ms view of 1000 px.
    records.reserve(1000);
    for (int i = 0; i < 1000; ++i) {
        records.push_back(ev(100'000 + i * 10, 10, i % 10 == 0 ? EventKind::Collective : EventKind::Gemm));
    }
    const auto c = columnsOf(records);
    const auto spans = visibleSpans(c, 0, 1'000'000, 1000);
    ASSERT_EQ(spans.size(), 1u);
    EXPECT_EQ(spans[0].count, 1000u);
    EXPECT_TRUE(spans[0].folded());
    EXPECT_EQ(spans[0].kind, EventKind::Gemm);
    EXPECT_EQ(spans[0].startNs, 100'000);
    EXPECT_EQ(spans[0].endNs, 100'000 + 1000 * 10);
}

TEST(LevelOfDetail, WideEventAfterARunStaysExact) {
    // 1 us per pixel: twenty 100 ns kernels, a gap of 5 px, then one 50 us GEMM.
    std::vector<EventRecord> records;
    records.reserve(21);
    for (int i = 0; i < 20; ++i) records.push_back(ev(10'000 + i * 100, 100, EventKind::Elementwise));
    records.push_back(ev(17'000, 50'000, EventKind::Gemm));
    const auto c = columnsOf(records);
    const auto spans = visibleSpans(c, 0, 1'000'000, 1000);
    ASSERT_EQ(spans.size(), 2u);
    EXPECT_EQ(spans[0].count, 20u);
    EXPECT_EQ(spans[0].kind, EventKind::Elementwise);
    EXPECT_EQ(spans[1].count, 1u);
    EXPECT_EQ(spans[1].firstIndex, 20u);
    EXPECT_EQ(spans[1].kind, EventKind::Gemm);
}

TEST(LevelOfDetail, RunsSeparatedByMoreThanAPixelStaySeparate) {
    // Two bursts of narrow kernels 100 px apart at 1 us per pixel.
    std::vector<EventRecord> records;
    records.reserve(10);
    for (int i = 0; i < 5; ++i) records.push_back(ev(1'000 + i * 50, 40, EventKind::Gemm));
    for (int i = 0; i < 5; ++i) records.push_back(ev(101'000 + i * 50, 40, EventKind::Collective));
    const auto spans = visibleSpans(columnsOf(records), 0, 1'000'000, 1000);
    ASSERT_EQ(spans.size(), 2u);
    EXPECT_EQ(spans[0].kind, EventKind::Gemm);
    EXPECT_EQ(spans[1].kind, EventKind::Collective);
    EXPECT_EQ(spans[1].firstIndex, 5u);
}

// 1 us per pixel; 100 back-to-back 10 ns kernels per pixel: a dense run where whole columns are taken at once.
std::vector<EventRecord> denseRun(std::int64_t from, std::int64_t to, EventKind kind = EventKind::Gemm) {
    std::vector<EventRecord> r;
    for (std::int64_t t = from; t < to; t += 10) r.push_back(ev(t, 10, kind));
    return r;
}

TEST(LevelOfDetail, DenseRunStopsAtAGapOfSeveralPixels) {
    auto records = denseRun(0, 400'000);
    const auto second = denseRun(405'000, 800'000);
    records.insert(records.end(), second.begin(), second.end());
    const auto spans = visibleSpans(columnsOf(records), 0, 1'000'000, 1000);
    ASSERT_EQ(spans.size(), 2u);
    EXPECT_EQ(spans[0].count, 40'000u);
    EXPECT_EQ(spans[0].endNs, 400'000);
    EXPECT_EQ(spans[1].startNs, 405'000);
    EXPECT_EQ(spans[1].count, second.size());
}

TEST(LevelOfDetail, WideEventInsideADenseRunStaysExact) {
    auto records = denseRun(0, 300'000, EventKind::Elementwise);
    records.push_back(ev(300'000, 10'000, EventKind::Attention));  // 10 px
    const auto rest = denseRun(310'000, 700'000, EventKind::Elementwise);
    records.insert(records.end(), rest.begin(), rest.end());
    const auto spans = visibleSpans(columnsOf(records), 0, 1'000'000, 1000);
    ASSERT_EQ(spans.size(), 3u);
    EXPECT_EQ(spans[1].count, 1u);
    EXPECT_EQ(spans[1].kind, EventKind::Attention);
    EXPECT_EQ(spans[1].startNs, 300'000);
    EXPECT_EQ(spans[0].count + spans[1].count + spans[2].count, records.size());
}

TEST(LevelOfDetail, EventStartingBeforeTheViewIsClampedToTheFirstColumn) {
    const auto c = columnsOf({ev(0, 10'000), ev(10'000, 10'000)});
    const auto spans = visibleSpans(c, 5'000, 15'000, 100);
    ASSERT_EQ(spans.size(), 2u);
    EXPECT_EQ(spans[0].startNs, 0);
    EXPECT_EQ(spans[1].startNs, 10'000);
}

TEST(LevelOfDetail, DegenerateViewsYieldNothing) {
    const auto c = columnsOf({ev(0, 10)});
    EXPECT_TRUE(visibleSpans(c, 0, 100, 0).empty());
    EXPECT_TRUE(visibleSpans(c, 100, 100, 10).empty());
    EXPECT_TRUE(visibleSpans(EventColumns{}, 0, 100, 10).empty());
    EXPECT_TRUE(visibleSpans(c, 50, 100, 10).empty());
}

}  // namespace
}  // namespace tpscope::core
