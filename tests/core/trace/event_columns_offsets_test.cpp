// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// EventColumns' narrow starts and durations (BlockCells, core/trace/event_columns.h) and
// streams whose correlation ids are all 0: every accessor returns the appended record, for blocks that
// fit and blocks that keep 32 bits, however the events were appended.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "core/trace/event_columns.h"
#include "core/trace/event_scan.h"

namespace tpscope::core {
namespace {

constexpr std::size_t kB = EventColumns::kBlock;
constexpr std::int64_t k24 = std::int64_t{1} << 24;

// One block of kB events (fewer for the last): its starts span `startSpan` from its first (or, with
// `farStart`, its last start is 4.3 s or more past the first: an escape), its durations lie in
// [durLo, durLo + durSpan] with both ends present, `longDur` adds a duration past 32 bits (an escape).
struct BlockCase {
    std::int64_t startSpan;
    std::int64_t durLo;
    std::int64_t durSpan;
    bool farStart = false;
    bool longDur = false;
    std::size_t count = kB;
    // The bytes a cell the columns keep for this block (BlockCells: as its span needs; an escape is
    // UINT32_MAX beside small cells, so its block keeps 4).
    static unsigned widthOf(std::int64_t span) {
        return span == 0 ? 0 : span <= 0xFF ? 1 : span <= 0xFFFF ? 2 : span < k24 ? 3 : 4;
    }
    unsigned startWidth() const { return farStart ? 4 : widthOf(startSpan); }
    unsigned durationWidth() const { return longDur ? 4 : widthOf(durSpan); }
    bool wideStarts() const { return startWidth() == 4; }
    bool wideDurations() const { return durationWidth() == 4; }
};

std::vector<EventRecord> recordsOf(const std::vector<BlockCase>& blocks, bool withIds) {
    std::mt19937 rng(11);
    std::vector<EventRecord> out;
    std::int64_t t = 1'700'000'000'000'000'000;  // ns since 1970, as Kineto traces have them
    for (const BlockCase& b : blocks) {
        const std::size_t m = b.count;
        std::uniform_int_distribution<std::int64_t> dur(b.durLo, b.durLo + b.durSpan);
        std::vector<std::int64_t> durs(m);
        for (auto& d : durs) d = dur(rng);
        durs[0] = b.durLo;
        if (m > 1) durs[1] = b.durLo + b.durSpan;
        if (b.longDur) durs[m / 2] = std::int64_t{1} << 33;
        std::shuffle(durs.begin(), durs.end(), rng);
        for (std::size_t j = 0; j < m; ++j) {
            EventRecord e;
            // Strictly increasing starts (appended in reverse, they sort back to the same order).
            e.startNs = t + (m > 1 ? b.startSpan * static_cast<std::int64_t>(j) / static_cast<std::int64_t>(m - 1) : 0);
            if (b.farStart && j + 1 == m) e.startNs = t + (std::int64_t{1} << 32) + 11;
            e.durNs = durs[j];
            e.name = NameId{static_cast<std::uint32_t>(out.size() % 3)};
            e.kind = static_cast<EventKind>(out.size() % 3);
            e.payload = out.size() % 3 == 2 ? PayloadId{4} : kNoPayload;
            e.correlationId = withIds && out.size() % 5 != 0 ? 1000 + 3 * static_cast<std::uint32_t>(out.size()) : 0;
            out.push_back(e);
        }
        t = out.back().startNs + 1000;
    }
    return out;
}

// EventScan reads the same starts, durations, kinds and names, in index order (a block decoded as the scan
// enters it), backwards (every block entered again) and with one column asked for.
void expectScanned(const EventColumns& c, const std::vector<EventRecord>& records, const std::string& how) {
    EventScan all(c, EventScan::kStarts | EventScan::kDurations | EventScan::kKinds | EventScan::kNames);
    ASSERT_EQ(all.size(), records.size()) << how;
    for (std::size_t i = 0; i < records.size(); ++i) {
        const EventScan::Event e = all.at(i);
        ASSERT_EQ(e.startNs, records[i].startNs) << how << ", scanned " << i;
        ASSERT_EQ(e.durNs, records[i].durNs) << how << ", scanned " << i;
        ASSERT_EQ(e.kind, static_cast<std::uint8_t>(records[i].kind)) << how << ", scanned " << i;
        ASSERT_EQ(e.name, records[i].name) << how << ", scanned " << i;
        ASSERT_EQ(all.startNs(i), records[i].startNs) << how << ", scanned " << i;
        ASSERT_EQ(all.durNs(i), records[i].durNs) << how << ", scanned " << i;
        ASSERT_EQ(all.endNs(i), records[i].endNs()) << how << ", scanned " << i;
        ASSERT_EQ(all.kind(i), static_cast<std::uint8_t>(records[i].kind)) << how << ", scanned " << i;
    }
    EventScan durations(c, EventScan::kDurations);
    for (std::size_t i = records.size(); i-- > 0;) {
        ASSERT_EQ(durations.durNs(i), records[i].durNs) << how << ", scanned backwards " << i;
    }
}

void expectRecords(const EventColumns& c, const std::vector<EventRecord>& records, const std::string& how) {
    ASSERT_EQ(c.size(), records.size()) << how;
    for (std::size_t i = 0; i < records.size(); ++i) {
        const EventRecord& e = records[i];
        ASSERT_EQ(c.startNs(i), e.startNs) << how << ", event " << i;
        ASSERT_EQ(c.durNs(i), e.durNs) << how << ", event " << i;
        ASSERT_EQ(c.endNs(i), e.endNs()) << how << ", event " << i;
        ASSERT_EQ(c.name(i), e.name) << how << ", event " << i;
        ASSERT_EQ(c.kind(i), e.kind) << how << ", event " << i;
        ASSERT_EQ(c.payload(i), e.payload) << how << ", event " << i;
        ASSERT_EQ(c.correlationId(i), e.correlationId) << how << ", event " << i;
        const EventRecord got = c.at(i);
        ASSERT_EQ(got.startNs, e.startNs) << how << ", event " << i;
        ASSERT_EQ(got.durNs, e.durNs) << how << ", event " << i;
    }
    expectScanned(c, records, how);
    EXPECT_EQ(c.lastEndNs(), std::max_element(records.begin(), records.end(),
                                              [](const auto& a, const auto& b) { return a.endNs() < b.endNs(); })
                                 ->endNs())
        << how;
}

EventColumns byBatches(const std::vector<EventRecord>& records, std::size_t batch) {
    const std::size_t n = records.size();
    std::vector<std::int64_t> starts(n), durs(n);
    std::vector<std::uint32_t> names(n), ids(n);
    std::vector<std::uint8_t> kinds(n);
    std::vector<PayloadId> payloads(n);
    for (std::size_t i = 0; i < n; ++i) {
        starts[i] = records[i].startNs;
        durs[i] = records[i].durNs;
        names[i] = records[i].name.value;
        kinds[i] = static_cast<std::uint8_t>(records[i].kind);
        ids[i] = records[i].correlationId;
        payloads[i] = records[i].payload;
    }
    EventColumns c;
    c.reserve(n);
    for (std::size_t first = 0; first < n; first += batch) {
        const std::size_t m = std::min(batch, n - first);
        c.append(EventBatch{std::span(starts).subspan(first, m), std::span(durs).subspan(first, m),
                            std::span(names).subspan(first, m), std::span(kinds).subspan(first, m),
                            std::span(ids).subspan(first, m), std::span(payloads).subspan(first, m)});
    }
    c.finalize();
    return c;
}

const std::vector<BlockCase>& blockCases() {
    static const std::vector<BlockCase> cases = {
        {1'000'000, 500, 65'534},                        // fits
        {k24 - 1, 20, 65'535},                           // both at their largest span that fits
        {k24, 20, 65'536},                               // both one past: starts 32 bits, durations 24
        {k24 - 1, 20, k24},                              // durations 32 bits
        {5'000, 0, 3},                                   // fits
        {5'000, 3'000'000'000, 100},                     // durations from 3 s: 8 bits above their base
        {5'000, 100, 10, true},                          // a start 4.3 s past its block's first
        {5'000, 100, 10, false, true},                   // a duration past 32 bits
        {200'000'000, 1'000'000, 9'000'000},             // a slow stream (NVTX ranges): starts 32 bits
        {1'000, 3'195, 0},                               // equal durations (a launch thread): no byte
        {70, 4'294'000'000, 900'000, false, false, 41},  // a partial last block up to 2^32 - 1 ns
    };
    return cases;
}

// Appended event by event, in batches of several sizes, in reverse (finalize() sorts and narrows
// again) and with one event out of order: the same records, the same wide blocks (those the cases
// say), equal columns and equal bytes.
TEST(EventColumnsOffsets, EveryAccessorIsExactForBlocksThatFitAndBlocksThatKeep32Bits) {
    const auto& cases = blockCases();
    const auto wideStarts = static_cast<std::size_t>(
        std::count_if(cases.begin(), cases.end(), [](const BlockCase& b) { return b.wideStarts(); }));
    const auto wideDurations = static_cast<std::size_t>(
        std::count_if(cases.begin(), cases.end(), [](const BlockCase& b) { return b.wideDurations(); }));
    for (const bool withIds : {false, true}) {
        const std::string ids = withIds ? "ids" : "ids all 0";
        const std::vector<EventRecord> records = recordsOf(cases, withIds);
        EventColumns byEvent;
        for (std::size_t i = 0; i < records.size(); ++i) {
            byEvent.append(records[i]);
            ASSERT_EQ(byEvent.durNs(i), records[i].durNs) << ids << ", while appending " << i;
            ASSERT_EQ(byEvent.startNs(i), records[i].startNs) << ids << ", while appending " << i;
        }
        byEvent.finalize();
        expectRecords(byEvent, records, ids + ", event by event");
        EXPECT_EQ(byEvent.wideStartBlocks(), wideStarts) << ids;
        EXPECT_EQ(byEvent.wideDurationBlocks(), wideDurations) << ids;
        for (const std::size_t batch : {std::size_t{1}, std::size_t{7}, kB, std::size_t{333}, records.size()}) {
            const EventColumns c = byBatches(records, batch);
            const std::string how = ids + ", batches of " + std::to_string(batch);
            expectRecords(c, records, how);
            EXPECT_TRUE(c == byEvent) << how;
            EXPECT_EQ(c.residentBytes(), byEvent.residentBytes()) << how;
        }
        EventColumns reversed;
        for (std::size_t i = records.size(); i-- > 0;) reversed.append(records[i]);
        reversed.finalize();
        expectRecords(reversed, records, ids + ", reversed and sorted");
        EXPECT_EQ(reversed.wideDurationBlocks(), wideDurations) << ids;
        EXPECT_EQ(reversed.residentBytes(), byEvent.residentBytes()) << ids;
        std::vector<EventRecord> swapped = records;
        std::swap(swapped[3], swapped[kB + 5]);
        EventColumns outOfOrder = byBatches(swapped, 50);
        expectRecords(outOfOrder, records, ids + ", one event out of order");
        EXPECT_TRUE(outOfOrder == byEvent) << ids;
    }
}

// Equality compares every value: a duration changed in a narrow block or in a wide one, a start, or
// one event more, and the columns differ.
TEST(EventColumnsOffsets, EqualityComparesEveryDurationAndStart) {
    const std::vector<EventRecord> records = recordsOf(blockCases(), true);
    const EventColumns reference = byBatches(records, records.size());
    ASSERT_TRUE(reference == byBatches(records, 64));
    for (const std::size_t i : {std::size_t{5}, 2 * kB + 5, 7 * kB + 3}) {  // narrow, 32-bit starts, an escape
        for (const bool start : {false, true}) {
            std::vector<EventRecord> changed = records;
            (start ? changed[i].startNs : changed[i].durNs) += 1;
            EXPECT_FALSE(byBatches(changed, records.size()) == reference)
                << "event " << i << (start ? " start" : " duration");
        }
    }
    std::vector<EventRecord> more = records;
    more.push_back(records.back());
    more.back().startNs += 1;
    EXPECT_FALSE(byBatches(more, 64) == reference);
}

// The bytes of a stream of one label whose ids are all 0: no label index byte (one label) and no
// correlation column; per block the start base, the range index and the three block entries (8 + 8 +
// 8 + 8 + 8), and its events x the width of its start offsets and of its durations; 16 per escape; 4 of
// padding after each of the three BlockCells; the label (name, payload, kind).
TEST(EventColumnsOffsets, ResidentBytesFollowTheBlocks) {
    const std::vector<BlockCase>& cases = blockCases();
    const std::vector<EventRecord> withLabels = recordsOf(cases, false);
    std::vector<EventRecord> records;
    for (EventRecord e : withLabels) {
        e.name = NameId{1};
        e.kind = EventKind::Gemm;
        e.payload = kNoPayload;
        records.push_back(e);
    }
    const EventColumns c = byBatches(records, 100);
    expectRecords(c, records, "one label");
    const std::size_t n = records.size(), blocks = (n + kB - 1) / kB;
    std::size_t escapes = 0, cellBytes = 0;
    for (const BlockCase& b : cases) {
        escapes += (b.farStart ? 1 : 0) + (b.longDur ? 1 : 0);
        cellBytes += b.count * (b.startWidth() + b.durationWidth());
    }
    const std::size_t expected = cellBytes + blocks * (8 + 8 + 8 + 8 + 8) + escapes * 16 + (4 + 4 + 4) + (4 + 4 + 1);
    EXPECT_EQ(c.residentBytes(), expected);
    // The same stream with consecutive ids: per block its base (4), its cells' entry (8) and a byte a
    // cell (ids 1 to 64 above the base), 4 bytes of padding.
    std::vector<EventRecord> ids = records;
    for (std::size_t i = 0; i < n; ++i) ids[i].correlationId = 77 + static_cast<std::uint32_t>(i);
    EXPECT_EQ(byBatches(ids, 100).residentBytes(), expected + blocks * (4 + 8) + n + 4);
    // Ids all 0 but the last event's: the column appears for the whole stream, its blocks of zeros at no
    // byte a cell, the last one at one.
    std::vector<EventRecord> lastId = records;
    lastId.back().correlationId = 9;
    const EventColumns late = byBatches(lastId, 100);
    expectRecords(late, lastId, "one id at the end");
    EXPECT_EQ(late.residentBytes(), expected + blocks * (4 + 8) + (n - (blocks - 1) * kB) + 4);
}

}  // namespace
}  // namespace tpscope::core
