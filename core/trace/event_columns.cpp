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
    } else if (!m_correlationOffset.empty()) {
        m_correlationBase.reserve((n + kBlock - 1) / kBlock);
        m_correlationOffset.reserve(n);
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

std::size_t labelHash(NameId name, PayloadId payload) {
    const std::uint64_t key = (std::uint64_t{name.value} << 32) | payload;
    return static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ULL) >> 32);
}

constexpr std::uint16_t kIdZero = EventColumns::kIdZero;
constexpr std::uint32_t kMaxIdOffset = EventColumns::kMaxIdOffset;

// The smallest and largest ids other than 0 in ids ({UINT32_MAX, 0} when every id is 0).
// Without a branch per id: id - 1 wraps 0 to UINT32_MAX, above every other id - 1.
std::pair<std::uint32_t, std::uint32_t> nonZeroRange(std::span<const std::uint32_t> ids) {
    std::uint32_t loLess = UINT32_MAX, hi = 0;
    for (const std::uint32_t id : ids) {
        loLess = std::min(loLess, id - 1U);
        hi = std::max(hi, id);
    }
    return {loLess == UINT32_MAX ? UINT32_MAX : loLess + 1U, hi};
}

// Appends the ids of a new block (`ids`, at most a block) to narrow correlation columns in one pass:
// offsets from its first id other than 0 (usually its smallest: ids grow), its range measured as they
// are written, and written again from its smallest other id only when a smaller one came. The same
// base and offsets as narrowCorrelations() stores. False, with nothing appended, when its ids other
// than 0 span more than kMaxIdOffset.
bool appendNarrowBlock(std::vector<std::uint32_t>& base, std::vector<std::uint16_t>& offset,
                       std::span<const std::uint32_t> ids) {
    const std::size_t m = ids.size();
    std::size_t firstNonZero = 0;
    while (firstNonZero < m && ids[firstNonZero] == 0) ++firstNonZero;
    const std::uint32_t guess = firstNonZero < m ? ids[firstNonZero] : 0;
    std::uint16_t* out = grow(offset, m);
    std::uint32_t loLess = UINT32_MAX, hi = 0;  // as nonZeroRange
    for (std::size_t j = 0; j < m; ++j) {
        const std::uint32_t id = ids[j];
        loLess = std::min(loLess, id - 1U);
        hi = std::max(hi, id);
        out[j] = id != 0 ? static_cast<std::uint16_t>(id - guess) : kIdZero;
    }
    const std::uint32_t lo = hi == 0 ? 0 : loLess + 1U;  // all 0: base 0
    if (hi - lo > kMaxIdOffset) {
        offset.resize(offset.size() - m);
        return false;
    }
    base.push_back(lo);
    if (lo != guess) {
        for (std::size_t j = 0; j < m; ++j) {
            if (ids[j] != 0) out[j] = static_cast<std::uint16_t>(ids[j] - lo);
        }
    }
    return true;
}

// Appends ids to narrow correlation columns: per block of `block` events the smallest id other than 0
// as its base (0 while all are 0) and 16-bit offsets from it, id 0 as kIdZero, exactly as
// narrowCorrelations() stores them; the last block, when partial, is re-based when a smaller id joins
// it. Returns how many ids were appended: all of them, or fewer when a block's non-zero ids span more
// than kMaxIdOffset (the caller then keeps all 32 bits).
std::size_t appendNarrowCorrelations(std::vector<std::uint32_t>& base, std::vector<std::uint16_t>& offset,
                                     std::span<const std::uint32_t> ids, std::size_t block) {
    std::size_t k = 0;
    while (k < ids.size()) {
        const std::size_t inBlock = offset.size() % block;
        const std::size_t m = std::min(ids.size() - k, block - inBlock);
        if (inBlock == 0) {
            if (!appendNarrowBlock(base, offset, ids.subspan(k, m))) return k;
            k += m;
            continue;
        }
        auto [lo, hi] = nonZeroRange(ids.subspan(k, m));
        if (hi != 0 && (lo < base.back() || hi - base.back() > kMaxIdOffset)) {
            // Re-based on the smallest non-zero id of the block so far and of the new ones (the base
            // may be below the former: a block that began with id 0 has base 0).
            const std::uint32_t b = base.back();
            const auto kept = offset.end() - static_cast<std::ptrdiff_t>(inBlock);
            for (auto it = kept; it != offset.end(); ++it) {
                if (*it == kIdZero) continue;
                lo = std::min<std::uint32_t>(lo, b + *it);
                hi = std::max<std::uint32_t>(hi, b + *it);
            }
            if (hi - lo > kMaxIdOffset) return k;
            for (auto it = kept; it != offset.end(); ++it) {
                if (*it != kIdZero) *it = static_cast<std::uint16_t>(b + *it - lo);
            }
            base.back() = lo;
        } else {
            lo = base.back();
        }
        std::uint16_t* out = grow(offset, m);
        for (std::size_t j = 0; j < m; ++j) {
            const std::uint32_t id = ids[k + j];
            out[j] = id != 0 ? static_cast<std::uint16_t>(id - lo) : kIdZero;
        }
        k += m;
    }
    return k;
}

// Appends ids to the correlation columns: narrow while every block's ids fit 16 bits; from the first
// block that does not, all 32 bits (`wide`; finalize() tries to narrow them again, after sorting).
void appendIds(std::vector<std::uint32_t>& wide, std::vector<std::uint32_t>& base, std::vector<std::uint16_t>& offset,
               std::span<const std::uint32_t> ids, std::size_t block) {
    std::size_t k = 0;
    if (wide.empty()) {
        k = appendNarrowCorrelations(base, offset, ids, block);
        if (k == ids.size()) return;
        wide.resize(offset.size());
        for (std::size_t i = 0; i < wide.size(); ++i) wide[i] = offset[i] != kIdZero ? base[i / block] + offset[i] : 0;
        std::vector<std::uint32_t>().swap(base);
        std::vector<std::uint16_t>().swap(offset);
    }
    wide.insert(wide.end(), ids.begin() + static_cast<std::ptrdiff_t>(k), ids.end());
}

// The label indices found while appending one batch, direct-mapped by (name, payload): a decode trace
// alternates some ten kernel names, so the previous event's label seldom matches, and a slot of this
// small table answers most events without the stream's lookup (EventColumns::labelIndexOf). An index,
// once given, stays the label's while labels stay narrow; the batch drops the table when they widen.
struct BatchLabels {
    static constexpr std::size_t kSlots = 256;
    static constexpr std::uint64_t keyOf(std::uint32_t name, PayloadId payload) {
        return (std::uint64_t{name} << 32) | payload;
    }
    static constexpr std::size_t slotOf(std::uint64_t key) {
        return static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ULL) >> 56);
    }
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

// Ids appended to the correlation columns. While every id so far is 0 there is no column; the first
// other id makes the narrow columns for the events before it (base 0, every offset kIdZero).
void EventColumns::appendCorrelations(std::span<const std::uint32_t> ids) {
    if (m_correlationId.empty() && m_correlationOffset.empty()) {
        const auto nonZero = std::find_if(ids.begin(), ids.end(), [](std::uint32_t id) { return id != 0; });
        if (nonZero == ids.end()) return;
        const std::size_t before = size() - ids.size() + static_cast<std::size_t>(nonZero - ids.begin());
        m_correlationOffset.reserve(std::max(m_durNs.capacity(), size()));
        m_correlationBase.reserve((m_correlationOffset.capacity() + kBlock - 1) / kBlock);
        m_correlationBase.assign((before + kBlock - 1) / kBlock, 0);
        m_correlationOffset.assign(before, kIdZero);
        ids = ids.subspan(static_cast<std::size_t>(nonZero - ids.begin()));
    }
    appendIds(m_correlationId, m_correlationBase, m_correlationOffset, ids, kBlock);
}

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
        const std::uint32_t index = labelIndexOf(Label{name, payload}, i > 0 ? m_labelIndex.back() : kNoLabel, kind);
        if (index < kMaxLabels) {
            m_labelIndex.push_back(static_cast<std::uint16_t>(index));
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
    std::vector<std::uint16_t>().swap(m_labelIndex);
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
    // Usually a new block (its base the id, 0 for id 0), id 0, or an id that fits the last block
    // (appendCorrelations does the rest).
    const std::uint32_t id = e.correlationId;
    if (!m_correlationId.empty()) {
        m_correlationId.push_back(id);
    } else if (m_correlationOffset.empty()) {
        if (id != 0) appendCorrelations(std::span<const std::uint32_t>(&e.correlationId, 1));  // the first id not 0
    } else if (m_correlationOffset.size() % kBlock == 0) {
        m_correlationBase.push_back(id);
        m_correlationOffset.push_back(id != 0 ? 0 : kIdZero);
    } else if (id == 0) {
        m_correlationOffset.push_back(kIdZero);
    } else if (id >= m_correlationBase.back() && id - m_correlationBase.back() <= kMaxIdOffset) {
        m_correlationOffset.push_back(static_cast<std::uint16_t>(id - m_correlationBase.back()));
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
    // Starts and durations as 32-bit cells, kPiece at a time (BlockOffsets narrows them), and, in start
    // order, the blocks' prefix maxima of ends. A piece holds a whole workspace chunk (65,536 events),
    // so that BlockOffsets grows its column once a chunk, its pages faulted in by one call (grow()).
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
        std::uint16_t* out = grow(m_labelIndex, n);
        static_assert(kMaxLabels <= 65'536);  // an index fits BatchLabels' 16 bits
        BatchLabels known;
        bool perEventKinds = !m_kind.empty();
        // One loop with payloads, one without (none is read then).
        const auto labelAll = [&](auto withPayloads) {
            for (; k < n; ++k) {
                PayloadId payload = kNoPayload;
                if constexpr (decltype(withPayloads)::value) payload = batch.payloads[k];
                const std::uint8_t kind = batch.kinds[k];
                const std::uint64_t key = BatchLabels::keyOf(batch.nameIds[k], payload);
                const std::size_t slot = BatchLabels::slotOf(key);
                if (known.key[slot] != key) {
                    const std::uint32_t index = labelIndexOf(Label{NameId{batch.nameIds[k]}, payload}, kNoLabel, kind);
                    if (index >= kMaxLabels) {
                        m_labelIndex.resize(first + k);
                        widenLabels();
                        return;
                    }
                    known.key[slot] = key;
                    known.entry[slot] = BatchLabels::entryOf(index, m_labelKind[index]);
                }
                const std::uint32_t entry = known.entry[slot];
                out[k] = static_cast<std::uint16_t>(entry);
                if (perEventKinds || entry >> 16 != kind) {
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

void EventColumns::narrowCorrelations() {
    const std::size_t n = m_correlationId.size();
    if (n == 0 || n != size()) return;
    std::vector<std::uint32_t> base((n + kBlock - 1) / kBlock);
    std::vector<std::uint16_t> offset(n);
    for (std::size_t b = 0; b < base.size(); ++b) {
        const std::size_t first = b * kBlock, last = std::min(n, first + kBlock);
        const auto [lo, hi] =
            nonZeroRange(std::span<const std::uint32_t>(m_correlationId).subspan(first, last - first));
        base[b] = hi != 0 ? lo : 0;
        if (hi - base[b] > kMaxIdOffset) return;  // ids jump within a block: keep all 32 bits
        for (std::size_t i = first; i < last; ++i) {
            const std::uint32_t id = m_correlationId[i];
            offset[i] = id != 0 ? static_cast<std::uint16_t>(id - base[b]) : kIdZero;
        }
    }
    m_correlationBase = std::move(base);
    m_correlationOffset = std::move(offset);
    std::vector<std::uint32_t>().swap(m_correlationId);
}

void EventColumns::widenCorrelations() {
    if (m_correlationOffset.empty()) return;  // all 32 bits already, or no events
    m_correlationId.resize(m_correlationOffset.size());
    for (std::size_t i = 0; i < m_correlationId.size(); ++i) {
        m_correlationId[i] = narrowId(m_correlationBase[i / kBlock], m_correlationOffset[i]);
    }
    std::vector<std::uint32_t>().swap(m_correlationBase);
    std::vector<std::uint16_t>().swap(m_correlationOffset);
}

void EventColumns::narrowStarts() {
    const std::size_t n = m_startNs.size();
    if (n == 0) return;
    // Sorted by start, so each block's first start is its smallest and every offset is >= 0.
    std::vector<std::int64_t> base((n + kBlock - 1) / kBlock);
    BlockOffsets<24> offset;
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
    m_startOffset = BlockOffsets<24>();
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
        permute(m_labelIndex, order);
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
    m_labelIndex.shrink_to_fit();
    m_labels.shrink_to_fit();
    m_labelKind.shrink_to_fit();
    m_nameId.shrink_to_fit();
    m_kind.shrink_to_fit();
    m_correlationId.shrink_to_fit();
    m_correlationBase.shrink_to_fit();
    m_correlationOffset.shrink_to_fit();
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
           capacityBytes(m_labelIndex) + capacityBytes(m_labels) + capacityBytes(m_labelKind) +
           capacityBytes(m_labelLookup) + capacityBytes(m_nameId) + capacityBytes(m_kind) +
           capacityBytes(m_correlationId) + capacityBytes(m_correlationBase) + capacityBytes(m_correlationOffset) +
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
