// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/io/codec/zstd.h"

#include <zstd.h>

#include <algorithm>
#include <array>
#include <memory>
#include <utility>

namespace tpscope::core::codec {

namespace {

// RFC 8878 §3.1.1: the frame's magic number 0xFD2FB528, stored little-endian.
constexpr std::array<unsigned char, 4> kZstdMagic{0x28, 0xB5, 0x2F, 0xFD};
constexpr int kMaxLevel = 19;

Error zstdError(const char* step, std::size_t rc) {
    return makeError(ErrorCode::Internal, std::string("zstd ") + step + ": " + ZSTD_getErrorName(rc));
}

}  // namespace

Result<std::string> compressZstd(std::string_view raw, int level) {
    if (level < 1 || level > kMaxLevel) {
        return makeError(ErrorCode::InvalidArgument,
                         "compression level " + std::to_string(level) + " (1-" + std::to_string(kMaxLevel) + ")");
    }
    // One context per thread (the workspace compresses on several), kept for its tables' sake.
    thread_local const std::unique_ptr<ZSTD_CCtx, std::size_t (*)(ZSTD_CCtx*)> context(ZSTD_createCCtx(),
                                                                                       ZSTD_freeCCtx);
    if (!context) return makeError(ErrorCode::Internal, "zstd: out of memory for a compression context");
    // A checksum of the content in every frame (xxHash64, a small cost beside the decompression): a
    // damaged blob is an error, as the zlib streams' Adler-32 made it before.
    ZSTD_CCtx_reset(context.get(), ZSTD_reset_session_and_parameters);
    for (const auto& [param, value] : {std::pair{ZSTD_c_compressionLevel, level}, std::pair{ZSTD_c_checksumFlag, 1}}) {
        const std::size_t rc = ZSTD_CCtx_setParameter(context.get(), param, value);
        if (ZSTD_isError(rc)) return zstdError("setParameter", rc);
    }
    std::string out(ZSTD_compressBound(raw.size()), '\0');
    const std::size_t written = ZSTD_compress2(context.get(), out.data(), out.size(), raw.data(), raw.size());
    if (ZSTD_isError(written)) return zstdError("compress", written);
    out.resize(written);
    return out;
}

bool isZstdFrame(std::span<const unsigned char> blob) {
    return blob.size() >= kZstdMagic.size() && std::equal(kZstdMagic.begin(), kZstdMagic.end(), blob.begin());
}

Status decompressZstdInto(std::span<const unsigned char> blob, std::uint64_t rawBytes, std::uint64_t maxRawBytes,
                          const std::string& what, std::string& out) {
    auto corrupt = [&](const std::string& why) {
        return makeError(ErrorCode::ParseError, "corrupt workspace data (" + what + ": " + why + ")");
    };
    if (rawBytes > maxRawBytes) return corrupt("implausible size " + std::to_string(rawBytes));
    // The frame must fill the blob and declare the size the table gives: a lie in either is corrupt.
    if (ZSTD_findFrameCompressedSize(blob.data(), blob.size()) != blob.size()) return corrupt("bad compressed block");
    if (ZSTD_getFrameContentSize(blob.data(), blob.size()) != rawBytes) return corrupt("bad compressed block");
    thread_local const std::unique_ptr<ZSTD_DCtx, std::size_t (*)(ZSTD_DCtx*)> context(ZSTD_createDCtx(),
                                                                                       ZSTD_freeDCtx);
    if (!context) return makeError(ErrorCode::Internal, "zstd: out of memory for a decompression context");
    out.resize(rawBytes);
    const std::size_t got = ZSTD_decompressDCtx(context.get(), out.data(), out.size(), blob.data(), blob.size());
    if (ZSTD_isError(got) || got != rawBytes) return corrupt("bad compressed block");
    return Ok{};
}

}  // namespace tpscope::core::codec
