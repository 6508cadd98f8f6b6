// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// EventColumns' compact columns (core/trace/event_columns.h): correlation ids narrowed beside id 0, and
// kinds kept per label. The rest of the columns' tests are in event_columns_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "core/trace/event_columns.h"
#include "event_record_fixtures.h"

namespace tpscope::core {
namespace {

// Correlation id 0 (a call that launched nothing) beside large ids keeps a block narrow: its offset is
// kIdZero and the block's base is its smallest other id. Every escape, appended event by event, in
// batches of several sizes (blocks continued across batches, partial blocks re-based) and narrowed by
// finalize() after a sort: the same ids, and the same bytes when they fit.
TEST(EventColumns, CorrelationIdZeroKeepsBlocksNarrow) {
    constexpr std::size_t kB = EventColumns::kBlock;
    constexpr std::uint32_t kFar = 400'000;  // a launch thread's ids after a while
    struct Case {
        const char* what;
        std::vector<std::uint32_t> ids;
        bool narrow;
    };
    std::vector<Case> cases;
    auto make = [](std::size_t n, auto idOf) {
        std::vector<std::uint32_t> ids(n);
        for (std::size_t i = 0; i < n; ++i) ids[i] = idOf(i);
        return ids;
    };
    cases.push_back({"id 0 only", make(5 * kB + 3, [](std::size_t) { return 0u; }), true});
    cases.push_back(
        {"id 0 beside large ids",
         make(40 * kB + 17, [](std::size_t i) { return i % 13 == 5 ? 0u : kFar + static_cast<std::uint32_t>(i) * 3; }),
         true});
    cases.push_back(
        {"blocks of zeros between large ids",
         make(12 * kB, [](std::size_t i) { return (i / kB) % 3 == 1 ? 0u : kFar + static_cast<std::uint32_t>(i); }),
         true});
    cases.push_back({"zeros first in a block, then a smaller id re-bases it",
                     make(6 * kB,
                          [](std::size_t i) {
                              const std::size_t j = i % kB;
                              return j < 5 ? 0u : (j < 40 ? kFar + 60'000 : kFar + static_cast<std::uint32_t>(j));
                          }),
                     true});
    cases.push_back({"a block begun with id 0, small ids, then one kMaxIdOffset above the smallest",
                     make(3 * kB,
                          [](std::size_t i) {
                              const std::size_t j = i % kB;
                              return j == 0 ? 0u : (j < 9 ? 5u : 5u + EventColumns::kMaxIdOffset);
                          }),
                     true});
    cases.push_back({"a jump of exactly kMaxIdOffset",
                     make(4 * kB,
                          [](std::size_t i) {
                              return i % kB == 7 ? kFar + EventColumns::kMaxIdOffset : (i % kB == 9 ? 0u : kFar);
                          }),
                     true});
    cases.push_back(
        {"a jump of kMaxIdOffset + 1 (the offset of id 0)",
         make(4 * kB, [](std::size_t i) { return i % kB == 7 ? kFar + EventColumns::kMaxIdOffset + 1 : kFar; }),
         false});
    cases.push_back(
        {"ids 1 and kMaxIdOffset + 1 beside 0",
         make(3 * kB,
              [](std::size_t i) { return i == kB + 2 ? EventColumns::kMaxIdOffset + 1 : (i == kB + 4 ? 0u : 1u); }),
         true});
    cases.push_back({"ids 1 and kMaxIdOffset + 2",
                     make(3 * kB, [](std::size_t i) { return i == kB + 2 ? EventColumns::kMaxIdOffset + 2 : 1u; }),
                     false});
    cases.push_back(
        {"largest ids beside 0",
         make(2 * kB + 1,
              [](std::size_t i) { return i % 2 == 0 ? 0u : UINT32_MAX - static_cast<std::uint32_t>(i % 5); }),
         true});

    for (const Case& c : cases) {
        const std::size_t n = c.ids.size();
        std::vector<std::int64_t> starts(n), durs(n, 5);
        for (std::size_t i = 0; i < n; ++i) starts[i] = static_cast<std::int64_t>(i) * 10;
        const std::vector<std::uint32_t> names(n, 3);
        const std::vector<std::uint8_t> kinds(n, static_cast<std::uint8_t>(EventKind::Other));
        auto expectIds = [&](const EventColumns& got, const std::string& how) {
            ASSERT_EQ(got.size(), n) << c.what << ", " << how;
            for (std::size_t i = 0; i < n; ++i)
                ASSERT_EQ(got.correlationId(i), c.ids[i]) << c.what << ", " << how << " " << i;
        };
        EventColumns byEvent;
        for (std::size_t i = 0; i < n; ++i) {
            EventRecord e = ev(starts[i], 5);
            e.correlationId = c.ids[i];
            byEvent.append(e);
            ASSERT_EQ(byEvent.correlationId(i), c.ids[i]) << c.what << ", while appending " << i;
        }
        byEvent.finalize();
        expectIds(byEvent, "event by event");
        // The same ids at 4 bytes each: a block of 64 narrow ids is 64 * 2 + 4 bytes instead of 64 * 4.
        EventColumns wide;
        std::vector<std::uint32_t> jumpy(n, 0);
        jumpy[0] = 1;  // the first block's ids span more than 16 bits: every id stays at 32 bits
        jumpy[1] = 3'000'000'000u;
        wide.append(EventBatch{starts, durs, names, kinds, jumpy, {}});
        wide.finalize();
        const std::size_t blocks = (n + kB - 1) / kB;
        const std::size_t narrowSaves = n * 2 - blocks * 4;
        const bool allZero = std::all_of(c.ids.begin(), c.ids.end(), [](std::uint32_t id) { return id == 0; });
        // Ids all 0 keep no column at all.
        EXPECT_EQ(wide.residentBytes() - byEvent.residentBytes(), allZero ? n * 4 : (c.narrow ? narrowSaves : 0))
            << c.what;
        for (const std::size_t batch : {std::size_t{1}, std::size_t{7}, kB, std::size_t{333}}) {
            EventColumns byBatch;
            for (std::size_t first = 0; first < n; first += batch) {
                const std::size_t m = std::min(batch, n - first);
                byBatch.append(EventBatch{std::span(starts).subspan(first, m),
                                          std::span(durs).subspan(first, m),
                                          std::span(names).subspan(first, m),
                                          std::span(kinds).subspan(first, m),
                                          std::span(c.ids).subspan(first, m),
                                          {}});
            }
            byBatch.finalize();
            expectIds(byBatch, "batches of " + std::to_string(batch));
            EXPECT_EQ(byBatch.residentBytes(), byEvent.residentBytes()) << c.what << ", batches of " << batch;
        }
        // Appended in reverse: finalize() sorts, then narrows the whole stream at once.
        EventColumns reversed;
        for (std::size_t i = n; i-- > 0;) {
            EventRecord e = ev(starts[i], 5);
            e.correlationId = c.ids[i];
            reversed.append(e);
        }
        reversed.finalize();
        expectIds(reversed, "reversed and sorted");
        EXPECT_EQ(reversed.residentBytes(), byEvent.residentBytes()) << c.what;
    }
}

// Kinds are kept per label while every event of a label has one kind: no byte per event. A label met
// with a second kind (event by event, in the middle of a batch, in a later batch, after finalize())
// switches the stream to a byte per event; every kind stays exact, through kind(), kinds() and at(),
// before and after a sort.
TEST(EventColumns, KindsPerLabelUnlessALabelHasTwoKinds) {
    constexpr std::size_t kN = 100 * EventColumns::kBlock;
    auto kindOf = [](std::uint32_t name) { return static_cast<EventKind>(name % kEventKindCount); };
    auto eventAt = [&](std::size_t i) {
        EventRecord e = ev(static_cast<std::int64_t>(i) * 10, 5);
        e.name = NameId{static_cast<std::uint32_t>(i % 11)};
        e.kind = kindOf(e.name.value);
        e.payload = i % 4 == 0 ? PayloadId{2} : kNoPayload;
        return e;
    };
    std::vector<EventRecord> events;
    for (std::size_t i = 0; i < kN; ++i) events.push_back(eventAt(i));
    auto expectKinds = [](const EventColumns& c, const std::vector<EventRecord>& want, const std::string& how) {
        ASSERT_EQ(c.size(), want.size()) << how;
        const EventKinds kinds = c.kinds();
        ASSERT_EQ(kinds.size(), want.size()) << how;
        std::array<std::size_t, kEventKindCount> counted{};
        for (const std::uint8_t k : kinds) ++counted[k];
        std::array<std::size_t, kEventKindCount> expected{};
        for (std::size_t i = 0; i < want.size(); ++i) {
            ASSERT_EQ(c.kind(i), want[i].kind) << how << " " << i;
            ASSERT_EQ(kinds[i], static_cast<std::uint8_t>(want[i].kind)) << how << " " << i;
            ASSERT_EQ(c.at(i).kind, want[i].kind) << how << " " << i;
            ASSERT_EQ(c.name(i), want[i].name) << how << " " << i;
            ++expected[static_cast<std::size_t>(want[i].kind)];
        }
        EXPECT_EQ(counted, expected) << how;
        EXPECT_EQ(static_cast<std::size_t>(std::count(kinds.begin(), kinds.end(), std::uint8_t{2})), expected[2])
            << how;
    };
    EventColumns perLabel;
    for (const auto& e : events) perLabel.append(e);
    perLabel.finalize();
    expectKinds(perLabel, events, "one kind a label");

    // One event of name 3 with another kind: its label's first event, a later one, one in the middle
    // of a block and of a 50-event batch, the stream's last of that name.
    for (const std::size_t odd : {std::size_t{3}, std::size_t{14}, std::size_t{3 + 11 * 41}, kN - 1 - (kN - 4) % 11}) {
        std::vector<EventRecord> mixed = events;
        ASSERT_EQ(mixed[odd].name, NameId{3});
        mixed[odd].kind = EventKind::Memset;
        ASSERT_NE(mixed[odd].kind, kindOf(3));
        EventColumns byEvent;
        for (const auto& e : mixed) byEvent.append(e);
        byEvent.finalize();
        expectKinds(byEvent, mixed, "event by event, odd kind at " + std::to_string(odd));
        EXPECT_EQ(byEvent.residentBytes(), perLabel.residentBytes() + kN) << "a byte per event from then on";
        for (const std::size_t batch : {std::size_t{1}, std::size_t{50}, kN}) {
            EventColumns byBatch;
            for (std::size_t first = 0; first < kN; first += batch) {
                appendAsBatch(byBatch, std::span(mixed).subspan(first, std::min(kN, first + batch) - first));
            }
            byBatch.finalize();
            const std::string how = "batches of " + std::to_string(batch) + ", odd kind at " + std::to_string(odd);
            expectKinds(byBatch, mixed, how);
            EXPECT_EQ(byBatch, byEvent) << how;
            EXPECT_EQ(byBatch.residentBytes(), byEvent.residentBytes()) << how;
        }
        // Appended in reverse: finalize() sorts the per-event kinds with the rest.
        EventColumns reversed;
        for (std::size_t i = kN; i-- > 0;) reversed.append(mixed[i]);
        reversed.finalize();
        expectKinds(reversed, mixed, "reversed, odd kind at " + std::to_string(odd));
    }

    // After finalize(): a new label keeps kinds per label; a known label with another kind does not.
    EventColumns later = perLabel;
    std::vector<EventRecord> more = events;
    EventRecord fresh = eventAt(kN);
    fresh.name = NameId{99};
    fresh.kind = EventKind::Collective;
    later.append(fresh);
    more.push_back(fresh);
    later.finalize();
    expectKinds(later, more, "a new label after finalize()");
    EXPECT_LT(later.residentBytes(), perLabel.residentBytes() + kN / 2) << "still no byte per event";
    EventRecord other = eventAt(kN + 1);
    other.kind = EventKind::Memcpy;
    ASSERT_NE(other.kind, kindOf(other.name.value));
    later.append(other);
    more.push_back(other);
    later.finalize();
    expectKinds(later, more, "a second kind after finalize()");
}

// Labels found through a batch's own table of label indices (EventColumns::append(EventBatch)):
// names that alternate and collide in its slots, payloads on some events, a label met with a second
// kind, and more labels than a 16-bit index reaches, the switch in the middle of a batch. Each event
// keeps the name, payload and kind it was given, and the columns equal those appended event by event.
TEST(EventColumns, BatchLabelsKeepEveryNamePayloadAndKind) {
    constexpr std::uint32_t kDistinct = 70'000;  // past 65,536: labels widen
    std::mt19937 rng(5);
    std::vector<EventRecord> events;
    for (std::uint32_t i = 0; i < 3 * kDistinct; ++i) {
        EventRecord e = ev(static_cast<std::int64_t>(i) * 10, 5);
        // First some 600 names at random (more than the table's slots), then new names one by one.
        const std::uint32_t name = i < kDistinct ? rng() % 600 : i % kDistinct;
        e.name = NameId{name};
        e.payload = name % 5 == 0 ? PayloadId{name % 3} : kNoPayload;
        e.kind = static_cast<EventKind>((name + (i == 777 ? 1 : 0)) % kEventKindCount);
        events.push_back(e);
    }
    EventColumns byEvent;
    for (const auto& e : events) byEvent.append(e);
    byEvent.finalize();
    for (const std::size_t batch : {std::size_t{1'000}, std::size_t{65'536}}) {
        EventColumns byBatch;
        for (std::size_t first = 0; first < events.size(); first += batch) {
            appendAsBatch(byBatch, std::span(events).subspan(first, std::min(events.size(), first + batch) - first));
            for (std::size_t i = first; i < byBatch.size(); ++i) {
                ASSERT_EQ(byBatch.name(i), events[i].name) << "batches of " << batch << ", " << i;
                ASSERT_EQ(byBatch.payload(i), events[i].payload) << "batches of " << batch << ", " << i;
                ASSERT_EQ(byBatch.kind(i), events[i].kind) << "batches of " << batch << ", " << i;
            }
        }
        byBatch.finalize();
        EXPECT_EQ(byBatch, byEvent) << "batches of " << batch;
        EXPECT_EQ(byBatch.residentBytes(), byEvent.residentBytes()) << "batches of " << batch;
    }
}

}  // namespace
}  // namespace tpscope::core
