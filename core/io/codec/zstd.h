// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The workspace's blobs from schema version 3 on: one zstd frame each (RFC 8878), written at a low
// level. On decode-trace event chunks zstd level 1 compresses as well as libdeflate's zlib level 1
// (3.0x against 3.2x) and decompresses about four times as fast (3.1 GB/s against 0.7 GB/s a core,
// docs/PERFORMANCE.md "Workspace"): the inflate was a third of a 100 M-event workspace's read.
// A zstd frame opens with the magic bytes 28 B5 2F FD, which no zlib stream starts with (a zlib
// header's two bytes are a multiple of 31 read big-endian; 0x28B5 is not), so a reader tells the two
// apart by the first four bytes and older workspaces keep opening.
// Every size is checked against the frame's header and the caller's bound before anything is
// allocated, so a corrupt or hostile blob is an error, never a crash or a huge allocation.
// Cost: O(bytes); one compression and one decompression context per thread, made on first use.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "core/util/result.h"

namespace tpscope::core::codec {

// zstd levels 1-19 (higher: smaller and slower to write; reading speed barely changes).
Result<std::string> compressZstd(std::string_view raw, int level);
// True when blob starts with a zstd frame's magic number.
bool isZstdFrame(std::span<const unsigned char> blob);
// One zstd frame that must decompress to exactly rawBytes (at most maxRawBytes) and fill the blob to
// its end; anything else is corrupt. out's capacity is reused.
Status decompressZstdInto(std::span<const unsigned char> blob, std::uint64_t rawBytes, std::uint64_t maxRawBytes,
                          const std::string& what, std::string& out);

}  // namespace tpscope::core::codec
