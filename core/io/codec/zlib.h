// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The one zlib helper of tpscope: deflate to a zlib or gzip stream, and inflate a zlib stream of a
// known size. Every zlib return code is checked, so a failure (out of memory, a bad level) is an
// error instead of a silently short or empty blob. The inflate of a whole block is libdeflate's
// (the same zlib format, checksum checked, about twice zlib's speed): it reads the blobs of
// workspaces of schema versions 1-2 (from version 3 on they are zstd frames, codec/zstd.h). Streaming gzip input and
// output (large traces) live in byte_source.h and output_file.h, which keep one block in memory at a time. Cost:
// O(bytes); the output is allocated once at deflateBound / the declared size.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "core/util/result.h"

namespace tpscope::core::codec {

enum class ZlibWrapper { Zlib, Gzip };

// `runLengthOnly` (Z_RLE) finds only runs of equal bytes: about twice as fast as level 1 on event
// chunks for ~20% more bytes; any zlib reader inflates both.
Result<std::string> compress(std::string_view raw, int level, bool runLengthOnly = false,
                             ZlibWrapper wrapper = ZlibWrapper::Zlib);
// A .gz file's bytes (one gzip member).
Result<std::string> gzip(std::string_view raw, int level = 6);
// A zlib stream that must inflate to exactly rawBytes (at most maxRawBytes); anything else is corrupt.
Result<std::string> decompress(std::span<const unsigned char> blob, std::uint64_t rawBytes, std::uint64_t maxRawBytes,
                               const std::string& what);
// The same into `out`, whose capacity is reused (one buffer for many blocks: no fresh pages each time).
Status decompressInto(std::span<const unsigned char> blob, std::uint64_t rawBytes, std::uint64_t maxRawBytes,
                      const std::string& what, std::string& out);

}  // namespace tpscope::core::codec
