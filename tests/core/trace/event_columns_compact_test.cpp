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
#include "core/trace/event_scan.h"
#include "event_record_fixtures.h"

namespace tpscope::core {
namespace {

// The bytes the correlation columns keep for these ids, from the layout's rule (event_columns.h): none
// while all are 0; per block its base (4) and a BlockCells entry (8), its cells x the width their span
// needs (a cell: id - the block's first id other than 0 + 1, 0 for id 0), 4 bytes of padding; or 4 an
// id when some id's cell would be 0.
std::size_t correlationBytes(const std::vector<std::uint32_t>& ids) {
    constexpr std::size_t kB = EventColumns::kBlock;
    if (std::all_of(ids.begin(), ids.end(), [](std::uint32_t id) { return id == 0; })) return 0;
    const std::size_t blocks = (ids.size() + kB - 1) / kB;
    std::size_t bytes = blocks * (4 + 8) + 4;
    for (std::size_t b = 0; b < blocks; ++b) {
        std::uint32_t base = 0, lo = UINT32_MAX, hi = 0;
        for (std::size_t i = b * kB; i < std::min(ids.size(), (b + 1) * kB); ++i) {
            if (ids[i] != 0 && base == 0) base = ids[i];
            const std::uint32_t cell = ids[i] == 0 ? 0 : ids[i] - base + 1;
            if (ids[i] != 0 && cell == 0) return ids.size() * 4;
            lo = std::min(lo, cell);
            hi = std::max(hi, cell);
        }
        const std::uint32_t span = hi - lo;
        const std::size_t cells = std::min(ids.size(), (b + 1) * kB) - b * kB;
        bytes += cells * (span == 0 ? 0 : span <= 0xFF ? 1 : span <= 0xFFFF ? 2 : span <= 0xFFFFFF ? 3 : 4);
    }
    return bytes;
}

// Correlation id 0 (a call that launched nothing) beside large ids keeps a block narrow: its cell is 0
// and the others count from the block's first id. Every form, appended event by event, in batches of
// several sizes (blocks continued across batches) and narrowed by finalize() after a sort: the same ids,
// and the bytes the rule gives.
TEST(EventColumns, CorrelationIdZeroKeepsBlocksNarrow) {
    constexpr std::size_t kB = EventColumns::kBlock;
    constexpr std::uint32_t kFar = 400'000;  // a launch thread's ids after a while
    struct Case {
        const char* what;
        std::vector<std::uint32_t> ids;
        std::size_t bytesPerBlock;  // of the cells, for the cases whose blocks are alike (0: not checked)
    };
    std::vector<Case> cases;
    auto make = [](std::size_t n, auto idOf) {
        std::vector<std::uint32_t> ids(n);
        for (std::size_t i = 0; i < n; ++i) ids[i] = idOf(i);
        return ids;
    };
    cases.push_back({"id 0 only", make(5 * kB + 3, [](std::size_t) { return 0u; }), 0});
    cases.push_back(
        {"consecutive ids", make(40 * kB, [](std::size_t i) { return kFar + static_cast<std::uint32_t>(i); }), kB});
    cases.push_back(
        {"id 0 beside large ids",
         make(40 * kB + 17, [](std::size_t i) { return i % 13 == 5 ? 0u : kFar + static_cast<std::uint32_t>(i) * 3; }),
         0});
    cases.push_back(
        {"blocks of zeros between large ids",
         make(12 * kB, [](std::size_t i) { return (i / kB) % 3 == 1 ? 0u : kFar + static_cast<std::uint32_t>(i); }),
         0});
    cases.push_back({"zeros first in a block, then ids below its first",
                     make(6 * kB,
                          [](std::size_t i) {
                              const std::size_t j = i % kB;
                              return j < 5 ? 0u : (j < 40 ? kFar + 60'000 : kFar + static_cast<std::uint32_t>(j));
                          }),
                     4 * kB});
    cases.push_back({"ids 254 above the first beside 0: one byte",
                     make(4 * kB, [](std::size_t i) { return i % kB == 7 ? kFar + 254 : (i % kB == 9 ? 0u : kFar); }),
                     kB});
    cases.push_back({"ids 255 above the first beside 0: two bytes",
                     make(4 * kB, [](std::size_t i) { return i % kB == 7 ? kFar + 255 : (i % kB == 9 ? 0u : kFar); }),
                     2 * kB});
    cases.push_back({"an id just below its block's first: all 32 bits",
                     make(3 * kB, [](std::size_t i) { return i == kB + 2 ? kFar - 1 : kFar; }), 0});
    cases.push_back(
        {"largest ids beside 0",
         make(2 * kB + 1,
              [](std::size_t i) { return i % 2 == 0 ? 0u : UINT32_MAX - static_cast<std::uint32_t>(i % 5); }),
         0});

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
        // The same events with every id 0 keep no correlation column: the difference is the ids' bytes.
        EventColumns noIds;
        const std::vector<std::uint32_t> zeros(n, 0);
        noIds.append(EventBatch{starts, durs, names, kinds, zeros, {}});
        noIds.finalize();
        const std::size_t bytes = correlationBytes(c.ids);
        EXPECT_EQ(byEvent.residentBytes() - noIds.residentBytes(), bytes) << c.what;
        if (c.bytesPerBlock != 0) {
            const std::size_t blocks = (n + kB - 1) / kB;
            EXPECT_EQ(bytes, blocks * (4 + 8 + c.bytesPerBlock) + 4) << c.what;
        }
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

// EventKinds::next finds the first event of the asked kinds from any index, on a stream whose blocks
// are of one label (a launch thread's: answered per block) and of many (per event), with kinds kept per
// label and a byte per event: the same answer as a walk of kind().
TEST(EventColumns, NextFindsTheFirstEventOfTheAskedKinds) {
    constexpr std::size_t kB = EventColumns::kBlock;
    for (const bool perEvent : {false, true}) {
        EventColumns c;
        std::vector<EventKind> want;
        for (std::size_t i = 0; i < 40 * kB + 9; ++i) {
            EventRecord e = ev(static_cast<std::int64_t>(i) * 10, 5);
            const std::size_t block = i / kB;
            // Blocks 0-9 of one label, 10-19 a collective every 7th, 20-29 one label in a run of
            // collectives, 30- one label in three.
            const std::uint32_t name = block < 10   ? 1
                                       : block < 20 ? (i % 7 == 0 ? 2 : 1)
                                       : block < 30 ? 2
                                                    : (i % 3 == 0 ? 4 : 1);
            e.name = NameId{name};
            e.kind = name == 2 ? EventKind::Collective : name == 4 ? EventKind::Memcpy : EventKind::Gemm;
            if (perEvent && i == 5 * kB + 3) e.kind = EventKind::Memset;  // label 1 with a second kind
            c.append(e);
            want.push_back(e.kind);
        }
        c.finalize();
        // A scan's kinds, decoded a block at a time (per label or from the byte an event), the same.
        EventScan scan(c, EventScan::kKinds);
        for (std::size_t i = 0; i < want.size(); ++i) {
            ASSERT_EQ(scan.kind(i), static_cast<std::uint8_t>(want[i])) << (perEvent ? "a byte an event" : "per label");
        }
        const EventKinds kinds = c.kinds();
        for (const std::uint32_t mask :
             {1U << static_cast<unsigned>(EventKind::Collective),
              (1U << static_cast<unsigned>(EventKind::Memcpy)) | (1U << static_cast<unsigned>(EventKind::Memset)),
              1U << static_cast<unsigned>(EventKind::Gemm), 0U}) {
            for (std::size_t from = 0; from <= want.size(); ++from) {
                std::size_t expected = from;
                while (expected < want.size() && ((mask >> static_cast<unsigned>(want[expected])) & 1U) == 0)
                    ++expected;
                ASSERT_EQ(kinds.next(from, mask), expected)
                    << (perEvent ? "a byte an event" : "per label") << ", mask " << mask << ", from " << from;
            }
        }
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
