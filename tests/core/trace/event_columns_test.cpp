// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/trace/event_columns.h"
#include "core/trace/event_batch_builder.h"
#include "core/trace/event_scan.h"
#include "event_record_fixtures.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <random>
#include <string>
#include <vector>

namespace tpscope::core {
namespace {

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
    for (int i = 1; i < 1000; ++i) c.append(ev(std::int64_t{i} * 100, 10));
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
    constexpr int kEvents = 1562 * static_cast<int>(EventColumns::kBlock);  // whole blocks only
    c.reserve(kEvents);
    for (int i = 0; i < kEvents; ++i) {
        EventRecord e = ev(std::int64_t{i} * 10, 5);
        e.correlationId = 1000 + 3 * static_cast<std::uint32_t>(i);  // ids grow by small steps
        e.payload = i % 5 == 0 ? PayloadId{7} : kNoPayload;          // a collective now and then
        c.append(e);
    }
    c.finalize();
    const double perEvent = static_cast<double>(c.residentBytes()) / kEvents;
    // start offsets 2 (a block's starts span 630 ns) + durations 0 (all 5 ns) + label index 1 (two
    // labels in every block) + correlation cell 1 (ids 1 to 190 above the block's first), per block of
    // kBlock events its start base (8), max end (8), start, duration, label and correlation entries
    // (8 each) and correlation base (4), four bytes of padding after each of the four BlockCells, and
    // the stream's two distinct labels (name 4 + payload 4 + kind 1 each: the kernel with and without
    // its payload, one kind).
    const double perBlock = (8.0 + 8.0 + 8.0 + 8.0 + 8.0 + 8.0 + 4.0) / EventColumns::kBlock;
    const double perLabel = 4 + 4 + 1;
    const double expected = 2 + 0 + 1 + 1 + perBlock + (16 + 2 * perLabel) / kEvents;
    EXPECT_NEAR(perEvent, expected, 1e-9) << "more: a column is wider than planned; less: one went missing";
    EXPECT_LE(perEvent, 9.5);

    // One label, every id 0: no correlation column, and an event appended later with a payload adds a
    // label while every earlier event keeps its none.
    EventColumns none;
    for (int i = 0; i < kEvents; ++i) none.append(ev(std::int64_t{i} * 10, 5));
    none.finalize();
    // The same blocks without a correlation column (entry and base), one label: no byte an event for it.
    EXPECT_NEAR(static_cast<double>(none.residentBytes()) / kEvents,
                2 + 0 + 0 + perBlock - (8.0 + 4.0) / EventColumns::kBlock + (12 + perLabel) / kEvents, 1e-9);
    EventRecord late = ev(std::int64_t{kEvents} * 10, 5);
    late.payload = PayloadId{9};
    none.append(late);
    none.finalize();
    EXPECT_EQ(none.payload(0), kNoPayload);
    EXPECT_EQ(none.payload(static_cast<std::size_t>(kEvents)), PayloadId{9});
}

// Past 65,536 distinct (name, payload) labels a stream keeps a name column and a payload column; the
// values stay exact either way, before and after the switch, sorted or not.
TEST(EventColumns, StreamsWithMoreLabelsThanA16BitIndexKeepEveryNameAndPayload) {
    constexpr std::uint32_t kDistinct = 70'000;
    std::mt19937 rng(7);
    std::vector<EventRecord> events;
    for (std::uint32_t i = 0; i < 2 * kDistinct; ++i) {
        EventRecord e = ev(static_cast<std::int64_t>(i) * 10 + static_cast<std::int64_t>(rng() % 7), 5);
        e.name = NameId{i % kDistinct};
        e.payload = i % 3 == 0 ? PayloadId{i % 11 + 1} : kNoPayload;
        e.kind = static_cast<EventKind>(i % kEventKindCount);
        events.push_back(e);
    }
    std::swap(events[10], events[20'000]);  // one out of order: finalize() sorts
    EventColumns c;
    for (const auto& e : events) c.append(e);
    c.finalize();
    std::stable_sort(events.begin(), events.end(),
                     [](const EventRecord& a, const EventRecord& b) { return a.startNs < b.startNs; });
    ASSERT_EQ(c.size(), events.size());
    for (std::size_t i = 0; i < events.size(); ++i) {
        ASSERT_EQ(c.name(i), events[i].name) << i;
        ASSERT_EQ(c.payload(i), events[i].payload) << i;
        ASSERT_EQ(c.startNs(i), events[i].startNs) << i;
        ASSERT_EQ(c.kind(i), events[i].kind) << i;
        ASSERT_EQ(c.kinds()[i], static_cast<std::uint8_t>(events[i].kind)) << i;
    }
    // A scan's names and kinds come from the 32-bit name column and the byte an event.
    EventScan scan(c, EventScan::kNames | EventScan::kKinds);
    for (std::size_t i = 0; i < events.size(); ++i) {
        ASSERT_EQ(scan.name(i), events[i].name) << "scanned " << i;
        ASSERT_EQ(scan.kind(i), static_cast<std::uint8_t>(events[i].kind)) << "scanned " << i;
    }
    // Names 4 + payloads 4 + kinds 1 per event now beside starts 2 (a block's span about 640 ns) and
    // durations 0 (all 5 ns), no label index (and no correlation column: every id is 0).
    EXPECT_GE(static_cast<double>(c.residentBytes()) / static_cast<double>(c.size()), 2 + 0 + 4 + 4 + 1);
}

// Starts stored narrow as they come equal the starts of a stream narrowed by finalize() after a
// sort, escapes included; an out-of-order event in the middle of a batch is sorted into place.
TEST(EventColumns, StartsNarrowedWhileAppendingEqualStartsNarrowedAtTheEnd) {
    std::vector<std::int64_t> starts;
    std::int64_t t = 1'000;
    std::mt19937_64 rng(11);
    for (int i = 0; i < 5'000; ++i) {
        t += static_cast<std::int64_t>(rng() % 3'000);
        if (i % 977 == 0) t += 5'000'000'000;  // a gap past 32 bits inside a block: an escape
        starts.push_back(t);
    }
    EventColumns inOrder;
    for (const auto s : starts) inOrder.append(ev(s, 5));
    inOrder.finalize();
    auto shuffled = starts;
    std::shuffle(shuffled.begin(), shuffled.end(), rng);
    EventColumns outOfOrder;
    const std::vector<std::int64_t> durs(shuffled.size(), 5);
    const std::vector<std::uint32_t> names(shuffled.size(), 0);
    const std::vector<std::uint8_t> kinds(shuffled.size(), static_cast<std::uint8_t>(EventKind::Gemm));
    const std::vector<std::uint32_t> corr(shuffled.size(), 0);
    outOfOrder.append(EventBatch{shuffled, durs, names, kinds, corr, {}});
    outOfOrder.finalize();
    EXPECT_TRUE(inOrder == outOfOrder);
    for (std::size_t i = 0; i < starts.size(); ++i) ASSERT_EQ(inOrder.startNs(i), starts[i]) << i;
    EXPECT_EQ(inOrder.residentBytes(), outOfOrder.residentBytes());
}

TEST(EventColumns, DurationsOutside32BitsAreKeptExactly) {
    // Appended out of order, so finalize() permutes the escaped durations along with the rest.
    const std::array<std::int64_t, 7> durations = {
        7, UINT32_MAX - 1, UINT32_MAX, std::int64_t{UINT32_MAX} + 1, 5'000'000'000, -3, 0};
    EventColumns c;
    const int n = static_cast<int>(std::size(durations));
    for (int i = 0; i < n; ++i) c.append(ev(std::int64_t{1000} * (n - i), durations[i]));
    c.finalize();
    for (int i = 0; i < n; ++i) {
        const auto at = static_cast<std::size_t>(n - 1 - i);  // sorted by start: reversed
        EXPECT_EQ(c.startNs(at), std::int64_t{1000} * (n - i));
        EXPECT_EQ(c.durNs(at), durations[i]) << "duration " << durations[i];
        EXPECT_EQ(c.endNs(at), std::int64_t{1000} * (n - i) + durations[i]);
        EXPECT_EQ(c.at(at).durNs, durations[i]);
    }
    EXPECT_EQ(c.lastEndNs(), std::int64_t{1000} * (n - 4) + 5'000'000'000);  // the 5 s event ends last
}

TEST(EventColumns, CorrelationIdsAreExactNarrowedOrNot) {
    auto build = [](auto idOf, int n) {
        EventColumns c;
        for (int i = 0; i < n; ++i) {
            EventRecord e = ev(i, 1);
            e.correlationId = idOf(i);
            c.append(e);
        }
        c.finalize();
        return c;
    };
    const int n = 1000;
    auto small = [](int i) { return 4'000'000'000u + static_cast<std::uint32_t>(i) * 9u; };      // 567 a block: 16 bits
    auto jumpy = [](int i) { return static_cast<std::uint32_t>(i % 2) * 3'000'000'000u + 5u; };  // 32 bits
    EventColumns narrow = build(small, n);
    EventColumns wide = build(jumpy, n);
    for (int i = 0; i < n; ++i) {
        ASSERT_EQ(narrow.correlationId(static_cast<std::size_t>(i)), small(i)) << i;
        ASSERT_EQ(wide.correlationId(static_cast<std::size_t>(i)), jumpy(i)) << i;
    }
    EXPECT_EQ(wide.residentBytes() - narrow.residentBytes(), static_cast<std::size_t>(n) * (4 - 2))
        << "narrow: 2 bytes a cell in every block instead of 4";
    // Appending after finalize() widens them again; nothing is lost.
    EventRecord last = ev(n, 1);
    last.correlationId = 17;
    narrow.append(last);
    narrow.finalize();
    for (int i = 0; i < n; ++i) ASSERT_EQ(narrow.correlationId(static_cast<std::size_t>(i)), small(i)) << i;
    EXPECT_EQ(narrow.correlationId(static_cast<std::size_t>(n)), 17u);
    EXPECT_EQ(narrow, build([&](int i) { return i < n ? small(i) : 17u; }, n + 1));
}

// Random events (some out of order, durations past 32 bits or negative, payloads on some batches only,
// ids that narrow or not), appended event by event and batch by batch, before and after finalize().
TEST(EventColumns, BatchAppendEqualsEventByEventAppend) {
    std::mt19937_64 rng(11);
    std::uniform_int_distribution<int> pick(0, 99);
    EventColumns byEvent, byBatch;
    std::int64_t t = 0;
    for (int round = 0; round < 3; ++round) {
        for (int batch = 0; batch < 20; ++batch) {
            const std::size_t n = static_cast<std::size_t>(pick(rng)) * 3;  // 0 included
            const bool payloads = batch % 3 == 1;
            std::vector<std::int64_t> starts, durs;
            std::vector<std::uint32_t> names, correlations;
            std::vector<std::uint8_t> kinds;
            std::vector<PayloadId> payloadIds;
            for (std::size_t i = 0; i < n; ++i) {
                t += pick(rng) < 5 ? -50 : pick(rng);
                const int d = pick(rng);
                const std::int64_t dur = d == 0 ? std::int64_t{UINT32_MAX} + d : (d == 1 ? -7 : d * 13);
                EventRecord e{t,
                              dur,
                              NameId{static_cast<std::uint32_t>(pick(rng))},
                              static_cast<EventKind>(pick(rng) % kEventKindCount),
                              static_cast<std::uint32_t>(round == 1 ? std::int64_t{pick(rng)} * 70'000 : t + 1000),
                              payloads ? static_cast<PayloadId>(pick(rng) % 4) : kNoPayload};
                byEvent.append(e);
                starts.push_back(e.startNs);
                durs.push_back(e.durNs);
                names.push_back(e.name.value);
                kinds.push_back(static_cast<std::uint8_t>(e.kind));
                correlations.push_back(e.correlationId);
                payloadIds.push_back(e.payload);
            }
            byBatch.append(
                EventBatch{starts, durs, names, kinds, correlations,
                           payloads ? std::span<const PayloadId>(payloadIds) : std::span<const PayloadId>()});
            ASSERT_EQ(byBatch.size(), byEvent.size());
        }
        byEvent.finalize();
        byBatch.finalize();
        ASSERT_EQ(byBatch, byEvent) << "round " << round;
        EXPECT_EQ(byBatch.residentBytes(), byEvent.residentBytes()) << "round " << round;
        for (std::size_t i = 0; i < byEvent.size(); ++i) {
            ASSERT_EQ(byBatch.durNs(i), byEvent.durNs(i)) << i;
            ASSERT_EQ(byBatch.payload(i), byEvent.payload(i)) << i;
        }
    }
}

// Starts 4.3 s or more past their block's first (idle gaps inside a block, at any place in it) are
// kept exactly, and binary searches and visible ranges see every start as appended.
TEST(EventColumns, StartsFarFromTheirBlockAreKeptExactly) {
    std::mt19937_64 rng(3);
    std::uniform_int_distribution<int> pick(0, 999);
    EventColumns c;
    std::vector<std::int64_t> starts;
    std::int64_t t = -3'000'000'000'000;  // negative times too (imported traces with offsets)
    for (int i = 0; i < 5000; ++i) {
        const int p = pick(rng);
        t += p < 3 ? std::int64_t{UINT32_MAX} + pick(rng) : (p < 6 ? 9'000'000'000'000 : p);  // gaps at random
        starts.push_back(t);
        c.append(ev(t, pick(rng) < 10 ? 6'000'000'000 : 40));
    }
    c.finalize();
    std::size_t far = 0;
    for (std::size_t i = 0; i < starts.size(); ++i) {
        ASSERT_EQ(c.startNs(i), starts[i]) << i;
        far += starts[i] - starts[i / EventColumns::kBlock * EventColumns::kBlock] >= std::int64_t{UINT32_MAX};
    }
    EXPECT_GT(far, 10u) << "the test must exercise the escape";
    for (int q = 0; q < 2000; ++q) {
        const std::int64_t at = starts[static_cast<std::size_t>(pick(rng)) * starts.size() / 1000] + pick(rng) - 500;
        const auto want = static_cast<std::size_t>(std::lower_bound(starts.begin(), starts.end(), at) - starts.begin());
        ASSERT_EQ(c.lowerBoundStart(at, 0, c.size()), want) << at;
        const std::size_t lo = static_cast<std::size_t>(pick(rng)), hi = lo + static_cast<std::size_t>(pick(rng)) * 4;
        const auto clamped = std::clamp(want, lo, std::max(lo, std::min(hi, c.size())));
        ASSERT_EQ(c.lowerBoundStart(at, lo, std::min(hi, c.size())), std::max(lo, clamped))
            << at << " in [" << lo << ", " << hi << ")";
        const std::int64_t t1 = at + 1 + std::int64_t{pick(rng)} * 10'000'000;
        const auto expected = overlapping(c, at, t1);
        const auto range = c.visibleRange(at, t1);
        if (!expected.empty()) {
            ASSERT_EQ(range.first, expected.front()) << at;
            ASSERT_GT(range.last, expected.back()) << at;
        }
        if (range.last < c.size()) {
            ASSERT_GE(c.startNs(range.last), t1) << at;
        }
        if (range.last > range.first) {
            ASSERT_LT(c.startNs(range.last - 1), t1) << at;
        }
    }
    // Appending after finalize() widens them again; nothing is lost.
    c.append(ev(t + 1, 1));
    c.finalize();
    for (std::size_t i = 0; i < starts.size(); ++i) ASSERT_EQ(c.startNs(i), starts[i]) << i;
    EXPECT_EQ(c.startNs(starts.size()), t + 1);
}

}  // namespace
}  // namespace tpscope::core

namespace tpscope::core {
namespace {

// EventBatchBuilder: across several batches (a partial one last), with starts out of order, a
// duration beyond 32 bits and more names than fit one batch, the columns equal event-by-event appends.
TEST(EventBatchBuilder, ColumnsEqualEventByEventAppends) {
    std::mt19937_64 rng(5);
    const std::size_t n = 3 * EventBatchBuilder::kBatch + 123;
    EventColumns byEvent;
    EventColumns byBatch;
    {
        EventBatchBuilder builder(byBatch);
        std::int64_t t = 1'000'000;
        for (std::size_t i = 0; i < n; ++i) {
            t += static_cast<std::int64_t>(rng() % 5000);
            const std::int64_t start = i == n / 2 ? t - 900'000 : t;  // one event out of order
            const std::int64_t dur = i == 7 ? (std::int64_t{1} << 33) : static_cast<std::int64_t>(rng() % 3000);
            const NameId name{static_cast<std::uint32_t>(rng() % 9000)};
            const EventKind kind = i % 3 == 0 ? EventKind::Collective : EventKind::Other;
            byEvent.append({start, dur, name, kind, 0, kNoPayload});
            builder.add(start, dur, name, kind);
        }
        builder.flush();  // the last, partial batch
    }
    byEvent.finalize();
    byBatch.finalize();
    ASSERT_EQ(byBatch.size(), n);
    EXPECT_TRUE(byBatch == byEvent);
    for (std::size_t i = 0; i < n; i += 97) {
        EXPECT_EQ(byBatch.at(i).startNs, byEvent.at(i).startNs);
        EXPECT_EQ(byBatch.at(i).durNs, byEvent.at(i).durNs);
        EXPECT_EQ(byBatch.name(i), byEvent.name(i));
        EXPECT_EQ(byBatch.payload(i), kNoPayload);
        EXPECT_EQ(byBatch.correlationId(i), 0u);
    }
}

}  // namespace
}  // namespace tpscope::core
