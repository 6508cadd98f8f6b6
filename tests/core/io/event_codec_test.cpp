// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// The event chunk codec (core/io/codec/event_codec.h) as the workspace reader uses it: columns decoded
// chunk by chunk equal the columns appended event by event, whatever the values (starts 4.3 s or more
// apart, durations past 32 bits, more than 65,536 labels, correlation ids that jump, starts out of
// order, varints of every length, chunks that end anywhere in a block); a damaged chunk is one error
// and leaves the columns as they were.

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "core/io/codec/event_codec.h"
#include "event_chunk_test_util.h"

namespace tpscope::core::codec {
namespace {

using Shape = RandomShape;

// Appended event by event (the reference) and decoded from chunks of the given sizes (cycled); both
// finalized.
std::pair<EventColumns, EventColumns> referenceAndDecoded(const std::vector<EventRecord>& events, std::uint32_t names,
                                                          std::vector<std::size_t> chunkSizes) {
    EventColumns reference;
    for (const auto& e : events) reference.append(e);
    EventColumns decoded;
    decoded.reserve(events.size());
    EventChunkScratch scratch;
    std::size_t c = 0;
    for (std::size_t first = 0; first < events.size(); ++c) {
        const std::size_t last = std::min(events.size(), first + chunkSizes[c % chunkSizes.size()]);
        const std::string raw = encodeEvents(reference, first, last);  // starts in append order
        const Status s = decodeEvents(raw, last - first, names, 6, decoded, scratch);
        EXPECT_TRUE(s) << s.error().describe();
        first = last;
    }
    reference.finalize();
    decoded.finalize();
    return {std::move(reference), std::move(decoded)};
}

// Both equal the events themselves, stably sorted by start, and each other.
void expectSameColumns(std::vector<EventRecord> events, const EventColumns& reference, const EventColumns& decoded) {
    std::stable_sort(events.begin(), events.end(),
                     [](const EventRecord& a, const EventRecord& b) { return a.startNs < b.startNs; });
    ASSERT_EQ(reference.size(), events.size());
    ASSERT_EQ(decoded.size(), events.size());
    EXPECT_TRUE(decoded == reference);
    for (std::size_t i = 0; i < events.size(); ++i) {
        ASSERT_TRUE(sameEvent(events[i], reference.at(i))) << i;
        ASSERT_TRUE(sameEvent(events[i], decoded.at(i))) << i;
    }
    // The same representation too (narrow or wide columns, escapes): the same bytes resident.
    EXPECT_EQ(decoded.residentBytes(), reference.residentBytes());
    EXPECT_EQ(decoded.visibleRange(reference.firstStartNs(), reference.lastEndNs()).size(), reference.size());
}

TEST(EventCodec, DecodedChunksEqualEventByEventAppends) {
    const std::vector<Shape> shapes = {
        {20'000, 300, false, false, 1},      // in order, few labels, narrow ids
        {20'000, 300, true, false, 2},       // starts out of order: sorted by finalize()
        {20'000, 300, false, true, 3},       // ids that jump: all 32 bits
        {150'000, 40'000, false, false, 4},  // > 65,536 distinct (name, payload) labels: wide label columns
    };
    for (const Shape& shape : shapes) {
        SCOPED_TRACE(shape.seed);
        const auto events = randomEvents(shape);
        // Chunks of a whole number of blocks, and chunks that end inside a block (the next chunk
        // continues the block: its start base and its correlation base).
        for (const auto& sizes : {std::vector<std::size_t>{kChunkEvents}, std::vector<std::size_t>{1000, 7, 64, 333}}) {
            auto [reference, decoded] = referenceAndDecoded(events, shape.names, sizes);
            expectSameColumns(events, reference, decoded);
        }
    }
}

// Varints of every length, 1 to 10 bytes, in no order: eight bytes of a column hold several varints,
// or the end of one, and each is decoded from them exactly (durations of 0 to 62 bits, starts that
// jump 2^62 back and forth, in chunks that end anywhere).
TEST(EventCodec, VarintsOfEveryLengthInAnyOrderDecodeExactly) {
    std::mt19937_64 rng(17);
    auto bitsOf = [&](int b) {  // a value of exactly b bits (0 for b = 0)
        return b == 0 ? std::uint64_t{0}
                      : (std::uint64_t{1} << (b - 1)) | (rng() & ((std::uint64_t{1} << (b - 1)) - 1));
    };
    std::vector<EventRecord> events;
    std::int64_t near = 1'000'000'000;
    for (int i = 0; i < 20'000; ++i) {
        near += static_cast<std::int64_t>(bitsOf(static_cast<int>(rng() % 24)));
        const bool far = rng() % 8 == 0;  // 2^62 away and back: zigzag deltas of 64 bits (10 bytes)
        const std::int64_t start = far ? (std::int64_t{1} << 62) + static_cast<std::int64_t>(rng() % 1000) : near;
        const auto dur = static_cast<std::int64_t>(bitsOf(static_cast<int>(rng() % (far ? 40 : 63))));
        events.push_back(EventRecord{
            start, dur, NameId{static_cast<std::uint32_t>(bitsOf(static_cast<int>(rng() % 9)))},
            static_cast<EventKind>(rng() % kEventKindCount),
            static_cast<std::uint32_t>(bitsOf(static_cast<int>(rng() % 33))), static_cast<PayloadId>(rng() % 6)});
    }
    for (const auto& sizes : {std::vector<std::size_t>{kChunkEvents}, std::vector<std::size_t>{1000, 7, 64, 333}}) {
        auto [reference, decoded] = referenceAndDecoded(events, 300, sizes);
        expectSameColumns(events, reference, decoded);
    }
}

// A small chunk whose values take every varint length, and every way of damaging it.
class DamagedChunk : public ::testing::Test {
  protected:
    static constexpr std::uint32_t kNames = 300;
    static constexpr std::size_t kPayloads = 6;

    void SetUp() override {
        Shape shape{40, kNames, true, true, 9};
        for (const auto& e : randomEvents(shape)) events.append(e);
        raw = encodeEvents(events, 0, events.size());
    }
    // The chunk must be refused with one parse error, the columns untouched.
    void expectRefused(const std::string& bytes, std::size_t count, const std::string& what) {
        EventColumns out;
        EventRecord first;
        first.startNs = 5;
        out.append(first);
        const Status s = decodeEvents(bytes, count, kNames, kPayloads, out);
        ASSERT_FALSE(s) << what;
        EXPECT_EQ(s.error().code, ErrorCode::ParseError) << what;
        EXPECT_NE(s.error().message.find("corrupt workspace data"), std::string::npos) << s.error().message;
        EXPECT_EQ(out.size(), 1u) << what;
    }
    EventColumns events;
    std::string raw;
};

TEST_F(DamagedChunk, TheIntactChunkDecodes) {
    EventColumns out;
    ASSERT_TRUE(decodeEvents(raw, events.size(), kNames, kPayloads, out));
    for (std::size_t i = 0; i < events.size(); ++i) ASSERT_EQ(out.at(i).startNs, events.at(i).startNs) << i;
}

// A chunk of no events (the fuzzer's: under UBSan a copy of its empty kind column was undefined
// behaviour) decodes to nothing, on a fresh scratch whose columns were never allocated.
TEST(EventCodec, AChunkOfNoEventsDecodesToNone) {
    EventColumns none;
    const std::string raw = encodeEvents(none, 0, 0);
    EventColumns out;
    ASSERT_TRUE(decodeEvents(raw, 0, 4, 4, out));
    EXPECT_EQ(out.size(), 0u);
    EXPECT_FALSE(decodeEvents(raw, 1, 4, 4, out));  // the count must match
}

TEST_F(DamagedChunk, EveryTruncationIsAnError) {
    for (std::size_t n = 0; n < raw.size(); ++n) expectRefused(raw.substr(0, n), events.size(), std::to_string(n));
}

TEST_F(DamagedChunk, TrailingBytesAWrongCountAndBadIdsAreErrors) {
    expectRefused(raw + '\0', events.size(), "trailing byte");
    expectRefused(raw, events.size() + 1, "count");
    expectRefused(raw, events.size() - 1, "count");
    auto oneEvent = [](std::int64_t dur, std::uint64_t name, std::uint8_t kind, std::uint64_t payload) {
        Writer w;
        w.varint(1);
        w.zigzag(1'000);
        w.zigzag(dur);
        w.varint(name);
        w.u8(kind);
        w.zigzag(0);
        w.varint(payload);
        return w.bytes();
    };
    EventColumns out;
    ASSERT_TRUE(decodeEvents(oneEvent(5, kNames - 1, kEventKindCount - 1, kPayloads - 1), 1, kNames, kPayloads, out));
    expectRefused(oneEvent(-5, 0, 0, 0), 1, "negative duration");
    expectRefused(oneEvent(INT64_MAX, 0, 0, 0), 1, "end past int64");
    expectRefused(oneEvent(5, kNames, 0, 0), 1, "name id");
    expectRefused(oneEvent(5, 0, kEventKindCount, 0), 1, "kind");
    expectRefused(oneEvent(5, 0, 0, kPayloads), 1, "payload id");
    // A varint of 11 bytes (ten with the continuation bit), followed by enough bytes to read ahead.
    std::string overlong = "\x01" + std::string(10, '\x80') + std::string(20, '\x01');
    expectRefused(overlong, 1, "overlong varint");
}

// NVTX ranges: decoded as encoded (deltas and lengths of every varint length), and every truncation of
// the blob, a trailing byte or a name id past the table is one error.
TEST(EventCodec, RangesRoundTripAndDamagedRangesAreErrors) {
    const NvtxRanges ranges = randomRanges(5);
    const std::string raw = encodeRanges(ranges);
    NvtxRanges back;
    ASSERT_TRUE(decodeRanges(raw, 40, back));
    ASSERT_EQ(back.size(), ranges.size());
    for (std::size_t i = 0; i < ranges.size(); ++i) {
        ASSERT_EQ(back[i].startNs, ranges[i].startNs) << i;
        ASSERT_EQ(back[i].endNs, ranges[i].endNs) << i;
        ASSERT_EQ(back[i].name, ranges[i].name) << i;
        ASSERT_EQ(back[i].depth, ranges[i].depth) << i;
    }
    for (std::size_t n = 0; n < raw.size(); ++n) ASSERT_TRUE(rangesRefused(raw.substr(0, n), 40)) << n;
    EXPECT_TRUE(rangesRefused(raw + '\0', 40));
    ASSERT_TRUE(std::any_of(ranges.begin(), ranges.end(), [](const NvtxRange& r) { return r.name.value == 39; }));
    EXPECT_TRUE(rangesRefused(raw, 39));  // a name id past a table of 39
}

}  // namespace
}  // namespace tpscope::core::codec
