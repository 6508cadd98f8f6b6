// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/io/codec/zlib.h"

#include <libdeflate.h>
#include <zlib.h>

#include <limits>
#include <memory>

namespace tpscope::core::codec {

namespace {

Error zlibError(const char* step, int rc) {
    const char* why = rc == Z_MEM_ERROR ? "out of memory" : (rc == Z_STREAM_ERROR ? "bad parameters" : "failed");
    return makeError(ErrorCode::Internal,
                     std::string("zlib ") + step + " " + why + " (code " + std::to_string(rc) + ")");
}

}  // namespace

Result<std::string> compress(std::string_view raw, int level, bool runLengthOnly, ZlibWrapper wrapper) {
    // One deflate call takes at most uInt bytes; blobs here are a few MB, so larger is a caller bug.
    if (raw.size() > std::numeric_limits<uInt>::max()) {
        return makeError(ErrorCode::InvalidArgument, "block too large to compress: " + std::to_string(raw.size()));
    }
    z_stream z{};
    const int windowBits = wrapper == ZlibWrapper::Gzip ? 15 + 16 : 15;  // +16: gzip header and trailer
    int rc = deflateInit2(&z, level, Z_DEFLATED, windowBits, 8, runLengthOnly ? Z_RLE : Z_DEFAULT_STRATEGY);
    if (rc != Z_OK) return zlibError("deflateInit2", rc);
    std::string out(deflateBound(&z, static_cast<uLong>(raw.size())), '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(raw.data()));
    z.avail_in = static_cast<uInt>(raw.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    rc = deflate(&z, Z_FINISH);
    out.resize(z.total_out);
    const int endRc = deflateEnd(&z);
    if (rc != Z_STREAM_END) return zlibError("deflate", rc);  // deflateBound guarantees room for all of it
    if (endRc != Z_OK) return zlibError("deflateEnd", endRc);
    return out;
}

Result<std::string> gzip(std::string_view raw, int level) {
    return compress(raw, level, false, ZlibWrapper::Gzip);
}

Status decompressInto(std::span<const unsigned char> blob, std::uint64_t rawBytes, std::uint64_t maxRawBytes,
                      const std::string& what, std::string& out) {
    auto corrupt = [&](const std::string& why) {
        return makeError(ErrorCode::ParseError, "corrupt workspace data (" + what + ": " + why + ")");
    };
    if (rawBytes > maxRawBytes) return corrupt("implausible size " + std::to_string(rawBytes));
    // One decompressor per thread (the workspace decodes streams on several), made on first use.
    thread_local const std::unique_ptr<libdeflate_decompressor, void (*)(libdeflate_decompressor*)> inflater(
        libdeflate_alloc_decompressor(), libdeflate_free_decompressor);
    if (!inflater) return makeError(ErrorCode::Internal, "libdeflate: out of memory for a decompressor");
    out.resize(rawBytes);
    // No actual-size argument: anything but exactly rawBytes is an error (LIBDEFLATE_SHORT_OUTPUT).
    const libdeflate_result rc =
        libdeflate_zlib_decompress(inflater.get(), blob.data(), blob.size(), out.data(), out.size(), nullptr);
    if (rc != LIBDEFLATE_SUCCESS) return corrupt("bad compressed block");
    return Ok{};
}

Result<std::string> decompress(std::span<const unsigned char> blob, std::uint64_t rawBytes, std::uint64_t maxRawBytes,
                               const std::string& what) {
    std::string out;
    TPSCOPE_TRY(decompressInto(blob, rawBytes, maxRawBytes, what, out));
    return out;
}

}  // namespace tpscope::core::codec
