// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// EventColumns' block form (event_columns.h): a run of whole blocks of finalized narrow columns as they
// lie in memory, the workspace's event chunks from schema version 4 on (codec/event_codec.h). A reader
// appends each column by copying its bytes, where the varint form (codec::encodeEvents) decodes every
// event and narrows it again: on the 10 M-event workspace that decoding and narrowing were two thirds of
// the read's instructions, which fell from 21.1 G to 7.9 G (docs/PERFORMANCE.md, "Workspace").
//
// Input: events [first, last) of one stream, first a multiple of kBlock; B = the blocks they fill.
// Mapping, little-endian at fixed widths (the chunk is compressed whole, which takes the zero bytes out):
//   u32 event count; u32 labelsFrom, u32 labelsTo, then per label in [labelsFrom, labelsTo) its u32
//   name id, u32 payload id and u8 kind; u8 flags (bit 0: correlation cells follow);
//   B x i64 start bases, cells(start offsets), escapes(far starts);
//   cells(durations), escapes(long durations);
//   cells(label indices);
//   with correlation cells: B x u32 correlation bases, cells(correlation cells).
//   cells(c): B x u8 widths, B x u32 bases, then the blocks' bytes back to back (BlockCells::blockBytes).
//   escapes(e): u32 count, then per escape u32 index in the chunk and i64 value.
// Reading checks as it copies, so a damaged or hostile chunk is an error, never a crash or a stream that
// breaks the columns' rules: counts and widths against the bytes, label ids against the trace's tables,
// every label index below the labels read so far, each escaped cell with its side entry and no entry
// without one, starts in order and start + duration representable. The last three take one pass over
// the new blocks, which also keeps their prefix maxima of ends (what finalize() would compute); a block
// without escapes, the usual one, is checked a column at a time.
// Cost: each column's bytes copied once each way; reading adds that pass, O(events).

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>

#include "core/trace/event_columns.h"

namespace tpscope::core {

namespace {

constexpr std::uint8_t kCorrelationCells = 1;
// The largest block base whose offsets and durations cannot overflow an end (both below 2^32 unless
// escaped).
constexpr std::int64_t kMaxStartBase = std::numeric_limits<std::int64_t>::max() - (std::int64_t{1} << 33);
using Escapes = std::vector<std::pair<std::size_t, std::int64_t>>;

template <typename T>
void put(std::string& out, T value) {
    std::array<char, sizeof value> bytes{};
    std::memcpy(bytes.data(), &value, sizeof value);
    out.append(bytes.data(), bytes.size());
}

void putCells(const BlockCells& cells, std::size_t firstBlock, std::size_t lastBlock, std::string& out) {
    for (std::size_t b = firstBlock; b < lastBlock; ++b) out.push_back(static_cast<char>(cells.block(b).width));
    for (std::size_t b = firstBlock; b < lastBlock; ++b) put(out, cells.block(b).base);
    const std::span<const std::uint8_t> bytes = cells.blockBytes(firstBlock, lastBlock);
    out.append(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

void putEscapes(const Escapes& escapes, std::size_t first, std::size_t last, std::string& out) {
    const auto byIndex = [](const std::pair<std::size_t, std::int64_t>& e, std::size_t i) { return e.first < i; };
    const auto from = std::lower_bound(escapes.begin(), escapes.end(), first, byIndex);
    const auto to = std::lower_bound(from, escapes.end(), last, byIndex);
    put(out, static_cast<std::uint32_t>(to - from));
    for (auto e = from; e != to; ++e) {
        put(out, static_cast<std::uint32_t>(e->first - first));
        put(out, e->second);
    }
}

// The chunk's bytes, read front to back; every read is bounds-checked.
class ChunkIn {
  public:
    explicit ChunkIn(std::string_view bytes)
        : m_p(reinterpret_cast<const std::uint8_t*>(bytes.data())), m_end(m_p + bytes.size()) {}
    template <typename T>
    bool get(T& value) {
        if (static_cast<std::size_t>(m_end - m_p) < sizeof value) return false;
        std::memcpy(&value, m_p, sizeof value);
        m_p += sizeof value;
        return true;
    }
    bool take(std::size_t n, std::span<const std::uint8_t>& out) {
        if (static_cast<std::size_t>(m_end - m_p) < n) return false;
        out = {m_p, n};
        m_p += n;
        return true;
    }
    bool atEnd() const { return m_p == m_end; }

  private:
    const std::uint8_t* m_p;
    const std::uint8_t* m_end;
};

bool readCells(ChunkIn& in, std::size_t count, BlockCells& cells) {
    const std::size_t blocks = (count + BlockCells::kBlock - 1) / BlockCells::kBlock;
    std::span<const std::uint8_t> widths, bases, bytes;
    if (!in.take(blocks, widths) || !in.take(blocks * 4, bases)) return false;
    std::size_t size = 0;
    for (std::size_t k = 0; k < blocks; ++k) {
        if (widths[k] > 4) return false;
        size += widths[k] * std::min(BlockCells::kBlock, count - k * BlockCells::kBlock);
    }
    return in.take(size, bytes) && cells.appendBlocks(widths, bases, bytes, count);
}

// Escapes of a chunk of `count` events starting at `first`, by increasing index.
bool readEscapes(ChunkIn& in, std::size_t first, std::size_t count, Escapes& escapes) {
    std::uint32_t n = 0;
    if (!in.get(n) || n > count) return false;
    std::size_t next = 0;  // the smallest index the next escape may have
    for (std::uint32_t k = 0; k < n; ++k) {
        std::uint32_t index = 0;
        std::int64_t value = 0;
        if (!in.get(index) || !in.get(value) || index < next || index >= count) return false;
        escapes.emplace_back(first + index, value);
        next = std::size_t{index} + 1;
    }
    return true;
}

}  // namespace

bool EventColumns::hasBlockForm() const {
    return m_finalized && !m_wideLabels && m_kind.empty() && startsNarrow() && m_correlationId.empty() &&
           std::all_of(m_startBase.begin(), m_startBase.end(), [](std::int64_t b) { return b <= kMaxStartBase; });
}

std::size_t EventColumns::labelsReached(std::size_t first, std::size_t last) const {
    std::size_t reached = 0;
    std::array<std::uint32_t, kBlock> cells{};
    for (std::size_t b = first / kBlock; b * kBlock < last; ++b) {
        const std::size_t n = m_labelIndex.decode(b, cells.data());
        for (std::size_t j = 0; j < n; ++j) {
            const std::size_t i = b * kBlock + j;
            if (i >= first && i < last) reached = std::max(reached, std::size_t{cells[j]} + 1);
        }
    }
    return reached;
}

void EventColumns::writeBlockForm(std::size_t first, std::size_t last, std::size_t labelsFrom, std::size_t labelsTo,
                                  std::string& out) const {
    const std::size_t firstBlock = first / kBlock, lastBlock = (last + kBlock - 1) / kBlock;
    put(out, static_cast<std::uint32_t>(last - first));
    put(out, static_cast<std::uint32_t>(labelsFrom));
    put(out, static_cast<std::uint32_t>(labelsTo));
    for (std::size_t k = labelsFrom; k < labelsTo; ++k) {
        put(out, m_labels[k].name.value);
        put(out, m_labels[k].payload);
        out.push_back(static_cast<char>(m_labelKind[k]));
    }
    const bool correlations = !m_correlationCell.empty();
    out.push_back(static_cast<char>(correlations ? kCorrelationCells : 0));
    for (std::size_t b = firstBlock; b < lastBlock; ++b) put(out, m_startBase[b]);
    putCells(m_startOffset, firstBlock, lastBlock, out);
    putEscapes(m_farStartNs, first, last, out);
    putCells(m_durNs, firstBlock, lastBlock, out);
    putEscapes(m_longDurNs, first, last, out);
    putCells(m_labelIndex, firstBlock, lastBlock, out);
    if (correlations) {
        for (std::size_t b = firstBlock; b < lastBlock; ++b) put(out, m_correlationBase[b]);
        putCells(m_correlationCell, firstBlock, lastBlock, out);
    }
}

const char* EventColumns::appendBlockForm(std::string_view bytes, std::size_t count, std::size_t nameCount,
                                          std::size_t payloadCount) {
    const std::size_t first = size();
    if (first % kBlock != 0 || m_wideLabels || !m_kind.empty() || !startsNarrow() || !m_correlationId.empty()) {
        return "a block chunk after a partial block or another form";
    }
    m_finalized = false;
    ChunkIn in(bytes);
    std::uint32_t n = 0, labelsFrom = 0, labelsTo = 0;
    if (count == 0 || !in.get(n) || n != count || !in.get(labelsFrom) || !in.get(labelsTo)) {
        return "event count of a block chunk";
    }
    if (labelsFrom != m_labels.size() || labelsTo < labelsFrom || labelsTo > kMaxLabels) return "label count";
    for (std::uint32_t k = labelsFrom; k < labelsTo; ++k) {
        std::uint32_t name = 0;
        PayloadId payload = kNoPayload;
        std::uint8_t kind = 0;
        if (!in.get(name) || !in.get(payload) || !in.get(kind) || name >= nameCount || payload >= payloadCount ||
            kind >= kEventKindCount) {
            return "label";
        }
        m_labels.push_back(Label{NameId{name}, payload});
        m_labelKind.push_back(kind);
        m_labelKindMask |= 1U << kind;
    }
    std::uint8_t flags = 0;
    if (!in.get(flags) || (flags & ~kCorrelationCells) != 0) return "flags of a block chunk";
    const bool correlations = (flags & kCorrelationCells) != 0;
    if (first > 0 && correlations == m_correlationCell.empty()) return "correlation column";
    const std::size_t blocks = (count + kBlock - 1) / kBlock;
    std::span<const std::uint8_t> bases;
    if (!in.take(blocks * sizeof(std::int64_t), bases)) return "start column";
    for (std::size_t b = 0; b < blocks; ++b) {
        std::int64_t base = 0;
        std::memcpy(&base, bases.data() + b * sizeof base, sizeof base);
        if (base > kMaxStartBase) return "start column";
        m_startBase.push_back(base);
    }
    const std::size_t farFrom = m_farStartNs.size(), longFrom = m_longDurNs.size();
    if (!readCells(in, count, m_startOffset) || !readEscapes(in, first, count, m_farStartNs)) return "start column";
    if (!readCells(in, count, m_durNs) || !readEscapes(in, first, count, m_longDurNs)) return "duration column";
    if (!readCells(in, count, m_labelIndex)) return "label column";
    if (correlations) {
        if (!in.take(blocks * sizeof(std::uint32_t), bases)) return "correlation column";
        for (std::size_t b = 0; b < blocks; ++b) {
            std::uint32_t base = 0;
            std::memcpy(&base, bases.data() + b * sizeof base, sizeof base);
            m_correlationBase.push_back(base);
        }
        if (!readCells(in, count, m_correlationCell)) return "correlation column";
    }
    if (!in.atEnd()) return "trailing bytes in an event chunk";

    // The pass over the new blocks: labels, escapes, order, ends.
    std::array<std::uint32_t, kBlock> offsets{}, durations{}, labels{};
    auto far = m_farStartNs.cbegin() + static_cast<std::ptrdiff_t>(farFrom);
    auto longDur = m_longDurNs.cbegin() + static_cast<std::ptrdiff_t>(longFrom);
    std::int64_t previous = first > 0 ? startNs(first - 1) : std::numeric_limits<std::int64_t>::min();
    for (std::size_t b = first / kBlock; b < first / kBlock + blocks; ++b) {
        const std::size_t cells = m_startOffset.decode(b, offsets.data());
        m_durNs.decode(b, durations.data());
        m_labelIndex.decode(b, labels.data());
        std::uint32_t label = 0;
        for (std::size_t j = 0; j < cells; ++j) label = std::max(label, labels[j]);
        if (label >= m_labels.size()) return "label index";
        const std::int64_t base = m_startBase[b];
        // The usual block has no escape: its order and its latest end from the cells alone, without the
        // event-by-event branches on escapes (3 loads of the 10 M-event workspace: 7.91 G instructions
        // against 8.18 G; not vectorized at -O2 for baseline x86-64, which has no unsigned 32-bit max).
        bool escaped = false, ordered = true;
        std::uint64_t longest = 0;
        for (std::size_t j = 0; j < cells; ++j) {
            escaped = escaped || offsets[j] == kFarStart || durations[j] == kLongDuration;
            longest = std::max(longest, std::uint64_t{offsets[j]} + durations[j]);
        }
        for (std::size_t j = 1; j < cells; ++j) ordered &= offsets[j - 1] <= offsets[j];
        if (!escaped) {
            if (!ordered || base + std::int64_t{offsets[0]} < previous) return "starts out of order";
            previous = base + std::int64_t{offsets[cells - 1]};
            const std::int64_t end = base + static_cast<std::int64_t>(longest);
            m_blockMaxEnd.push_back(m_blockMaxEnd.empty() ? end : std::max(m_blockMaxEnd.back(), end));
            continue;
        }
        std::int64_t maxEnd = std::numeric_limits<std::int64_t>::min();
        for (std::size_t j = 0; j < cells; ++j) {
            const std::size_t i = b * kBlock + j;
            std::int64_t start = base + std::int64_t{offsets[j]};
            if (offsets[j] == kFarStart) {
                if (far == m_farStartNs.cend() || far->first != i) return "start column";
                start = (far++)->second;
            }
            std::int64_t duration = durations[j];
            if (durations[j] == kLongDuration) {
                if (longDur == m_longDurNs.cend() || longDur->first != i) return "duration column";
                duration = (longDur++)->second;
            }
            if (start < previous) return "starts out of order";
            if (duration < 0 || start > std::numeric_limits<std::int64_t>::max() - duration) {
                return "duration column";
            }
            previous = start;
            maxEnd = std::max(maxEnd, start + duration);
        }
        m_blockMaxEnd.push_back(m_blockMaxEnd.empty() ? maxEnd : std::max(m_blockMaxEnd.back(), maxEnd));
    }
    if (far != m_farStartNs.cend() || longDur != m_longDurNs.cend()) return "an escape without its cell";
    return nullptr;
}

}  // namespace tpscope::core
