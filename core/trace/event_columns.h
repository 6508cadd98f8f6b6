// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Columnar storage of one stream's events (DESIGN.md §2). One vector per field; an event costs its
// start offset (2 to 4 bytes), duration (0 to 4), label index (0 to 2) and correlation cell (0 to 4),
// each as its block of kBlock events needs, plus 52 bytes a block (start base 8, visible-range index 8,
// the start, duration, label and correlation block entries 8 each (BlockCells), correlation base 4), the
// stream's distinct labels: measured, 8.8 bytes a kernel and 6.9 a launch call of the simulated
// 100 M-event decode (docs/PERFORMANCE.md, "Event model"). A stream whose correlation ids are all 0
// (NVTX ranges, exposed-communication intervals) keeps no correlation column.
//   starts:    per block of kBlock events a 64-bit base (the block's first start) and offsets from it,
//              kept by BlockCells: 3 bytes an event while the block spans less than 2^24 ns (16.7 ms),
//              2 below 65.5 µs, else 4 bytes for that block. The rare start 4.3 s or more past its
//              block's first (a long idle gap inside a block) is kept exactly in a side list, sorted by
//              index (an escape). Events appended in start order are stored so as they come (a decoder
//              never holds 64-bit starts); an event that starts before the previous one switches the
//              column to all 64 bits until finalize() sorts and narrows it again.
//   durations: BlockCells: per block its smallest duration and offsets from it in 0 to 4 bytes, as
//              the block's span needs (0 when every duration is the same); the rare duration outside
//              [0, 2^32 - 1) ns (4.3 s) is kept exactly in a side list, sorted by index.
//   labels:    an event's name and payload id together are its label; a stream has few distinct
//              ones (a decode step repeats the same kernels with the same shapes), so each event
//              keeps an index into the stream's list of distinct labels instead of 8 bytes, a BlockCells
//              cell: a block of 64 kernels that uses a few tens of labels 1 byte an event, a launch
//              thread's block of one label none.
//              A stream with more than 65,536 distinct labels keeps a 32-bit name column and, when
//              any event has a payload, a 32-bit payload column instead.
//   kinds:     one per label while every event of a label has the same kind (importers classify by
//              name, so they do); from the first label met with a second kind, and on a stream with
//              32-bit names, one byte per event.
//   correlation ids: none while every id is 0. Else per block of kBlock events a 32-bit base (its
//              first id other than 0) and a BlockCells cell an event: id - base + 1, 0 for id 0 (a call
//              that launched nothing, beside ids in the hundreds of thousands). Ids grow by small steps
//              along a stream, so a block usually needs 1 byte an event. The one id a cell cannot tell
//              from 0 (base - 1, wrapped to 0) switches the stream to all 32 bits; finalize() narrows it
//              again when no block has one. A block's form depends on its ids alone.
// Every accessor returns the exact value that was appended.
//
// visibleRange(t0, t1) is two binary searches: events are sorted by start, and a prefix maximum of
// end times sampled once per block finds the first event that can still be running at t0 even when
// events overlap (concurrent kernels, imported traces). O(log n + kBlock).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/trace/block_cells.h"
#include "core/trace/event_kind.h"
#include "core/trace/payload.h"
#include "core/util/strong_id.h"

namespace tpscope::core {

struct IndexRange {
    std::size_t first = 0;
    std::size_t last = 0;  // one past the end
    std::size_t size() const { return last - first; }
    bool empty() const { return first >= last; }
};

struct EventRecord {
    std::int64_t startNs = 0;
    std::int64_t durNs = 0;
    NameId name{};
    EventKind kind = EventKind::Other;
    std::uint32_t correlationId = 0;
    PayloadId payload = kNoPayload;
    std::int64_t endNs() const { return startNs + durNs; }
};

// Consecutive events of one stream as columns, as a decoder produces them (a workspace chunk): appended
// column by column, about five times faster than event by event. Every span has the events' count,
// except `payloads`, which may be empty when no event has one.
struct EventBatch {
    std::span<const std::int64_t> startNs;
    std::span<const std::int64_t> durNs;
    std::span<const std::uint32_t> nameIds;
    std::span<const std::uint8_t> kinds;  // EventKind values, each < kEventKindCount
    std::span<const std::uint32_t> correlationIds;
    std::span<const PayloadId> payloads;
    std::size_t size() const { return startNs.size(); }
};

// A stream's event kinds by index (EventColumns::kinds()), EventKind values as bytes: each event's
// own byte, or its label's kind through its label index when the stream keeps kinds per label.
// Valid until the columns change.
class EventKinds {
  public:
    EventKinds() = default;
    EventKinds(const std::uint8_t* perEvent, const BlockCells* labelIndex, const std::uint8_t* labelKinds,
               std::uint32_t labelKindMask, std::size_t size)
        : m_perEvent(perEvent),
          m_labelIndex(labelIndex),
          m_labelKinds(labelKinds),
          m_labelKindMask(labelKindMask),
          m_size(size) {}

    std::size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    std::uint8_t operator[](std::size_t i) const {
        return m_perEvent != nullptr ? m_perEvent[i] : m_labelKinds[(*m_labelIndex)[i]];
    }
    // The first index in [from, size()) whose kind has its bit set in kindMask (bit k: EventKind k),
    // or size(). The column is chosen once, outside the loop; a stream none of whose labels has such
    // a kind answers at once.
    std::size_t next(std::size_t from, std::uint32_t kindMask) const {
        if (m_perEvent != nullptr) {
            while (from < m_size && ((kindMask >> m_perEvent[from]) & 1U) == 0) ++from;
            return from;
        }
        if ((m_labelKindMask & kindMask) == 0) return m_size;
        // Block by block: a block of one label (width 0) answers at once.
        while (from < m_size) {
            const std::size_t b = from / BlockCells::kBlock;
            const std::size_t end = std::min(m_size, (b + 1) * BlockCells::kBlock);
            const BlockCells::Block block = m_labelIndex->block(b);
            if (block.width == 0) {
                if (((kindMask >> m_labelKinds[block.base]) & 1U) != 0) return from;
                from = end;
                continue;
            }
            if (block.width == 1) {  // the usual kernel block (tens of labels): its bytes read directly
                for (; from < end; ++from) {
                    const std::uint32_t label = block.base + block.bytes[from % BlockCells::kBlock];
                    if (((kindMask >> m_labelKinds[label]) & 1U) != 0) return from;
                }
                continue;
            }
            for (; from < end; ++from) {
                if (((kindMask >> m_labelKinds[block[from % BlockCells::kBlock]]) & 1U) != 0) return from;
            }
        }
        return m_size;
    }
    // Events of the given kind.
    std::size_t count(std::uint8_t kind) const {
        std::size_t n = 0;
        for (std::size_t i = next(0, 1U << kind); i < m_size; i = next(i + 1, 1U << kind)) ++n;
        return n;
    }

    class Iterator {
      public:
        using iterator_category = std::forward_iterator_tag;
        using value_type = std::uint8_t;
        using difference_type = std::ptrdiff_t;
        using pointer = void;
        using reference = std::uint8_t;
        Iterator() = default;
        Iterator(const EventKinds* kinds, std::size_t i) : m_kinds(kinds), m_i(i) {}
        std::uint8_t operator*() const { return (*m_kinds)[m_i]; }
        Iterator& operator++() {
            ++m_i;
            return *this;
        }
        Iterator operator++(int) {
            Iterator before = *this;
            ++m_i;
            return before;
        }
        bool operator==(const Iterator& other) const { return m_i == other.m_i; }

      private:
        const EventKinds* m_kinds = nullptr;
        std::size_t m_i = 0;
    };
    Iterator begin() const { return {this, 0}; }
    Iterator end() const { return {this, m_size}; }

  private:
    const std::uint8_t* m_perEvent = nullptr;  // null: per label
    const BlockCells* m_labelIndex = nullptr;
    const std::uint8_t* m_labelKinds = nullptr;
    std::uint32_t m_labelKindMask = 0;  // per label: bit k set when a label has EventKind k
    std::size_t m_size = 0;
};

class EventColumns {
  public:
    static constexpr std::size_t kBlock = 64;
    void reserve(std::size_t n);
    void append(const EventRecord& e);
    void append(const EventBatch& batch);
    // Sorts by start (stable) if needed, rebuilds the range index and releases spare capacity.
    // Call once after the last append; readers require it.
    void finalize();
    bool finalized() const { return m_finalized; }

    std::size_t size() const { return m_durNs.size(); }
    bool empty() const { return m_durNs.empty(); }

    std::int64_t startNs(std::size_t i) const {
        if (!m_startNs.empty()) return m_startNs[i];
        const std::uint32_t offset = m_startOffset[i];
        return offset != kFarStart ? m_startBase[i / kBlock] + std::int64_t{offset} : farStartNs(i);
    }
    std::int64_t durNs(std::size_t i) const {
        const std::uint32_t d = m_durNs[i];
        return d != kLongDuration ? std::int64_t{d} : longDurNs(i);
    }
    std::int64_t endNs(std::size_t i) const { return startNs(i) + durNs(i); }
    NameId name(std::size_t i) const { return m_wideLabels ? NameId{m_nameId[i]} : m_labels[m_labelIndex[i]].name; }
    EventKind kind(std::size_t i) const {
        return static_cast<EventKind>(m_kind.empty() ? m_labelKind[m_labelIndex[i]] : m_kind[i]);
    }
    std::uint32_t correlationId(std::size_t i) const {
        if (!m_correlationId.empty()) return m_correlationId[i];
        if (m_correlationCell.empty()) return 0;
        const std::uint32_t cell = m_correlationCell[i];
        return cell != 0 ? m_correlationBase[i / kBlock] + (cell - 1U) : 0;
    }
    PayloadId payload(std::size_t i) const {
        if (!m_wideLabels) return m_labels[m_labelIndex[i]].payload;
        return m_payloadId.empty() ? kNoPayload : m_payloadId[i];
    }
    EventRecord at(std::size_t i) const;

    EventKinds kinds() const {
        return m_kind.empty() ? EventKinds(nullptr, &m_labelIndex, m_labelKind.data(), m_labelKindMask, size())
                              : EventKinds(m_kind.data(), nullptr, nullptr, 0, size());
    }
    // Block b's events [b * kBlock, + n) into out[0, n), n the count returned: a scan's block at once,
    // each column's block entry read once (EventScan, core/trace/event_scan.h). Finalized columns only.
    std::size_t decodeStarts(std::size_t b, std::int64_t* out) const;
    std::size_t decodeDurations(std::size_t b, std::int64_t* out) const;
    std::size_t decodeKinds(std::size_t b, std::uint8_t* out) const;
    std::size_t decodeNames(std::size_t b, std::uint32_t* out) const;  // NameId values
    // Starts loading event i's start, duration and kind (level of detail: the next column's events).
    void prefetch(std::size_t i) const {
        __builtin_prefetch(m_startNs.empty() ? m_startOffset.address(i) : &m_startNs[i]);
        __builtin_prefetch(m_durNs.address(i));
        __builtin_prefetch(m_kind.empty() ? m_labelIndex.address(i) : m_kind.data() + i);
    }
    // First index in [first, last) whose start is >= t (last when none): a binary search.
    std::size_t lowerBoundStart(std::int64_t t, std::size_t first, std::size_t last) const;

    // Indices [first, last) of every event that overlaps [t0, t1); half-open on both sides: an
    // event ending exactly at t0 or starting exactly at t1 is outside. On a stream whose events
    // overlap, the range may also hold events that ended before t0 (callers test endNs).
    IndexRange visibleRange(std::int64_t t0, std::int64_t t1) const;

    std::int64_t firstStartNs() const { return empty() ? 0 : startNs(0); }
    std::int64_t lastEndNs() const { return m_blockMaxEnd.empty() ? 0 : m_blockMaxEnd.back(); }
    // Number of events that start before the previous event on this stream has ended.
    std::size_t countOverlaps() const;

    // The block form (the workspace's event chunks from schema version 4 on, docs/formats.md): whole
    // blocks of the columns as they lie in memory, which a reader copies back instead of decoding and
    // narrowing them event by event (event_columns_blocks.cpp has the layout). Finalized columns have one
    // when every column is narrow: labels indexed (at most 65,536), kinds per label, starts and ids narrow.
    bool hasBlockForm() const;
    // 1 + the largest label index of events [first, last) (0 when there are none): the labels a chunk of
    // them in block form must carry, with those of the chunks before it.
    std::size_t labelsReached(std::size_t first, std::size_t last) const;
    // Events [first, last) in block form appended to out: first a multiple of kBlock, last too or size();
    // with labels [labelsFrom, labelsTo), those that a reader of the chunks before does not have yet.
    void writeBlockForm(std::size_t first, std::size_t last, std::size_t labelsFrom, std::size_t labelsTo,
                        std::string& out) const;
    // Appends `count` events in block form (writeBlockForm's bytes, chunk after chunk, onto columns that
    // had only such chunks), names and payloads checked against nameCount and payloadCount, starts checked
    // in order. nullptr, or what is wrong with the bytes (the columns are then to be dropped).
    const char* appendBlockForm(std::string_view bytes, std::size_t count, std::size_t nameCount,
                                std::size_t payloadCount);

    std::size_t residentBytes() const;
    // Blocks whose durations, and whose start offsets, keep all 4 bytes a cell (BlockCells' widest):
    // for the byte accounting of a loaded trace.
    std::size_t wideDurationBlocks() const { return m_durNs.wideBlocks(); }
    std::size_t wideStartBlocks() const { return m_startOffset.wideBlocks(); }
    bool operator==(const EventColumns& other) const;

  private:
    static constexpr std::uint32_t kLongDuration = UINT32_MAX;  // the duration is in m_longDurNs
    static constexpr std::uint32_t kFarStart = UINT32_MAX;      // the start is in m_farStartNs
    static constexpr std::size_t kMaxLabels = std::size_t{UINT16_MAX} + 1;
    static constexpr std::uint32_t kNoLabel = UINT32_MAX;  // no previous event's label

    // A distinct (name, payload) pair of this stream.
    struct Label {
        NameId name{};
        PayloadId payload = kNoPayload;
        bool operator==(const Label&) const = default;
    };

    std::int64_t longDurNs(std::size_t i) const;
    std::int64_t farStartNs(std::size_t i) const;
    void appendStart(std::size_t i, std::int64_t startNs);
    void appendDuration(std::int64_t durNs);
    void appendLabel(NameId name, PayloadId payload, std::uint8_t kind);
    std::uint32_t labelIndexOf(const Label& label, std::uint32_t previous, std::uint8_t kind);
    std::uint32_t findOrAddLabel(const Label& label, std::uint8_t kind);
    void keepKind(std::size_t i, std::uint32_t label, std::uint8_t kind);
    void spreadKinds(std::size_t n);
    void rebuildLabelLookup();
    void widenLabels();
    void appendCorrelations(std::span<const std::uint32_t> ids);
    void narrowCorrelations();
    void widenCorrelations();
    void narrowStarts();
    void widenStarts();
    bool startsNarrow() const { return m_startNs.empty() && m_startOffset.size() == size(); }

    std::vector<std::int64_t> m_startNs;                             // all 64 bits; empty when narrow (the three below)
    std::vector<std::int64_t> m_startBase;                           // per block: its first start
    BlockCells m_startOffset;                                        // start - its block's base, or kFarStart
    std::vector<std::pair<std::size_t, std::int64_t>> m_farStartNs;  // (index, start), by index
    BlockCells m_durNs;                                              // the duration, or kLongDuration
    std::vector<std::pair<std::size_t, std::int64_t>> m_longDurNs;   // (index, duration), by index
    BlockCells m_labelIndex;                // per event, into m_labels; empty when m_wideLabels
    std::vector<Label> m_labels;            // distinct labels in order of first appearance
    std::vector<std::uint8_t> m_labelKind;  // per label: its first event's kind
    std::uint32_t m_labelKindMask = 0;      // bit k: some label has EventKind k
    // While appending: open-addressed hash of m_labels (slot = label index + 1, 0 = free), a power of
    // two at most half full. Freed by finalize() and rebuilt by a later append.
    std::vector<std::uint32_t> m_labelLookup;
    bool m_wideLabels = false;            // more than kMaxLabels labels: the two columns below instead
    std::vector<std::uint32_t> m_nameId;  // wide labels only
    std::vector<PayloadId> m_payloadId;   // wide labels only; empty: every event has kNoPayload
    std::vector<std::uint8_t> m_kind;     // per event; empty while every label has one kind (m_labelKind)
    // Correlation ids: all three empty while every id is 0 (correlationId() answers 0).
    std::vector<std::uint32_t> m_correlationId;    // all 32 bits; empty when narrowed into the two below
    std::vector<std::uint32_t> m_correlationBase;  // per block: its first id but 0 (0 while it has none)
    BlockCells m_correlationCell;                  // id - its block's base + 1, or 0 for id 0
    // m_blockMaxEnd[b] = max end over events [0, (b + 1) * kBlock): non-decreasing.
    std::vector<std::int64_t> m_blockMaxEnd;
    bool m_finalized = true;
    static_assert(BlockCells::kBlock == kBlock);
};

}  // namespace tpscope::core
