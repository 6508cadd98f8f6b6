// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Event chunks in block form (codec::encodeEventBlocks, EventColumns::writeBlockForm): the columns'
// blocks copied back chunk by chunk equal the columns they came from, whatever the values (starts 4.3 s
// or more apart, durations past 32 bits, a few or tens of thousands of labels, correlation ids or none, starts
// appended out of order, a partial last block); only narrow columns have the form; a damaged chunk is
// one error and whatever a chunk with changed bytes is accepted as keeps the columns' rules. A rank's
// NVTX ranges, finalized, take the same form.

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "core/io/codec/event_codec.h"
#include "event_chunk_test_util.h"

namespace tpscope::core::codec {
namespace {

constexpr std::uint32_t kNames = 70'000;
constexpr std::size_t kPayloads = 6;

// Kinds by name, as importers classify (kinds per label), and ids that never fall below their block's
// first (narrow correlation cells): the narrow columns' conditions.
RandomShape narrowShape(std::size_t events, std::uint32_t names, bool outOfOrder, bool correlations,
                        std::uint64_t seed) {
    return RandomShape{events, names, outOfOrder, false, seed, true, correlations, false};
}

EventColumns columnsOf(const std::vector<EventRecord>& events) {
    EventColumns columns;
    for (const auto& e : events) columns.append(e);
    columns.finalize();
    return columns;
}

// The columns in block form, chunks of `chunk` events, each carrying the labels first reached in it.
std::vector<std::string> chunksOf(const EventColumns& columns, std::size_t chunk) {
    std::vector<std::string> chunks;
    std::size_t labels = 0;
    for (std::size_t first = 0; first < columns.size(); first += chunk) {
        const std::size_t last = std::min(columns.size(), first + chunk);
        const std::size_t reached = std::max(labels, columns.labelsReached(first, last));
        chunks.push_back(encodeEventBlocks(columns, first, last, labels, reached));
        labels = reached;
    }
    return chunks;
}

void expectSameColumns(const EventColumns& reference, const EventColumns& decoded) {
    ASSERT_EQ(decoded.size(), reference.size());
    EXPECT_TRUE(decoded == reference);
    for (std::size_t i = 0; i < reference.size(); ++i) ASSERT_TRUE(sameEvent(reference.at(i), decoded.at(i))) << i;
    // The prefix maxima of ends, kept while copying: the same windows find the same events.
    EXPECT_EQ(decoded.lastEndNs(), reference.lastEndNs());
    const std::int64_t t0 = reference.firstStartNs(), span = reference.lastEndNs() - t0;
    for (std::int64_t k = 0; k < 16; ++k) {
        const std::int64_t from = t0 + span / 16 * k, to = from + span / 7;
        const IndexRange a = reference.visibleRange(from, to), b = decoded.visibleRange(from, to);
        EXPECT_EQ(b.first, a.first) << k;
        EXPECT_EQ(b.last, a.last) << k;
    }
    EXPECT_EQ(decoded.kinds().count(static_cast<std::uint8_t>(EventKind::Gemm)),
              reference.kinds().count(static_cast<std::uint8_t>(EventKind::Gemm)));
}

TEST(EventBlocks, ChunksCopiedBackEqualTheColumns) {
    const std::vector<RandomShape> shapes = {
        narrowShape(20'000, 300, false, true, 1),  // in order, a few hundred labels, correlation ids
        narrowShape(20'000, 300, true, false, 2),  // appended out of order: sorted, then narrowed, by finalize()
        narrowShape(20'000, 12, false, false, 3),  // no correlation ids: no column
        narrowShape(150'000, 12'000, false, true,
                    4),                       // tens of thousands of labels: two-byte cells, many labels a chunk
        narrowShape(100, 5, false, true, 5),  // one chunk ending inside its second block
    };
    for (const RandomShape& shape : shapes) {
        SCOPED_TRACE(shape.seed);
        const EventColumns reference = columnsOf(randomEvents(shape));
        ASSERT_TRUE(reference.hasBlockForm());
        for (const std::size_t chunk : {kChunkEvents, std::size_t{64}, std::size_t{3 * 64}}) {
            SCOPED_TRACE(chunk);
            EventColumns decoded;
            decoded.reserve(reference.size());
            for (const std::string& raw : chunksOf(reference, chunk)) {
                ASSERT_EQ(raw.front(), '\0');  // the block form's mark
                const std::size_t count = std::min(chunk, reference.size() - decoded.size());
                const Status s = decodeEvents(raw, count, kNames, kPayloads, decoded);
                ASSERT_TRUE(s) << s.error().describe();
            }
            decoded.finalize();
            expectSameColumns(reference, decoded);
        }
    }
}

// Columns that are not all narrow keep the varint form: a label met with two kinds (a byte of kind an
// event), more than 65,536 labels, correlation ids that need all 32 bits.
TEST(EventBlocks, OnlyNarrowColumnsHaveABlockForm) {
    auto events = randomEvents(narrowShape(2'000, 40, false, true, 6));
    EXPECT_TRUE(columnsOf(events).hasBlockForm());
    auto twoKinds = events;
    twoKinds[700].kind = static_cast<EventKind>((static_cast<int>(twoKinds[700].kind) + 1) % kEventKindCount);
    EXPECT_FALSE(columnsOf(twoKinds).hasBlockForm());
    auto wideIds = events;
    wideIds[64].correlationId = 500'000;  // block 1's base
    wideIds[65].correlationId = 499'999;  // its cell would read as 0: the ids keep 32 bits
    EXPECT_FALSE(columnsOf(wideIds).hasBlockForm());
    EXPECT_FALSE(
        columnsOf(randomEvents(narrowShape(150'000, kNames, false, true, 7))).hasBlockForm());  // > 65,536 labels
    EventColumns open;
    open.append(events.front());
    EXPECT_FALSE(open.hasBlockForm());  // not finalized
}

class DamagedBlocks : public ::testing::Test {
  protected:
    void SetUp() override {
        reference = columnsOf(randomEvents(narrowShape(300, 50, false, true, 8)));
        raw = chunksOf(reference, reference.size()).front();
    }
    // The chunk must be refused with one parse error.
    static void expectRefused(const std::string& bytes, std::size_t count, const std::string& what) {
        EventColumns out;
        const Status s = decodeEvents(bytes, count, kNames, kPayloads, out);
        ASSERT_FALSE(s) << what;
        EXPECT_EQ(s.error().code, ErrorCode::ParseError) << what;
        EXPECT_NE(s.error().message.find("corrupt workspace data"), std::string::npos) << s.error().message;
    }
    EventColumns reference;
    std::string raw;
};

TEST_F(DamagedBlocks, TheIntactChunkDecodes) {
    EventColumns out;
    ASSERT_TRUE(decodeEvents(raw, reference.size(), kNames, kPayloads, out));
    out.finalize();
    expectSameColumns(reference, out);
}

TEST_F(DamagedBlocks, EveryTruncationTrailingByteAndWrongCountIsAnError) {
    for (std::size_t n = 2; n < raw.size(); ++n) expectRefused(raw.substr(0, n), reference.size(), std::to_string(n));
    expectRefused(raw + '\0', reference.size(), "trailing byte");
    expectRefused(raw, reference.size() + 1, "count");
    expectRefused(raw, reference.size() - 1, "count");
    // Labels the chunk's events use but it does not carry, ids past the tables.
    const std::size_t labels = reference.labelsReached(0, reference.size());
    expectRefused(encodeEventBlocks(reference, 0, reference.size(), 0, labels - 1), reference.size(), "labels");
    EventColumns out;
    EXPECT_FALSE(decodeEvents(raw, reference.size(), 10, kPayloads, out)) << "name ids";
    EventColumns out2;
    EXPECT_FALSE(decodeEvents(raw, reference.size(), kNames, 1, out2)) << "payload ids";
    // A second chunk must continue the labels the first brought.
    EventColumns twice;
    ASSERT_TRUE(decodeEvents(chunksOf(reference, 256).front(), 256, kNames, kPayloads, twice));
    EXPECT_FALSE(decodeEvents(raw, reference.size(), kNames, kPayloads, twice)) << "labels from 0 again";
}

// Any byte changed: refused, or accepted as columns that keep their rules (starts in order, ends
// representable, every label known), never a crash.
TEST_F(DamagedBlocks, AChangedByteIsRefusedOrKeepsTheColumnsRules) {
    std::mt19937_64 rng(10);
    std::size_t refused = 0;
    for (std::size_t k = 1; k < raw.size(); ++k) {
        std::string bytes = raw;
        bytes[k] = static_cast<char>(bytes[k] ^ static_cast<char>(1 + rng() % 255));
        EventColumns out;
        if (!decodeEvents(bytes, reference.size(), kNames, kPayloads, out)) {
            ++refused;
            continue;
        }
        out.finalize();
        ASSERT_EQ(out.size(), reference.size()) << k;
        for (std::size_t i = 1; i < out.size(); ++i) ASSERT_LE(out.startNs(i - 1), out.startNs(i)) << k << " " << i;
        for (std::size_t i = 0; i < out.size(); ++i) {
            ASSERT_GE(out.durNs(i), 0) << k;
            ASSERT_LT(out.name(i).value, kNames) << k;
            ASSERT_LT(out.payload(i), kPayloads) << k;
        }
        EXPECT_EQ(out.visibleRange(out.firstStartNs(), out.lastEndNs() + 1).size(), out.size()) << k;
    }
    EXPECT_GT(refused, raw.size() / 20);  // the checks refuse a good share of them
}

// A rank's NVTX ranges, finalized, are stored in block form too (the depths, then the columns): read
// back equal; every truncation but the byte 0 alone (an empty list in the varint form), a trailing byte
// and a name id past the table are errors.
TEST(EventBlocks, RangesRoundTripInBlockForm) {
    NvtxRanges ranges = randomRanges(11);
    ranges.finalize();
    const std::string raw = encodeRanges(ranges);
    ASSERT_EQ(raw.front(), '\0');
    NvtxRanges back;
    ASSERT_TRUE(decodeRanges(raw, 40, back));
    back.finalize();
    EXPECT_TRUE(back == ranges);
    ASSERT_EQ(back.size(), ranges.size());
    for (std::size_t i = 0; i < ranges.size(); ++i) ASSERT_EQ(back[i], ranges[i]) << i;
    EXPECT_EQ(back.lastEndNs(), ranges.lastEndNs());
    for (std::size_t n = 2; n < raw.size(); ++n) ASSERT_TRUE(rangesRefused(raw.substr(0, n), 40)) << n;
    EXPECT_TRUE(rangesRefused(raw + '\0', 40));
    EXPECT_TRUE(rangesRefused(raw, 39));  // a name id past a table of 39
}

}  // namespace
}  // namespace tpscope::core::codec
