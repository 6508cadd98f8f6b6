// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// The byte codecs of core/io/codec: zlib and gzip output that the readers inflate, every zlib failure
// an error instead of a short or empty blob; and the workspace's blobs (zstd.h, event_codec.h's blob
// functions): zstd frames that decompress to the same bytes, zlib streams of older workspaces still
// read, and every lie in a blob (size, damage, trailing bytes, a level out of range) an error.

#include <gtest/gtest.h>

#include <zlib.h>

#include <string>

#include "core/io/codec/event_codec.h"
#include "core/io/codec/zlib.h"
#include "core/io/import/byte_source.h"

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

TEST(Zlib, CompressedBlocksInflateToTheSameBytes) {
    const std::string raw = sample();
    for (const bool rle : {false, true}) {
        auto z = compress(raw, 6, rle);
        ASSERT_TRUE(z) << z.error().describe();
        // Repetitive text shrinks: to under a quarter with full deflate; Z_RLE only finds runs of a byte.
        EXPECT_LT(z->size(), rle ? raw.size() : raw.size() / 4);
        auto back = decompress(bytes(*z), raw.size(), raw.size(), "test");
        ASSERT_TRUE(back) << back.error().describe();
        EXPECT_EQ(*back, raw);
    }
}

TEST(Zlib, GzipOutputIsWhatTheGzipReaderInflates) {
    const std::string raw = sample();
    auto gz = gzip(raw);
    ASSERT_TRUE(gz) << gz.error().describe();
    ASSERT_GE(gz->size(), 2u);
    EXPECT_EQ(static_cast<unsigned char>((*gz)[0]), 0x1f);  // gzip magic, RFC 1952
    EXPECT_EQ(static_cast<unsigned char>((*gz)[1]), 0x8b);
    auto source = ByteSource::fromMemory(*gz, "t.gz");
    std::string back(raw.size() + 16, '\0');
    std::size_t got = 0;
    while (true) {
        auto n = source->read(back.data() + got, back.size() - got);
        ASSERT_TRUE(n) << n.error().describe();
        if (*n == 0) break;
        got += *n;
    }
    back.resize(got);
    EXPECT_EQ(back, raw);
}

TEST(Zlib, AnInvalidLevelIsAnErrorNotAnEmptyBlob) {
    auto z = compress(sample(), 42);  // deflateInit2 refuses levels outside -1..9
    ASSERT_FALSE(z);
    EXPECT_NE(z.error().message.find("deflateInit2"), std::string::npos) << z.error().message;
}

TEST(Zlib, WrongSizeOrDamagedBlocksAreCorrupt) {
    const std::string raw = sample();
    auto z = compress(raw, 6);
    ASSERT_TRUE(z);
    EXPECT_FALSE(decompress(bytes(*z), raw.size() - 1, raw.size(), "test"));  // declared size is a lie
    EXPECT_FALSE(decompress(bytes(*z), raw.size(), raw.size() - 1, "test"));  // over the caller's bound
    std::string damaged = *z;
    damaged[damaged.size() / 2] ^= 0x55;
    EXPECT_FALSE(decompress(bytes(damaged), raw.size(), raw.size(), "test"));
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
