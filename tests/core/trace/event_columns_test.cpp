#include "core/trace/event_columns.h"

#include <gtest/gtest.h>

#include <random>

namespace tpscope::core {
namespace {

EventRecord ev(std::int64_t start, std::int64_t dur) {
    EventRecord e;
    e.startNs = start;
    e.durNs = dur;
    e.kind = EventKind::Gemm;
    return e;
}

// Reference answer: every event overlapping [t0, t1), by a linear scan.
std::vector<std::size_t> overlapping(const EventColumns& c, std::int64_t t0, std::int64_t t1) {
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < c.size(); ++i) {
        if (c.startNs(i) < t1 && c.endNs(i) > t0) out.push_back(i);
    }
    return out;
}

TEST(EventColumns, VisibleRangeOfEmptyColumnsIsEmpty) {
    EventColumns c;
    c.finalize();
    EXPECT_TRUE(c.visibleRange(0, 100).empty());
}

TEST(EventColumns, VisibleRangeWithOneEvent) {
    EventColumns c;
    c.append(ev(100, 50));
    c.finalize();
    EXPECT_EQ(c.visibleRange(0, 200).size(), 1u);
    EXPECT_EQ(c.visibleRange(120, 130).size(), 1u);
    EXPECT_TRUE(c.visibleRange(0, 100).empty()) << "an event starting exactly at t1 is outside";
    EXPECT_TRUE(c.visibleRange(150, 300).empty()) << "an event ending exactly at t0 is outside";
    EXPECT_TRUE(c.visibleRange(200, 100).empty()) << "an inverted range is empty";
}

TEST(EventColumns, VisibleRangeOutsideTheDataIsEmpty) {
    EventColumns c;
    for (int i = 0; i < 10; ++i) c.append(ev(1000 + i * 100, 50));
    c.finalize();
    EXPECT_TRUE(c.visibleRange(0, 999).empty());
    EXPECT_TRUE(c.visibleRange(5000, 6000).empty());
}

TEST(EventColumns, EqualTimestampsAreAllReturned) {
    EventColumns c;
    for (int i = 0; i < 200; ++i) c.append(ev(500, 10));
    c.finalize();
    const auto r = c.visibleRange(505, 506);
    EXPECT_EQ(r.first, 0u);
    EXPECT_EQ(r.last, 200u);
    EXPECT_TRUE(c.visibleRange(510, 600).empty());
}

TEST(EventColumns, FinalizeSortsByStartKeepingColumnsTogether) {
    EventColumns c;
    EventRecord late = ev(300, 5);
    late.correlationId = 3;
    EventRecord early = ev(100, 7);
    early.correlationId = 1;
    c.append(late);
    c.append(early);
    c.finalize();
    EXPECT_EQ(c.startNs(0), 100);
    EXPECT_EQ(c.durNs(0), 7);
    EXPECT_EQ(c.correlationId(0), 1u);
    EXPECT_EQ(c.correlationId(1), 3u);
}

TEST(EventColumns, LongEventEarlierInTheStreamIsFoundAcrossBlocks) {
    // One event spans everything; hundreds of short ones follow: the query must still start at it.
    EventColumns c;
    c.append(ev(0, 1'000'000));
    for (int i = 1; i < 1000; ++i) c.append(ev(i * 100, 10));
    c.finalize();
    const auto r = c.visibleRange(90'000, 90'001);
    EXPECT_EQ(r.first, 0u);
    EXPECT_EQ(c.countOverlaps(), 999u);
}

TEST(EventColumns, VisibleRangeContainsExactlyTheOverlappingEventsOnRandomData) {
    std::mt19937_64 rng(42);
    EventColumns c;
    std::int64_t t = 0;
    for (int i = 0; i < 5000; ++i) {
        t += static_cast<std::int64_t>(rng() % 100);
        c.append(ev(t, static_cast<std::int64_t>(rng() % 500)));  // overlapping events
    }
    c.finalize();
    for (int q = 0; q < 500; ++q) {
        const auto t0 = static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(t + 1000));
        const auto t1 = t0 + static_cast<std::int64_t>(rng() % 2000) + 1;
        const auto expected = overlapping(c, t0, t1);
        const auto r = c.visibleRange(t0, t1);
        if (expected.empty()) {
            for (std::size_t i = r.first; i < r.last; ++i) EXPECT_FALSE(c.startNs(i) < t1 && c.endNs(i) > t0);
            continue;
        }
        EXPECT_LE(r.first, expected.front());
        EXPECT_EQ(r.first, expected.front()) << "the first index is the first overlapping event";
        EXPECT_GT(r.last, expected.back());
        // Events past the range all start at or after t1; inside it, an event may have ended
        // before t0 (it started after a longer one that is still running).
        if (r.last < c.size()) {
            EXPECT_GE(c.startNs(r.last), t1);
        }
        EXPECT_LT(c.startNs(r.last - 1), t1);
    }
}

TEST(EventColumns, ResidentBytesPerEventStaysWithinBudget) {
    EventColumns c;
    constexpr int kEvents = 100'000;
    c.reserve(kEvents);
    for (int i = 0; i < kEvents; ++i) c.append(ev(i * 10, 5));
    c.finalize();
    const double perEvent = static_cast<double>(c.residentBytes()) / kEvents;
    EXPECT_LE(perEvent, 32.0);
    EXPECT_GE(perEvent, 29.0) << "the columns are 29 bytes an event; less means a column went missing";
}

}  // namespace
}  // namespace tpscope::core
