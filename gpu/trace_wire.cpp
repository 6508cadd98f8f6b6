// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "gpu/trace_wire.h"

#include <algorithm>
#include <string>
#include <string_view>

#include "core/io/codec/event_codec.h"

namespace tpscope::gpu {

namespace {

namespace codec = core::codec;

constexpr std::uint64_t kMagic = 0x54505357;  // "TPSW"
constexpr std::uint64_t kVersion = 2;         // 2: core/io's codec for names, payloads, events, ranges

core::Error malformed(const std::string& why) {
    return core::makeError(core::ErrorCode::ParseError, "malformed trace from another rank: " + why, "MPI gather");
}

std::string_view asText(const std::vector<std::uint8_t>& bytes) {
    return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

std::vector<std::uint8_t> asBytes(const std::string& text) {
    return {text.begin(), text.end()};
}

// A count read from the input must fit in what is left (each item takes at least one byte), so a
// corrupted count cannot make the reader allocate without bound.
bool count(codec::Reader& r, std::size_t inputBytes, std::uint64_t& n) {
    return r.varint(n) && n <= inputBytes;
}

bool text(codec::Reader& r, std::string& out) {
    std::string_view s;
    if (!r.text(s)) return false;
    out.assign(s);
    return true;
}

bool signedValue(codec::Reader& r, std::int64_t& v) {
    return r.zigzag(v);
}

void writeRank(codec::Writer& w, const core::Rank& rank) {
    w.varint(rank.id.value);
    w.text(rank.host);
    w.zigzag(rank.deviceIndex);
    w.text(rank.deviceName);
    w.zigzag(rank.clockOffsetNs);
    w.varint(rank.streams.size());
    for (const core::Stream& s : rank.streams) {
        w.varint(s.id.value);
        w.text(s.label);
        w.varint(s.events.size());
        for (std::size_t first = 0; first < s.events.size(); first += codec::kChunkEvents) {
            w.text(codec::encodeEvents(s.events, first, std::min(s.events.size(), first + codec::kChunkEvents)));
        }
    }
    w.text(codec::encodeRanges(rank.ranges));
}

core::Status readRank(codec::Reader& r, std::size_t inputBytes, core::Trace& t) {
    std::uint64_t id = 0, streams = 0;
    std::int64_t device = 0;
    std::string host, deviceName;
    std::int64_t clockOffsetNs = 0;
    if (!r.varint(id) || id > UINT32_MAX || !text(r, host) || !signedValue(r, device) || device < -1 ||
        device > INT32_MAX || !text(r, deviceName) || !signedValue(r, clockOffsetNs) ||
        !count(r, inputBytes, streams)) {
        return malformed("rank header");
    }
    core::Rank& rank = t.rank(core::RankId(static_cast<std::uint32_t>(id)));
    rank.host = std::move(host);
    rank.deviceIndex = static_cast<int>(device);
    rank.deviceName = std::move(deviceName);
    rank.clockOffsetNs = clockOffsetNs;
    for (std::uint64_t si = 0; si < streams; ++si) {
        std::uint64_t sid = 0, events = 0;
        std::string label;
        if (!r.varint(sid) || !text(r, label) || !count(r, inputBytes, events)) return malformed("stream header");
        core::Stream& stream = rank.stream(core::StreamId(sid), label);
        stream.events.reserve(events);
        for (std::uint64_t first = 0; first < events; first += codec::kChunkEvents) {
            std::string_view chunk;
            if (!r.text(chunk)) return malformed("event chunk");
            const auto expected =
                static_cast<std::size_t>(std::min<std::uint64_t>(events - first, codec::kChunkEvents));
            if (auto ok = codec::decodeEvents(chunk, expected, t.names.size(), t.payloads.size(), stream.events); !ok) {
                return malformed(ok.error().message);
            }
        }
    }
    std::string_view ranges;
    if (!r.text(ranges)) return malformed("range table");
    if (auto ok = codec::decodeRanges(ranges, t.names.size(), rank.ranges); !ok) return malformed(ok.error().message);
    return core::Ok{};
}

}  // namespace

std::vector<std::uint8_t> serializeTrace(const core::Trace& t) {
    codec::Writer w;
    w.varint(kMagic);
    w.varint(kVersion);
    w.text(codec::encodeNames(t.names));
    w.text(codec::encodePayloads(t.payloads));
    w.varint(t.ranks.size());
    for (const core::Rank& rank : t.ranks) writeRank(w, rank);
    w.u8(static_cast<std::uint8_t>(t.origin));
    w.text(t.source);
    w.varint(t.metadata.size());
    for (const auto& [k, v] : t.metadata) {
        w.text(k);
        w.text(v);
    }
    return asBytes(w.bytes());
}

core::Result<core::Trace> deserializeTrace(const std::vector<std::uint8_t>& bytes) {
    codec::Reader r(asText(bytes));
    std::uint64_t magic = 0, version = 0;
    if (!r.varint(magic) || magic != kMagic) return malformed("wrong magic");
    if (!r.varint(version) || version != kVersion) return malformed("unknown version " + std::to_string(version));

    core::Trace t;
    std::string_view table;
    if (!r.text(table)) return malformed("name table");
    if (auto ok = codec::decodeNames(table, t.names); !ok) return malformed(ok.error().message);
    if (!r.text(table)) return malformed("payload table");
    if (auto ok = codec::decodePayloads(table, t.names.size(), t.payloads); !ok) return malformed(ok.error().message);
    std::uint64_t n = 0;
    if (!count(r, bytes.size(), n)) return malformed("rank count");
    for (std::uint64_t i = 0; i < n; ++i) TPSCOPE_TRY(readRank(r, bytes.size(), t));
    std::uint8_t origin = 0;
    if (!r.u8(origin) || origin >= core::kTraceOriginCount) return malformed("trace origin");
    t.origin = static_cast<core::TraceOrigin>(origin);
    if (!text(r, t.source) || !count(r, bytes.size(), n)) return malformed("trailer");
    for (std::uint64_t i = 0; i < n; ++i) {
        std::string k, v;
        if (!text(r, k) || !text(r, v)) return malformed("metadata");
        t.metadata.emplace_back(std::move(k), std::move(v));
    }
    if (!r.atEnd()) return malformed("trailing bytes");
    t.finalize();
    return t;
}

std::vector<std::uint8_t> serializeProcessTrace(const ProcessTrace& part) {
    codec::Writer w;
    w.varint(kMagic);
    w.zigzag(part.process);
    w.text(part.host);
    w.zigzag(part.clockOffsetNs);
    w.text(part.error);
    w.varint(part.launchIdHash);
    const std::vector<std::uint8_t> trace = serializeTrace(part.trace);
    w.text(asText(trace));
    return asBytes(w.bytes());
}

core::Result<ProcessTrace> deserializeProcessTrace(const std::vector<std::uint8_t>& bytes) {
    codec::Reader r(asText(bytes));
    ProcessTrace part;
    std::uint64_t magic = 0;
    std::int64_t process = 0;
    std::string_view trace;
    if (!r.varint(magic) || magic != kMagic || !signedValue(r, process) || process < 0 || process > INT32_MAX ||
        !text(r, part.host) || !signedValue(r, part.clockOffsetNs) || !text(r, part.error) ||
        !r.varint(part.launchIdHash) || !r.text(trace) || !r.atEnd()) {
        return malformed("process header");
    }
    part.process = static_cast<int>(process);
    TPSCOPE_TRY_ASSIGN(part.trace, deserializeTrace(std::vector<std::uint8_t>(trace.begin(), trace.end())));
    return part;
}

}  // namespace tpscope::gpu
