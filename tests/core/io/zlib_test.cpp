// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// The one zlib helper (core/io/codec/zlib.h): zlib and gzip output that the readers inflate, and
// every zlib failure an error instead of a short or empty blob.

#include <gtest/gtest.h>

#include <zlib.h>

#include <string>

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

}  // namespace
}  // namespace tpscope::core::codec
