// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Byte encodings of the workspace: varints, compressed blobs (codec/zstd.h, codec/zlib.h), and the
// columnar event chunk.
//
// An event chunk holds up to kChunkEvents consecutive events of one stream, column after column
// (columns of like values compress far better than rows): start as zigzag deltas from the previous
// start, duration, name id, kind (1 byte), correlation id as a zigzag delta, payload id; all LEB128
// varints, then zstd (zlib before schema version 3). Kernel starts a few µs apart need 2-3 bytes,
// repeated names and payloads 1,
// and the compressor takes the repetition out: 3-6 bytes per event on disk. From schema version 4 on, a
// stream whose columns are all narrow is written in block form instead (encodeEventBlocks): its columns'
// bytes as they lie in memory, copied back on reading instead of decoded event by event (~30 % more bytes
// on disk; reading the 10 M-event workspace 7.9 G instructions instead of 21.1 G).
// Decoding validates every length and id, so a corrupt or hostile file is an error, never a crash.
// Cost: O(events) each way.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/io/codec/zlib.h"
#include "core/io/codec/zstd.h"
#include "core/trace/event_columns.h"
#include "core/trace/trace.h"
#include "core/util/result.h"

namespace tpscope::core::codec {

inline constexpr std::size_t kChunkEvents = 65536;
static_assert(kChunkEvents % EventColumns::kBlock == 0, "a chunk in block form is whole blocks");
// Largest blob we inflate: chunks are ~1-2 MB raw; names/payload tables of real traces far less.
inline constexpr std::size_t kMaxRawBytes = std::size_t{512} << 20;

class Writer {
  public:
    void u8(std::uint8_t v) { m_bytes.push_back(static_cast<char>(v)); }
    void varint(std::uint64_t v) {
        while (v >= 0x80) {
            m_bytes.push_back(static_cast<char>((v & 0x7F) | 0x80));
            v >>= 7;
        }
        m_bytes.push_back(static_cast<char>(v));
    }
    void zigzag(std::int64_t v) { varint((static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63)); }
    void text(std::string_view s) {
        varint(s.size());
        m_bytes.append(s);
    }
    std::string& bytes() { return m_bytes; }

  private:
    std::string m_bytes;
};

class Reader {
  public:
    explicit Reader(std::string_view bytes) : m_p(bytes.data()), m_end(bytes.data() + bytes.size()) {}
    // Inline: these run once per column value when a workspace loads.
    bool u8(std::uint8_t& v) {
        if (m_p == m_end) return false;
        v = static_cast<std::uint8_t>(*m_p++);
        return true;
    }
    bool varint(std::uint64_t& v) {
        if (m_p != m_end && (static_cast<std::uint8_t>(*m_p) & 0x80) == 0) {  // one byte: the common case
            v = static_cast<std::uint8_t>(*m_p++);
            return true;
        }
        v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (m_p == m_end) return false;
            const auto b = static_cast<std::uint8_t>(*m_p++);
            v |= static_cast<std::uint64_t>(b & 0x7F) << shift;
            if ((b & 0x80) == 0) return true;
        }
        return false;
    }
    bool zigzag(std::int64_t& v) {
        std::uint64_t u = 0;
        if (!varint(u)) return false;
        v = static_cast<std::int64_t>(u >> 1) ^ -static_cast<std::int64_t>(u & 1);
        return true;
    }
    bool text(std::string_view& s) {
        std::uint64_t n = 0;
        if (!varint(n) || n > static_cast<std::uint64_t>(m_end - m_p)) return false;
        s = std::string_view(m_p, n);
        m_p += n;
        return true;
    }
    bool atEnd() const { return m_p == m_end; }
    std::size_t remaining() const { return static_cast<std::size_t>(m_end - m_p); }

  private:
    const char* m_p;
    const char* m_end;
};

// A workspace blob is a zstd frame (schema version 3 on, codec/zstd.h) or a zlib stream (versions 1
// and 2, codec/zlib.h), told apart by its first bytes; it decompresses to at most kMaxRawBytes.
inline Result<std::string> compressBlob(std::string_view raw, int level) {
    return compressZstd(raw, level);
}
inline Status decompressInto(std::span<const unsigned char> blob, std::uint64_t rawBytes, const std::string& what,
                             std::string& out) {
    return isZstdFrame(blob) ? decompressZstdInto(blob, rawBytes, kMaxRawBytes, what, out)
                             : decompressInto(blob, rawBytes, kMaxRawBytes, what, out);
}
inline Result<std::string> decompress(std::span<const unsigned char> blob, std::uint64_t rawBytes,
                                      const std::string& what) {
    std::string out;
    TPSCOPE_TRY(decompressInto(blob, rawBytes, what, out));
    return out;
}

// Events [first, last) of one stream, in the varint form above.
std::string encodeEvents(const EventColumns& events, std::size_t first, std::size_t last);
// The same in block form (schema version 4 on; EventColumns::writeBlockForm, which describes it): the
// columns' blocks as they lie in memory, which a reader copies instead of decoding every event, after one
// byte 0 (a varint chunk opens with its event count, and one of 0 events is that byte alone). For a stream
// with EventColumns::hasBlockForm(), first a multiple of EventColumns::kBlock, last too or the stream's
// end; labels [labelsFrom, labelsTo) those the chunks before do not carry (EventColumns::labelsReached).
std::string encodeEventBlocks(const EventColumns& events, std::size_t first, std::size_t last, std::size_t labelsFrom,
                              std::size_t labelsTo);

// One decoding thread's buffers, reused from chunk to chunk: a chunk's columns are decoded here and
// appended to the stream column by column (EventBatch). Reused, they cost no fresh pages per chunk.
struct EventChunkScratch {
    std::string raw;  // the inflated chunk, for callers that inflate into it
    std::vector<std::int64_t> startNs, durNs;
    std::vector<std::uint32_t> nameIds, correlationIds;
    std::vector<std::uint8_t> kinds;
    std::vector<PayloadId> payloads;
};

// Decodes a chunk of either form and appends it to out; ids are checked against the table sizes. On an
// error, out is unchanged (varint form) or to be dropped (block form).
Status decodeEvents(std::string_view raw, std::size_t expectedCount, std::size_t nameCount, std::size_t payloadCount,
                    EventColumns& out, EventChunkScratch& scratch);
Status decodeEvents(std::string_view raw, std::size_t expectedCount, std::size_t nameCount, std::size_t payloadCount,
                    EventColumns& out);

std::string encodeNames(const StringTable& names);
Status decodeNames(std::string_view raw, StringTable& out);  // out must be fresh
std::string encodePayloads(const PayloadTable& payloads);
Status decodePayloads(std::string_view raw, std::size_t nameCount, PayloadTable& out);  // out must be fresh
std::string encodeRanges(const NvtxRanges& ranges);
Status decodeRanges(std::string_view raw, std::size_t nameCount, NvtxRanges& out);  // appends; call out.finalize()

}  // namespace tpscope::core::codec
