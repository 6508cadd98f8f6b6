// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// The workspace's blob codec (core/io/codec/zstd.h, event_codec.h's blob functions): zstd frames
// that decompress to the same bytes, zlib streams of older workspaces still read, and every lie in a
// blob (size, damage, trailing bytes, a level out of range) an error instead of wrong bytes.

#include <gtest/gtest.h>

#include <string>

#include "core/io/codec/event_codec.h"

namespace tpscope::core::codec {
namespace {

std::string sample() {
    std::string s;
    for (int i = 0; i < 5000; ++i) s += "kernel " + std::to_string(i % 37) + ",";
    return s;
}

std::span<const unsigned char> bytes(const std::string& s) {
    return {reinterpret_cast<const unsigned char*>(s.data()), s.size()};
}

TEST(Zstd, BlobsAreZstdFramesThatDecompressToTheSameBytes) {
    const std::string raw = sample();
    for (const int level : {1, 3, 19}) {
        auto z = compressBlob(raw, level);
        ASSERT_TRUE(z) << z.error().describe();
        EXPECT_TRUE(isZstdFrame(bytes(*z)));
        EXPECT_LT(z->size(), raw.size() / 4) << level;  // repetitive text shrinks
        auto back = decompress(bytes(*z), raw.size(), "test");
        ASSERT_TRUE(back) << back.error().describe();
        EXPECT_EQ(*back, raw);
    }
    for (const int level : {0, 20}) {
        auto z = compressBlob(raw, level);
        ASSERT_FALSE(z) << level;
        EXPECT_EQ(z.error().code, ErrorCode::InvalidArgument);
    }
}

// Workspaces of schema versions 1-2 hold zlib streams: the same call reads them, by their first bytes.
TEST(Zstd, ZlibBlobsOfOlderWorkspacesStillDecompress) {
    const std::string raw = sample();
    auto z = compress(raw, 6);
    ASSERT_TRUE(z);
    EXPECT_FALSE(isZstdFrame(bytes(*z)));
    auto back = decompress(bytes(*z), raw.size(), "test");
    ASSERT_TRUE(back) << back.error().describe();
    EXPECT_EQ(*back, raw);
}

TEST(Zstd, EmptyBlocksRoundTrip) {
    auto z = compressBlob("", 1);
    ASSERT_TRUE(z) << z.error().describe();
    auto back = decompress(bytes(*z), 0, "test");
    ASSERT_TRUE(back) << back.error().describe();
    EXPECT_TRUE(back->empty());
}

TEST(Zstd, WrongSizeDamageOrTrailingBytesAreCorrupt) {
    const std::string raw = sample();
    auto z = compressBlob(raw, 1);
    ASSERT_TRUE(z);
    auto expectCorrupt = [&](const std::string& blob, std::uint64_t declared, std::uint64_t bound, const char* why) {
        std::string out;
        const Status s = decompressZstdInto(bytes(blob), declared, bound, "test", out);
        ASSERT_FALSE(s) << why;
        EXPECT_EQ(s.error().code, ErrorCode::ParseError) << why;
        EXPECT_NE(s.error().message.find("corrupt workspace data (test"), std::string::npos) << s.error().message;
    };
    expectCorrupt(*z, raw.size() - 1, raw.size(), "declared size too small");
    expectCorrupt(*z, raw.size() + 1, raw.size() + 1, "declared size too large");
    expectCorrupt(*z, raw.size(), raw.size() - 1, "over the caller's bound");
    expectCorrupt(*z + "x", raw.size(), raw.size(), "trailing bytes");
    expectCorrupt(z->substr(0, z->size() - 1), raw.size(), raw.size(), "truncated");
    std::string damaged = *z;
    damaged[damaged.size() / 2] ^= 0x55;  // the content checksum catches it
    expectCorrupt(damaged, raw.size(), raw.size(), "damaged");
    expectCorrupt(z->substr(0, 4), raw.size(), raw.size(), "magic only");
}

}  // namespace
}  // namespace tpscope::core::codec
