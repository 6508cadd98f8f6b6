#pragma once
// Byte encodings of the workspace: varints, zlib blobs, and the columnar event chunk.
//
// An event chunk holds up to kChunkEvents consecutive events of one stream, column after column
// (columns of like values compress far better than rows): start as zigzag deltas from the previous
// start, duration, name id, kind (1 byte), correlation id as a zigzag delta, payload id; all LEB128
// varints, then zlib. Kernel starts a few µs apart need 2-3 bytes, repeated names and payloads 1,
// and zlib takes the repetition out: 3-6 bytes per event on disk.
// Decoding validates every length and id, so a corrupt or hostile file is an error, never a crash.
// Cost: O(events) each way.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/trace/event_columns.h"
#include "core/trace/trace.h"
#include "core/util/result.h"

namespace tpscope::core::codec {

inline constexpr std::size_t kChunkEvents = 65536;
// Largest blob we inflate: chunks are ~1-2 MB raw; names/payload tables of real traces far less.
inline constexpr std::size_t kMaxRawBytes = std::size_t{512} << 20;

class Writer {
  public:
    void u8(std::uint8_t v) { m_bytes.push_back(static_cast<char>(v)); }
    void varint(std::uint64_t v);
    void zigzag(std::int64_t v) { varint((static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63)); }
    void text(std::string_view s);
    std::string& bytes() { return m_bytes; }

  private:
    std::string m_bytes;
};

class Reader {
  public:
    explicit Reader(std::string_view bytes) : m_p(bytes.data()), m_end(bytes.data() + bytes.size()) {}
    bool u8(std::uint8_t& v);
    bool varint(std::uint64_t& v);
    bool zigzag(std::int64_t& v);
    bool text(std::string_view& s);
    bool atEnd() const { return m_p == m_end; }

  private:
    const char* m_p;
    const char* m_end;
};

std::string compress(std::string_view raw, int level);
Result<std::string> decompress(std::span<const unsigned char> blob, std::uint64_t rawBytes, const std::string& what);

// Events [first, last) of one stream.
std::string encodeEvents(const EventColumns& events, std::size_t first, std::size_t last);
// Decodes and appends to out; ids are checked against the table sizes.
Status decodeEvents(std::string_view raw, std::size_t expectedCount, std::size_t nameCount, std::size_t payloadCount,
                    EventColumns& out);

std::string encodeNames(const StringTable& names);
Status decodeNames(std::string_view raw, StringTable& out);  // out must be fresh
std::string encodePayloads(const PayloadTable& payloads);
Status decodePayloads(std::string_view raw, std::size_t nameCount, PayloadTable& out);  // out must be fresh
std::string encodeRanges(const std::vector<NvtxRange>& ranges);
Status decodeRanges(std::string_view raw, std::size_t nameCount, std::vector<NvtxRange>& out);

}  // namespace tpscope::core::codec
