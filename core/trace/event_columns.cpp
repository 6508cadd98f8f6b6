// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/trace/event_columns.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <numeric>
#include <type_traits>

#include "core/trace/block_max_end.h"
#include "core/util/vector_grow.h"

namespace tpscope::core {

namespace {

template <typename T>
void permute(std::vector<T>& column, const std::vector<std::size_t>& order) {
    if (column.empty()) return;  // a column left out (payloads: none on the stream)
    std::vector<T> sorted(column.size());
    for (std::size_t i = 0; i < order.size(); ++i) sorted[i] = column[order[i]];
    column = std::move(sorted);
}

// The value kept for index i in an escape side list ((index, value) sorted by index).
std::int64_t escapedValue(const std::vector<std::pair<std::size_t, std::int64_t>>& escapes, std::size_t i) {
    const auto it =
        std::lower_bound(escapes.begin(), escapes.end(), i,
                         [](const std::pair<std::size_t, std::int64_t>& e, std::size_t k) { return e.first < k; });
    return it->second;  // every escaped index has its entry
}

template <typename T>
std::size_t capacityBytes(const std::vector<T>& v) {
    return v.capacity() * sizeof(T);
}

// The 32-bit cell of a start offset or a duration: the value itself when it is below kEscaped (as
// unsigned: a negative duration is not), else kEscaped with the exact value kept in `escapes` as
// (index, value), sorted by index since events come in order. One rule for both columns and both
// append paths.
constexpr std::uint32_t kEscaped = UINT32_MAX;
using Escapes = std::vector<std::pair<std::size_t, std::int64_t>>;

inline std::uint32_t narrowCell(std::uint64_t value, std::size_t index, std::int64_t exact, Escapes& escapes) {
    if (value < kEscaped) return static_cast<std::uint32_t>(value);
    escapes.emplace_back(index, exact);
    return kEscaped;
}

// Events from index i on, all in i's block and the latest ending at `end`, appended in start order: the
// prefix maximum of ends of their block (finalize() keeps these when every event came in order, instead
// of reading the narrow columns back).
inline void noteEnd(std::vector<std::int64_t>& blockMaxEnd, std::size_t i, std::int64_t end, std::size_t block) {
    if (i % block == 0) {
        blockMaxEnd.push_back(blockMaxEnd.empty() ? end : std::max(blockMaxEnd.back(), end));
    } else {
        blockMaxEnd.back() = std::max(blockMaxEnd.back(), end);
    }
}

}  // namespace

void EventColumns::reserve(std::size_t n) {
    if (m_startNs.empty()) {
        m_startBase.reserve((n + kBlock - 1) / kBlock);
        m_startOffset.reserve(n);
        m_blockMaxEnd.reserve((n + kBlock - 1) / kBlock);
    } else {
        m_startNs.reserve(n);
    }
    m_durNs.reserve(n);
    if (m_wideLabels) {
        m_nameId.reserve(n);
    } else {
        m_labelIndex.reserve(n);
    }
    if (!m_kind.empty() || m_wideLabels) m_kind.reserve(n);
    // Ids all 0 so far keep no column; the first other id reserves one (appendCorrelations).
    if (!m_correlationId.empty()) {
        m_correlationId.reserve(n);
    } else if (!m_correlationCell.empty()) {
        m_correlationBase.reserve((n + kBlock - 1) / kBlock);
        m_correlationCell.reserve(n);
    }
}

// Event i's start, stored narrow while the column is narrow (the block's first start as its base,
// exactly as narrowStarts() would store it). The callers widen the column first when a start comes
// before the previous one, for finalize() to sort.
void EventColumns::appendStart(std::size_t i, std::int64_t startNs) {
    if (!m_startNs.empty()) {
        m_startNs.push_back(startNs);
        return;
    }
    static_assert(kFarStart == kEscaped && kLongDuration == kEscaped);
    if (i % kBlock == 0) m_startBase.push_back(startNs);
    const auto d = static_cast<std::uint64_t>(startNs) - static_cast<std::uint64_t>(m_startBase[i / kBlock]);
    m_startOffset.push_back(narrowCell(d, i, startNs, m_farStartNs));
}

void EventColumns::appendDuration(std::int64_t durNs) {
    m_durNs.push_back(narrowCell(static_cast<std::uint64_t>(durNs), m_durNs.size(), durNs, m_longDurNs));
}

namespace {

// A label's (name, payload) as one key, and the multiplicative hash whose high bits pick its slot in the
// stream's lookup and in a batch's table (BatchLabels).
constexpr std::uint64_t labelKey(std::uint32_t name, PayloadId payload) {
    return (std::uint64_t{name} << 32) | payload;
}
constexpr std::uint64_t mixedKey(std::uint64_t key) {
    return key * 0x9E3779B97F4A7C15ULL;
}
std::size_t labelHash(NameId name, PayloadId payload) {
    return static_cast<std::size_t>(mixedKey(labelKey(name.value, payload)) >> 32);
}

// The label indices found while appending one batch, direct-mapped by (name, payload): a decode trace
// alternates some ten kernel names, so the previous event's label seldom matches, and a slot of this
// small table answers most events without the stream's lookup (EventColumns::labelIndexOf). An index,
// once given, stays the label's while labels stay narrow; the batch drops the table when they widen.
struct BatchLabels {
    static constexpr std::size_t kSlots = 256;
    static constexpr std::uint64_t keyOf(std::uint32_t name, PayloadId payload) { return labelKey(name, payload); }
    static constexpr std::size_t slotOf(std::uint64_t key) { return static_cast<std::size_t>(mixedKey(key) >> 56); }
    // A free slot holds a key of another slot, which no label's key there can equal (static_assert below).
    BatchLabels() {
        key.fill(UINT64_MAX);
        key[slotOf(UINT64_MAX)] = 0;
    }
    static constexpr std::uint32_t entryOf(std::uint32_t index, std::uint8_t kind) {
        return index | (std::uint32_t{kind} << 16);
    }
    std::array<std::uint64_t, kSlots> key;
    std::array<std::uint32_t, kSlots> entry{};  // the label's index (16 bits), its kind above (it never changes)
};
static_assert(BatchLabels::slotOf(0) == 0 && BatchLabels::slotOf(UINT64_MAX) != 0);

}  // namespace

void EventColumns::rebuildLabelLookup() {
    std::size_t slots = 16;
    while (slots < 2 * (m_labels.size() + 1)) slots *= 2;
    m_labelLookup.assign(slots, 0);
    for (std::size_t k = 0; k < m_labels.size(); ++k) {
        std::size_t slot = labelHash(m_labels[k].name, m_labels[k].payload) & (slots - 1);
        while (m_labelLookup[slot] != 0) slot = (slot + 1) & (slots - 1);
        m_labelLookup[slot] = static_cast<std::uint32_t>(k + 1);
    }
}

// The label's index in m_labels, added at the end with `kind` as its kind when new (the index may then
// be kMaxLabels).
std::uint32_t EventColumns::findOrAddLabel(const Label& label, std::uint8_t kind) {
    if (m_labelLookup.empty()) rebuildLabelLookup();
    const std::size_t mask = m_labelLookup.size() - 1;
    std::size_t slot = labelHash(label.name, label.payload) & mask;
    for (std::uint32_t v = m_labelLookup[slot]; v != 0; v = m_labelLookup[slot]) {
        if (m_labels[v - 1] == label) return v - 1;
        slot = (slot + 1) & mask;
    }
    const auto index = static_cast<std::uint32_t>(m_labels.size());
    m_labels.push_back(label);
    m_labelKind.push_back(kind);
    m_labelKindMask |= 1U << (kind & 31U);
    if (2 * (m_labels.size() + 1) > m_labelLookup.size()) {
        rebuildLabelLookup();
    } else {
        m_labelLookup[slot] = index + 1;
    }
    return index;
}

// The label's index (findOrAddLabel). Runs of one label (a host thread's launch calls) are found as
// the previous event's (kNoLabel: none) without the lookup, and a label already seen is usually found
// in its first slot without a call.
std::uint32_t EventColumns::labelIndexOf(const Label& label, std::uint32_t previous, std::uint8_t kind) {
    if (previous != kNoLabel && m_labels[previous] == label) return previous;
    if (!m_labelLookup.empty()) {
        const std::uint32_t v = m_labelLookup[labelHash(label.name, label.payload) & (m_labelLookup.size() - 1)];
        if (v != 0 && m_labels[v - 1] == label) return v - 1;
    }
    return findOrAddLabel(label, kind);
}

// Event i, of label index `label`, has `kind`: kept by its label while every label has one kind;
// from the first that meets a second kind, a byte per event.
void EventColumns::keepKind(std::size_t i, std::uint32_t label, std::uint8_t kind) {
    if (m_kind.empty()) {
        if (m_labelKind[label] == kind) return;
        spreadKinds(i);
    }
    m_kind.push_back(kind);
}

// Kinds kept per label become a byte per event for events [0, n).
void EventColumns::spreadKinds(std::size_t n) {
    if (!m_kind.empty()) return;
    m_kind.reserve(m_labelIndex.capacity());
    m_kind.resize(n);
    for (std::size_t i = 0; i < n; ++i) m_kind[i] = m_labelKind[m_labelIndex[i]];
}

void EventColumns::appendLabel(NameId name, PayloadId payload, std::uint8_t kind) {
    if (!m_wideLabels) {
        const std::size_t i = m_labelIndex.size();
        const std::uint32_t index = labelIndexOf(Label{name, payload}, i > 0 ? m_labelIndex[i - 1] : kNoLabel, kind);
        if (index < kMaxLabels) {
            m_labelIndex.push_back(index);
            keepKind(i, index, kind);
            return;
        }
        widenLabels();
    }
    m_nameId.push_back(name.value);
    if (payload != kNoPayload || !m_payloadId.empty()) {
        m_payloadId.resize(m_nameId.size() - 1, kNoPayload);
        m_payloadId.push_back(payload);
    }
    m_kind.push_back(kind);
}

// More labels than a 16-bit index reaches: a name column, and a payload column when any has one; kinds
// a byte per event.
void EventColumns::widenLabels() {
    const std::size_t n = m_labelIndex.size();
    spreadKinds(n);
    m_nameId.resize(n);
    for (std::size_t i = 0; i < n; ++i) m_nameId[i] = m_labels[m_labelIndex[i]].name.value;
    if (std::any_of(m_labels.begin(), m_labels.end(), [](const Label& l) { return l.payload != kNoPayload; })) {
        m_payloadId.resize(n);
        for (std::size_t i = 0; i < n; ++i) m_payloadId[i] = m_labels[m_labelIndex[i]].payload;
    }
    m_wideLabels = true;
    m_labelIndex = BlockCells();
    std::vector<Label>().swap(m_labels);
    std::vector<std::uint8_t>().swap(m_labelKind);
    m_labelKindMask = 0;
    std::vector<std::uint32_t>().swap(m_labelLookup);
}

std::int64_t EventColumns::farStartNs(std::size_t i) const {
    return escapedValue(m_farStartNs, i);
}

std::int64_t EventColumns::longDurNs(std::size_t i) const {
    return escapedValue(m_longDurNs, i);
}

void EventColumns::append(const EventRecord& e) {
    const std::size_t i = size();
    if (m_startNs.empty() && i > 0 && e.startNs < startNs(i - 1)) widenStarts();
    appendStart(i, e.startNs);
    appendDuration(e.durNs);
    if (m_startNs.empty()) noteEnd(m_blockMaxEnd, i, e.startNs + e.durNs, kBlock);
    appendLabel(e.name, e.payload, static_cast<std::uint8_t>(e.kind));
    // Usually id 0, or an id above its block's base (appendCorrelations does the rest: the first id
    // that is not 0, and the one id whose cell would read as 0).
    const std::uint32_t id = e.correlationId;
    if (!m_correlationId.empty()) {
        m_correlationId.push_back(id);
    } else if (m_correlationCell.empty()) {
        if (id != 0) appendCorrelations(std::span<const std::uint32_t>(&e.correlationId, 1));  // the first id not 0
    } else if (i % kBlock != 0 && id == 0) {
        m_correlationCell.push_back(0);
    } else if (i % kBlock != 0 && m_correlationBase.back() != 0 && id - m_correlationBase.back() + 1U != 0) {
        m_correlationCell.push_back(id - m_correlationBase.back() + 1U);
    } else {
        appendCorrelations(std::span<const std::uint32_t>(&e.correlationId, 1));
    }
    m_finalized = false;
}

// Column by column, each written in place (grow()): the same values as appending event by event.
void EventColumns::append(const EventBatch& batch) {
    const std::size_t n = batch.size();
    if (n == 0) return;
    const std::size_t first = size();
    const std::span<const std::int64_t> starts = batch.startNs;
    bool wide = !m_startNs.empty();
    if (!wide) {
        // A start before the previous one switches the column to all 64 bits, for finalize() to sort.
        wide = (first > 0 && starts[0] < startNs(first - 1)) || !std::is_sorted(starts.begin(), starts.end());
        if (wide) widenStarts();
    }
    // Starts and durations as 32-bit cells, kPiece at a time (BlockCells narrows them), and, in start
    // order, the blocks' prefix maxima of ends. A piece holds a whole workspace chunk (65,536 events),
    // so that BlockCells grows its column once a chunk, its pages faulted in by one call.
    constexpr std::size_t kPiece = 65'536;
    thread_local std::vector<std::uint32_t> scratch;
    scratch.resize(std::min(n, kPiece));
    const std::span<std::uint32_t> cells(scratch);
    if (wide) {
        m_startNs.insert(m_startNs.end(), starts.begin(), starts.end());
    } else {
        for (std::size_t k = 0; k < n;) {
            const std::size_t pieceFirst = k, pieceEnd = std::min(n, k + kPiece);
            while (k < pieceEnd) {
                const std::size_t i = first + k;
                if (i % kBlock == 0) m_startBase.push_back(starts[k]);
                const auto base = static_cast<std::uint64_t>(m_startBase.back());
                const std::size_t end = std::min(pieceEnd, k + kBlock - i % kBlock);
                std::int64_t maxEnd = INT64_MIN;
                for (; k < end; ++k) {
                    cells[k - pieceFirst] =
                        narrowCell(static_cast<std::uint64_t>(starts[k]) - base, first + k, starts[k], m_farStartNs);
                    maxEnd = std::max(maxEnd, starts[k] + batch.durNs[k]);
                }
                noteEnd(m_blockMaxEnd, i, maxEnd, kBlock);
            }
            m_startOffset.append(std::span<const std::uint32_t>(cells.data(), k - pieceFirst));
        }
    }
    for (std::size_t k = 0; k < n;) {
        const std::size_t pieceFirst = k, pieceEnd = std::min(n, k + kPiece);
        for (; k < pieceEnd; ++k) {
            const std::int64_t d = batch.durNs[k];
            cells[k - pieceFirst] = narrowCell(static_cast<std::uint64_t>(d), first + k, d, m_longDurNs);
        }
        m_durNs.append(std::span<const std::uint32_t>(cells.data(), k - pieceFirst));
    }
    std::size_t k = 0;
    if (!m_wideLabels) {
        static_assert(kMaxLabels <= 65'536);  // an index fits BatchLabels' 16 bits
        // The batch's indices go to the column kPiece at a time, and before a label's second kind
        // spreads kinds to a byte per event (spreadKinds reads every earlier event's index).
        thread_local std::vector<std::uint32_t> indices;
        indices.resize(std::min(n, kPiece));
        std::size_t flushed = 0;  // this batch's indices [0, flushed) are in the column
        const auto flush = [&](std::size_t upTo) {
            m_labelIndex.append(std::span<const std::uint32_t>(indices.data(), upTo - flushed));
            flushed = upTo;
        };
        BatchLabels known;
        bool perEventKinds = !m_kind.empty();
        // One loop with payloads, one without (none is read then).
        const auto labelAll = [&](auto withPayloads) {
            for (; k < n; ++k) {
                if (k - flushed == kPiece) flush(k);
                PayloadId payload = kNoPayload;
                if constexpr (decltype(withPayloads)::value) payload = batch.payloads[k];
                const std::uint8_t kind = batch.kinds[k];
                const std::uint64_t key = BatchLabels::keyOf(batch.nameIds[k], payload);
                const std::size_t slot = BatchLabels::slotOf(key);
                if (known.key[slot] != key) {
                    const std::uint32_t index = labelIndexOf(Label{NameId{batch.nameIds[k]}, payload}, kNoLabel, kind);
                    if (index >= kMaxLabels) {
                        flush(k);
                        widenLabels();
                        return;
                    }
                    known.key[slot] = key;
                    known.entry[slot] = BatchLabels::entryOf(index, m_labelKind[index]);
                }
                const std::uint32_t entry = known.entry[slot];
                indices[k - flushed] = entry & 0xFFFFU;
                if (perEventKinds || entry >> 16 != kind) {
                    if (!perEventKinds) flush(k + 1);
                    keepKind(first + k, entry & 0xFFFFU, kind);
                    perEventKinds = !m_kind.empty();
                }
            }
        };
        if (batch.payloads.empty()) {
            labelAll(std::false_type{});
        } else {
            labelAll(std::true_type{});
        }
        if (!m_wideLabels) flush(n);
    }
    for (; k < n; ++k) {
        appendLabel(NameId{batch.nameIds[k]}, batch.payloads.empty() ? kNoPayload : batch.payloads[k], batch.kinds[k]);
    }
    appendCorrelations(batch.correlationIds);
    m_finalized = false;
}

EventRecord EventColumns::at(std::size_t i) const {
    return EventRecord{startNs(i), durNs(i), name(i), kind(i), correlationId(i), payload(i)};
}

void EventColumns::narrowStarts() {
    const std::size_t n = m_startNs.size();
    if (n == 0) return;
    // Sorted by start, so each block's first start is its smallest and every offset is >= 0.
    std::vector<std::int64_t> base((n + kBlock - 1) / kBlock);
    BlockCells offset;
    offset.reserve(n);
    std::vector<std::pair<std::size_t, std::int64_t>> far;
    std::array<std::uint32_t, kBlock> cells{};
    for (std::size_t b = 0; b < base.size(); ++b) {
        const std::size_t first = b * kBlock, last = std::min(n, first + kBlock);
        base[b] = m_startNs[first];
        for (std::size_t i = first; i < last; ++i) {
            const auto d = static_cast<std::uint64_t>(m_startNs[i]) - static_cast<std::uint64_t>(base[b]);
            cells[i - first] = narrowCell(d, i, m_startNs[i], far);
        }
        offset.append(std::span<const std::uint32_t>(cells.data(), last - first));
    }
    m_startBase = std::move(base);
    m_startOffset = std::move(offset);
    m_farStartNs = std::move(far);
    std::vector<std::int64_t>().swap(m_startNs);
}

void EventColumns::widenStarts() {
    if (m_startOffset.empty()) return;
    std::vector<std::int64_t> wide(m_startOffset.size());
    for (std::size_t i = 0; i < wide.size(); ++i) wide[i] = startNs(i);
    m_startNs = std::move(wide);
    m_blockMaxEnd.clear();  // finalize() computes them after sorting
    std::vector<std::int64_t>().swap(m_startBase);
    m_startOffset = BlockCells();
    std::vector<std::pair<std::size_t, std::int64_t>>().swap(m_farStartNs);
}

void EventColumns::finalize() {
    // Narrow starts came in order; wide ones (an event appended out of order) may need sorting.
    if (!std::is_sorted(m_startNs.begin(), m_startNs.end())) {
        widenCorrelations();
        std::vector<std::size_t> order(m_startNs.size());
        std::iota(order.begin(), order.end(), std::size_t{0});
        std::stable_sort(order.begin(), order.end(),
                         [this](std::size_t a, std::size_t b) { return m_startNs[a] < m_startNs[b]; });
        std::vector<std::int64_t> durations(size());
        for (std::size_t i = 0; i < durations.size(); ++i) durations[i] = durNs(i);
        permute(m_startNs, order);
        permute(durations, order);
        if (!m_labelIndex.empty()) {
            std::vector<std::uint32_t> labels(size());
            for (std::size_t i = 0; i < labels.size(); ++i) labels[i] = m_labelIndex[i];
            permute(labels, order);
            m_labelIndex = BlockCells();
            m_labelIndex.reserve(labels.size());
            m_labelIndex.append(labels);
        }
        permute(m_nameId, order);
        permute(m_kind, order);
        permute(m_correlationId, order);
        permute(m_payloadId, order);
        m_durNs.clear();
        m_longDurNs.clear();
        for (const std::int64_t d : durations) appendDuration(d);
    }
    // Events appended in start order kept their blocks' prefix maxima of ends as they came (noteEnd);
    // after an out-of-order event (wide starts, now sorted) they are computed here.
    if (!startsNarrow() || m_blockMaxEnd.size() != (size() + kBlock - 1) / kBlock) {
        m_blockMaxEnd.clear();
        m_blockMaxEnd.reserve((size() + kBlock - 1) / kBlock);
        appendBlockMaxEnds(
            size(), kBlock, [this](std::size_t i) { return endNs(i); }, m_blockMaxEnd);
    }
    narrowCorrelations();
    narrowStarts();
    if (std::all_of(m_payloadId.begin(), m_payloadId.end(), [](PayloadId p) { return p == kNoPayload; })) {
        std::vector<PayloadId>().swap(m_payloadId);
    }
    std::vector<std::uint32_t>().swap(m_labelLookup);
    m_startBase.shrink_to_fit();
    m_startOffset.shrinkToFit();
    m_farStartNs.shrink_to_fit();
    m_durNs.shrinkToFit();
    m_longDurNs.shrink_to_fit();
    m_labelIndex.shrinkToFit();
    m_labels.shrink_to_fit();
    m_labelKind.shrink_to_fit();
    m_nameId.shrink_to_fit();
    m_kind.shrink_to_fit();
    m_correlationId.shrink_to_fit();
    m_correlationBase.shrink_to_fit();
    m_correlationCell.shrinkToFit();
    m_payloadId.shrink_to_fit();
    m_blockMaxEnd.shrink_to_fit();
    m_finalized = true;
}

std::size_t EventColumns::lowerBoundStart(std::int64_t t, std::size_t first, std::size_t last) const {
    if (m_startNs.empty() && first < last) {
        // Narrowed: the block bases first (each its block's smallest start), then the one block.
        const std::size_t firstBlock = first / kBlock, lastBlock = (last - 1) / kBlock + 1;
        const auto block =
            static_cast<std::size_t>(std::lower_bound(m_startBase.begin() + static_cast<std::ptrdiff_t>(firstBlock),
                                                      m_startBase.begin() + static_cast<std::ptrdiff_t>(lastBlock), t) -
                                     m_startBase.begin());
        // Every event of blocks from `block` on starts at or after t; the answer is in block - 1.
        if (block > firstBlock) first = std::max(first, (block - 1) * kBlock);
        last = std::min(last, block * kBlock);
    }
    while (first < last) {
        const std::size_t mid = first + (last - first) / 2;
        if (startNs(mid) < t) {
            first = mid + 1;
        } else {
            last = mid;
        }
    }
    return first;
}

IndexRange EventColumns::visibleRange(std::int64_t t0, std::int64_t t1) const {
    if (empty() || t1 <= t0) return {};
    const std::size_t last = lowerBoundStart(t1, 0, size());
    return rangeAfterBlockMaxEnd(m_blockMaxEnd, kBlock, size(), last, t0, [this](std::size_t i) { return endNs(i); });
}

std::size_t EventColumns::countOverlaps() const {
    std::size_t overlaps = 0;
    std::int64_t runningMax = INT64_MIN;
    for (std::size_t i = 0; i < size(); ++i) {
        if (startNs(i) < runningMax) ++overlaps;
        runningMax = std::max(runningMax, endNs(i));
    }
    return overlaps;
}

std::size_t EventColumns::residentBytes() const {
    return capacityBytes(m_startNs) + capacityBytes(m_startBase) + m_startOffset.residentBytes() +
           capacityBytes(m_farStartNs) + m_durNs.residentBytes() + capacityBytes(m_longDurNs) +
           m_labelIndex.residentBytes() + capacityBytes(m_labels) + capacityBytes(m_labelKind) +
           capacityBytes(m_labelLookup) + capacityBytes(m_nameId) + capacityBytes(m_kind) +
           capacityBytes(m_correlationId) + capacityBytes(m_correlationBase) + m_correlationCell.residentBytes() +
           capacityBytes(m_payloadId) + capacityBytes(m_blockMaxEnd);
}

bool EventColumns::operator==(const EventColumns& other) const {
    if (size() != other.size()) return false;
    for (std::size_t i = 0; i < size(); ++i) {
        if (startNs(i) != other.startNs(i) || durNs(i) != other.durNs(i) || name(i) != other.name(i) ||
            kind(i) != other.kind(i) || correlationId(i) != other.correlationId(i) || payload(i) != other.payload(i)) {
            return false;
        }
    }
    return true;
}

}  // namespace tpscope::core
