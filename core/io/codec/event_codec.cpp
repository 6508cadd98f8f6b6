// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/io/codec/event_codec.h"

#include <algorithm>
#include <array>
#include <cstring>

namespace tpscope::core::codec {

namespace {

// Deltas wrap (two's complement) instead of overflowing, so any int64 values round-trip and hostile
// input cannot cause undefined behaviour.
std::int64_t wrapAdd(std::int64_t a, std::int64_t b) {
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
}
std::int64_t wrapSub(std::int64_t a, std::int64_t b) {
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) - static_cast<std::uint64_t>(b));
}

Error corrupt(const std::string& what) {
    return makeError(ErrorCode::ParseError, "corrupt workspace data (" + what + ")");
}

}  // namespace

std::string encodeEvents(const EventColumns& ev, std::size_t first, std::size_t last) {
    Writer w;
    w.bytes().reserve((last - first) * 10);
    w.varint(last - first);
    std::int64_t prev = 0;
    for (std::size_t i = first; i < last; ++i) {
        w.zigzag(wrapSub(ev.startNs(i), prev));
        prev = ev.startNs(i);
    }
    for (std::size_t i = first; i < last; ++i) w.zigzag(ev.durNs(i));
    for (std::size_t i = first; i < last; ++i) w.varint(ev.name(i).value);
    for (std::size_t i = first; i < last; ++i) w.u8(static_cast<std::uint8_t>(ev.kind(i)));
    std::int64_t prevCorrelation = 0;
    for (std::size_t i = first; i < last; ++i) {
        w.zigzag(static_cast<std::int64_t>(ev.correlationId(i)) - prevCorrelation);
        prevCorrelation = ev.correlationId(i);
    }
    for (std::size_t i = first; i < last; ++i) w.varint(ev.payload(i));
    return std::move(w.bytes());
}

std::string encodeEventBlocks(const EventColumns& ev, std::size_t first, std::size_t last, std::size_t labelsFrom,
                              std::size_t labelsTo) {
    std::string out(1, '\0');
    ev.writeBlockForm(first, last, labelsFrom, labelsTo, out);
    return out;
}

namespace {

// One LEB128 varint at p, as Reader::varint reads it (at most 10 bytes, bits past 64 dropped). Returns
// the byte after it, or nullptr when the input ends inside it or it is longer than 10 bytes. Away from
// the end the bytes are read without a bound check each.
inline const std::uint8_t* varintAt(const std::uint8_t* p, const std::uint8_t* end, std::uint64_t& v) {
    if (end - p >= 10) {
        // Unrolled for the usual one to three bytes.
        std::uint64_t b = p[0];
        if (b < 0x80) {
            v = b;
            return p + 1;
        }
        std::uint64_t r = b & 0x7F;
        b = p[1];
        r |= (b & 0x7F) << 7;
        if (b < 0x80) {
            v = r;
            return p + 2;
        }
        b = p[2];
        r |= (b & 0x7F) << 14;
        if (b < 0x80) {
            v = r;
            return p + 3;
        }
        p += 3;
        for (int shift = 21; shift < 70; shift += 7) {
            b = *p++;
            r |= (b & 0x7F) << shift;
            if (b < 0x80) {
                v = r;
                return p;
            }
        }
        return nullptr;
    }
    std::uint64_t r = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (p == end) return nullptr;
        const std::uint64_t b = *p++;
        r |= (b & 0x7F) << shift;
        if (b < 0x80) {
            v = r;
            return p;
        }
    }
    return nullptr;
}

std::int64_t unzigzag(std::uint64_t u) {
    return static_cast<std::int64_t>(u >> 1) ^ -static_cast<std::int64_t>(u & 1);
}

// Decodes a column of n varints from p, calling take(i, value) for each (false: the value is invalid).
// Eight one-byte values at a time where the next eight bytes all are (names, kinds of id, small
// deltas). Returns the byte after the column, or nullptr on truncated input or a value take refuses.
template <typename Take>
const std::uint8_t* decodeColumn(const std::uint8_t* p, const std::uint8_t* end, std::size_t n, Take&& take) {
    std::size_t i = 0;
    while (i < n) {
        if (n - i >= 8 && end - p >= 8) {
            std::uint64_t word = 0;
            std::memcpy(&word, p, 8);
            if ((word & 0x8080808080808080ULL) == 0) {
                for (int k = 0; k < 8; ++k) {
                    if (!take(i + static_cast<std::size_t>(k), std::uint64_t{p[k]})) return nullptr;
                }
                p += 8;
                i += 8;
                continue;
            }
        }
        std::uint64_t v = 0;
        p = varintAt(p, end, v);
        if (p == nullptr || !take(i, v)) return nullptr;
        ++i;
    }
    return p;
}

}  // namespace

Status decodeEvents(std::string_view raw, std::size_t expectedCount, std::size_t nameCount, std::size_t payloadCount,
                    EventColumns& out, EventChunkScratch& scratch) {
    if (raw.size() > 1 && raw.front() == '\0') {
        const char* wrong = out.appendBlockForm(raw.substr(1), expectedCount, nameCount, payloadCount);
        return wrong == nullptr ? Status(Ok{}) : Status(corrupt(wrong));
    }
    const auto* p = reinterpret_cast<const std::uint8_t*>(raw.data());
    const auto* const end = p + raw.size();
    std::uint64_t n = 0;
    p = varintAt(p, end, n);
    if (p == nullptr || n != expectedCount || n > kChunkEvents) return corrupt("event count");
    auto& starts = scratch.startNs;
    auto& durs = scratch.durNs;
    auto& names = scratch.nameIds;
    auto& kinds = scratch.kinds;
    auto& correlations = scratch.correlationIds;
    auto& payloads = scratch.payloads;
    starts.resize(n);
    durs.resize(n);
    names.resize(n);
    kinds.resize(n);
    correlations.resize(n);
    payloads.resize(n);
    std::int64_t prev = 0;
    p = decodeColumn(p, end, n, [&](std::size_t i, std::uint64_t v) {
        prev = wrapAdd(prev, unzigzag(v));
        starts[i] = prev;
        return true;
    });
    if (p == nullptr) return corrupt("start column");
    p = decodeColumn(p, end, n, [&](std::size_t i, std::uint64_t v) {
        // Valid traces have 0 <= duration and start + duration representable.
        const std::int64_t d = unzigzag(v);
        durs[i] = d;
        return d >= 0 && starts[i] <= INT64_MAX - d;
    });
    if (p == nullptr) return corrupt("duration column");
    p = decodeColumn(p, end, n, [&](std::size_t i, std::uint64_t v) {
        names[i] = static_cast<std::uint32_t>(v);
        return v < nameCount;
    });
    if (p == nullptr) return corrupt("name column");
    if (static_cast<std::size_t>(end - p) < n) return corrupt("kind column");
    std::copy_n(p, n, kinds.begin());  // not memcpy: an empty chunk's kinds.data() may be null
    p += n;
    if (std::any_of(kinds.begin(), kinds.end(), [](std::uint8_t k) { return k >= kEventKindCount; })) {
        return corrupt("kind column");
    }
    std::int64_t prevCorrelation = 0;
    p = decodeColumn(p, end, n, [&](std::size_t i, std::uint64_t v) {
        prevCorrelation = wrapAdd(prevCorrelation, unzigzag(v));
        correlations[i] = static_cast<std::uint32_t>(prevCorrelation);
        return true;
    });
    if (p == nullptr) return corrupt("correlation column");
    bool anyPayload = false;
    p = decodeColumn(p, end, n, [&](std::size_t i, std::uint64_t v) {
        payloads[i] = static_cast<PayloadId>(v);
        anyPayload = anyPayload || v != kNoPayload;
        return v < payloadCount;
    });
    if (p == nullptr) return corrupt("payload column");
    if (p != end) return corrupt("trailing bytes in an event chunk");
    out.append(EventBatch{starts, durs, names, kinds, correlations,
                          anyPayload ? std::span<const PayloadId>(payloads) : std::span<const PayloadId>()});
    return Ok{};
}

Status decodeEvents(std::string_view raw, std::size_t expectedCount, std::size_t nameCount, std::size_t payloadCount,
                    EventColumns& out) {
    EventChunkScratch scratch;
    return decodeEvents(raw, expectedCount, nameCount, payloadCount, out, scratch);
}

std::string encodeNames(const StringTable& names) {
    Writer w;
    w.varint(names.size());
    for (std::uint32_t i = 0; i < names.size(); ++i) w.text(names.view(NameId{i}));
    return std::move(w.bytes());
}

Status decodeNames(std::string_view raw, StringTable& out) {
    Reader r(raw);
    std::uint64_t n = 0;
    if (!r.varint(n) || n == 0 || n > raw.size()) return corrupt("name table size");
    for (std::uint64_t i = 0; i < n; ++i) {
        std::string_view s;
        if (!r.text(s)) return corrupt("name table entry");
        // Names are unique in a StringTable; a duplicate would shift every later id.
        if (out.intern(s).value != i) return corrupt("duplicate name");
    }
    return r.atEnd() ? Status(Ok{}) : Status(corrupt("trailing bytes in the name table"));
}

std::string encodePayloads(const PayloadTable& payloads) {
    Writer w;
    w.varint(payloads.size());
    for (const Payload& p : payloads.all()) {
        w.u8(static_cast<std::uint8_t>(p.kind));
        switch (p.kind) {
            case PayloadKind::Collective:
                w.u8(static_cast<std::uint8_t>(p.collective.op));
                w.u8(static_cast<std::uint8_t>(p.collective.algo));
                w.u8(static_cast<std::uint8_t>(p.collective.proto));
                w.u8(static_cast<std::uint8_t>(p.collective.dtype));
                w.varint(p.collective.groupSize);
                w.varint(p.collective.communicator.value);
                w.varint(p.collective.bytes);
                break;
            case PayloadKind::Gemm:
                w.varint(p.gemm.m);
                w.varint(p.gemm.n);
                w.varint(p.gemm.k);
                w.u8(static_cast<std::uint8_t>(p.gemm.dtype));
                break;
            case PayloadKind::Copy:
                w.u8(static_cast<std::uint8_t>(p.copy.kind));
                w.varint(p.copy.bytes);
                break;
            case PayloadKind::None:
                break;
        }
    }
    return std::move(w.bytes());
}

namespace {

template <typename E>
bool enumByte(Reader& r, E& out, int count) {
    std::uint8_t v = 0;
    if (!r.u8(v) || v >= count) return false;
    out = static_cast<E>(v);
    return true;
}

bool u32(Reader& r, std::uint32_t& out) {
    std::uint64_t v = 0;
    if (!r.varint(v) || v > UINT32_MAX) return false;
    out = static_cast<std::uint32_t>(v);
    return true;
}

constexpr int kOps = 8, kAlgos = 9, kProtos = 4, kDtypes = 9, kCopyKinds = 5, kPayloadKinds = 4;

}  // namespace

Status decodePayloads(std::string_view raw, std::size_t nameCount, PayloadTable& out) {
    Reader r(raw);
    std::uint64_t n = 0;
    if (!r.varint(n) || n == 0 || n > raw.size()) return corrupt("payload table size");
    for (std::uint64_t i = 0; i < n; ++i) {
        Payload p;
        bool ok = enumByte(r, p.kind, kPayloadKinds);
        if (ok && p.kind == PayloadKind::Collective) {
            auto& c = p.collective;
            std::uint64_t bytes = 0;
            ok = enumByte(r, c.op, kOps) && enumByte(r, c.algo, kAlgos) && enumByte(r, c.proto, kProtos) &&
                 enumByte(r, c.dtype, kDtypes) && u32(r, c.groupSize) && u32(r, c.communicator.value) &&
                 c.communicator.value < nameCount && r.varint(bytes);
            c.bytes = bytes;
        } else if (ok && p.kind == PayloadKind::Gemm) {
            ok = u32(r, p.gemm.m) && u32(r, p.gemm.n) && u32(r, p.gemm.k) && enumByte(r, p.gemm.dtype, kDtypes);
        } else if (ok && p.kind == PayloadKind::Copy) {
            std::uint64_t bytes = 0;
            ok = enumByte(r, p.copy.kind, kCopyKinds) && r.varint(bytes);
            p.copy.bytes = bytes;
        }
        if (!ok) return corrupt("payload entry");
        if ((i == 0) != (p.kind == PayloadKind::None)) return corrupt("payload table layout");
        if (i > 0 && out.intern(p) != i) return corrupt("duplicate payload");
    }
    return r.atEnd() ? Status(Ok{}) : Status(corrupt("trailing bytes in the payload table"));
}

std::string encodeRanges(const NvtxRanges& ranges) {
    if (!ranges.empty() && ranges.columns().hasBlockForm()) {
        // Block form: the byte 0, u32 count, the depths, then the columns (EventColumns::writeBlockForm).
        std::string out(1, '\0');
        const auto count = static_cast<std::uint32_t>(ranges.size());
        out.append(reinterpret_cast<const char*>(&count), sizeof count);
        out.append(reinterpret_cast<const char*>(ranges.depths().data()), ranges.size());
        ranges.columns().writeBlockForm(0, ranges.size(), 0, ranges.columns().labelsReached(0, ranges.size()), out);
        return out;
    }
    Writer w;
    w.varint(ranges.size());
    std::int64_t prev = 0;
    for (std::size_t i = 0; i < ranges.size(); ++i) {
        const std::int64_t start = ranges.startNs(i);
        w.zigzag(wrapSub(start, prev));
        prev = start;
        w.zigzag(wrapSub(ranges.endNs(i), start));
        w.varint(ranges.name(i).value);
        w.u8(ranges.depth(i));
    }
    return std::move(w.bytes());
}

Status decodeRanges(std::string_view raw, std::size_t nameCount, NvtxRanges& out) {
    if (raw.size() > 1 && raw.front() == '\0') {
        std::uint32_t count = 0;
        if (raw.size() < 1 + sizeof count) return corrupt("range count");
        std::memcpy(&count, raw.data() + 1, sizeof count);
        if (raw.size() - 1 - sizeof count < count) return corrupt("range count");
        const auto* depths = reinterpret_cast<const std::uint8_t*>(raw.data()) + 1 + sizeof count;
        const char* wrong =
            out.appendBlockForm(raw.substr(1 + sizeof count + count), std::span(depths, count), nameCount);
        return wrong == nullptr ? Status(Ok{}) : Status(corrupt(wrong));
    }
    const auto* p = reinterpret_cast<const std::uint8_t*>(raw.data());
    const auto* const end = p + raw.size();
    std::uint64_t n = 0;
    p = varintAt(p, end, n);
    if (p == nullptr || n > raw.size()) return corrupt("range count");
    out.reserve(out.size() + n);
    // Decoded a chunk at a time and appended as columns (NvtxRanges::append).
    constexpr std::size_t kChunk = 4096;
    std::array<std::int64_t, kChunk> starts{};
    std::array<std::int64_t, kChunk> ends{};
    std::array<std::uint32_t, kChunk> names{};
    std::array<std::uint8_t, kChunk> depths{};
    std::size_t held = 0;
    const auto flush = [&] {
        out.append(std::span(starts.data(), held), std::span(ends.data(), held), std::span(names.data(), held),
                   std::span(depths.data(), held));
        held = 0;
    };
    std::int64_t prev = 0;
    for (std::uint64_t i = 0; i < n; ++i) {
        std::uint64_t d = 0, len = 0, name = 0;
        if ((p = varintAt(p, end, d)) == nullptr || (p = varintAt(p, end, len)) == nullptr ||
            (p = varintAt(p, end, name)) == nullptr || name >= nameCount || p == end) {
            return corrupt("range entry");
        }
        depths[held] = *p++;
        const std::int64_t start = wrapAdd(prev, unzigzag(d));
        prev = start;
        const std::int64_t length = unzigzag(len);
        if (length < 0 || start > INT64_MAX - length) return corrupt("range length");
        starts[held] = start;
        ends[held] = start + length;
        names[held] = static_cast<std::uint32_t>(name);
        if (++held == kChunk) flush();
    }
    flush();
    return p == end ? Status(Ok{}) : Status(corrupt("trailing bytes in the range table"));
}

}  // namespace tpscope::core::codec
