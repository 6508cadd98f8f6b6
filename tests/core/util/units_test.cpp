// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/util/units.h"

#include <gtest/gtest.h>

#include <clocale>
#include <cstdio>
#include <string>

namespace tpscope::core {
namespace {

TEST(Units, ByteSizesUseBinarySuffixesLikeNcclTests) {
    EXPECT_EQ(*parseByteSize("8"), 8u);
    EXPECT_EQ(*parseByteSize("1K"), 1024u);
    EXPECT_EQ(*parseByteSize("64M"), 64u * 1024 * 1024);
    EXPECT_EQ(*parseByteSize("1G"), 1024u * 1024 * 1024);
    EXPECT_EQ(*parseByteSize("2KB"), 2048u);
    EXPECT_EQ(*parseByteSize(" 3k "), 3072u);
}

TEST(Units, BadByteSizesAreRejectedWithTheText) {
    for (const char* bad : {"", "K", "12X", "1.5M", "-4", "1KK"}) {
        const auto r = parseByteSize(bad);
        ASSERT_FALSE(r.ok()) << bad;
        EXPECT_EQ(r.error().context, bad);
    }
    EXPECT_FALSE(parseByteSize("99999999999T").ok()) << "overflow";
}

TEST(Units, SizeListsParseEveryItem) {
    const auto r = parseByteSizeList("8,1K,1M");
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(*r, (std::vector<std::uint64_t>{8, 1024, 1048576}));
    EXPECT_FALSE(parseByteSizeList("8,,1K").ok());
}

TEST(Units, PositiveIntListsRejectZeroAndJunk) {
    EXPECT_EQ(*parsePositiveIntList("1,2,4,8", "tp"), (std::vector<int>{1, 2, 4, 8}));
    EXPECT_FALSE(parsePositiveIntList("1,0", "tp").ok());
    EXPECT_FALSE(parsePositiveIntList("2,x", "tp").ok());
    EXPECT_FALSE(parsePositiveIntList("", "tp").ok());
    EXPECT_NE(parsePositiveIntList("-1", "tp").error().message.find("positive"), std::string::npos);
}

TEST(Units, FormattingPicksReadableUnits) {
    EXPECT_EQ(formatBytes(512), "512 B");
    EXPECT_EQ(formatBytes(24576), "24.0 KiB");
    EXPECT_EQ(formatDurationNs(812), "812 ns");
    EXPECT_EQ(formatDurationNs(12'400), "12.4 us");
    EXPECT_EQ(formatDurationNs(15'200'000), "15.2 ms");
    EXPECT_EQ(formatDurationNs(1'200'000'000), "1.20 s");
    // The GUI's spelling: fixed decimals per unit and the micro sign (U+00B5, UTF-8 C2 B5).
    EXPECT_EQ(formatDurationNs(812, DurationStyle::Detail), "812 ns");
    EXPECT_EQ(formatDurationNs(12'410, DurationStyle::Detail), "12.41 \xC2\xB5s");
    EXPECT_EQ(formatDurationNs(15'203'000, DurationStyle::Detail), "15.203 ms");
    EXPECT_EQ(formatDurationNs(1'200'000'000, DurationStyle::Detail), "1.2000 s");
    // The GUI's axes and chart tables: Compact's digits, the micro sign instead of ASCII "us".
    EXPECT_EQ(formatDurationNs(812, DurationStyle::Display), "812 ns");
    EXPECT_EQ(formatDurationNs(12'400, DurationStyle::Display), "12.4 \xC2\xB5s");
    EXPECT_EQ(formatDurationNs(-3'250, DurationStyle::Display), "-3.25 \xC2\xB5s");
    EXPECT_EQ(formatDurationNs(15'200'000, DurationStyle::Display), "15.2 ms");
    EXPECT_EQ(formatDurationNs(1'200'000'000, DurationStyle::Display), "1.20 s");
}

// The GUI runs under the user's locale (QApplication calls setlocale): a comma-decimal locale must
// not turn "12.41" into "12,41" (printf follows LC_NUMERIC; to_chars does not).
TEST(Units, DurationsPrintTheSameUnderACommaDecimalLocale) {
    const std::string previous = std::setlocale(LC_NUMERIC, nullptr);
    if (std::setlocale(LC_NUMERIC, "de_DE.UTF-8") == nullptr && std::setlocale(LC_NUMERIC, "de_DE.utf8") == nullptr)
        GTEST_SKIP() << "no de_DE locale installed (locale-gen de_DE.UTF-8)";
    const std::string detail = formatDurationNs(12'410, DurationStyle::Detail);
    const std::string compact = formatDurationNs(15'200'000);
    std::setlocale(LC_NUMERIC, previous.c_str());
    EXPECT_EQ(detail, "12.41 \xC2\xB5s");
    EXPECT_EQ(compact, "15.2 ms");
}

TEST(Units, SiPrefixesDollarsAndPercentsForAxes) {
    EXPECT_EQ(formatSi(812, "tokens/s"), "812 tokens/s");
    EXPECT_EQ(formatSi(12'300, "B/s"), "12.3 kB/s");
    EXPECT_EQ(formatSi(1'500, ""), "1.50 k");
    EXPECT_EQ(formatSi(2.5e9, "B/s"), "2.50 GB/s");
    EXPECT_EQ(formatSi(0, ""), "0");
    EXPECT_EQ(formatDollars(0.4249), "$0.42");
    EXPECT_EQ(formatDollars(12.54), "$12.5");
    EXPECT_EQ(formatDollars(1234.4), "$1234");
    EXPECT_EQ(formatPercent(0.853), "85 %");
    EXPECT_EQ(formatPercent(0.042), "4.2 %");
    EXPECT_EQ(formatPercent(1.0), "100 %");
}

TEST(Units, ShortestTextRoundTripsAndParsingTakesOnlyWholeNumbers) {
    for (const double x : {0.0, 2.5, 1.0 / 3.0, -1e-9, 6.02e23}) {
        double back = 0;
        ASSERT_TRUE(parseDouble(formatShortest(x), back)) << formatShortest(x);
        EXPECT_EQ(back, x);
    }
    double v = 7;
    EXPECT_TRUE(parseDouble(" +3.25 ", v));
    EXPECT_EQ(v, 3.25);
    for (const char* bad : {"", " ", "3.2x", "x", "1e999", "nan", "2,5"}) {
        double w = 7;
        EXPECT_FALSE(parseDouble(bad, w)) << bad;
        EXPECT_EQ(w, 7) << "a failed parse leaves the value alone";
    }
}

// A GUI process runs with the user's LC_NUMERIC (Qt calls setlocale(LC_ALL, "")); printf-style
// formatting would then write "2,50". The formatters must not follow it.
TEST(Units, NumbersUseAPointUnderACommaDecimalLocale) {
    const char* previous = std::setlocale(LC_NUMERIC, nullptr);
    const std::string saved = previous ? previous : "C";
    bool switched = false;
    for (const char* name : {"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "C.UTF-8@comma-test"}) {
        if (std::setlocale(LC_NUMERIC, name) != nullptr) {
            switched = true;
            break;
        }
    }
    if (!switched) GTEST_SKIP() << "no comma-decimal locale installed (locales package: de_DE.UTF-8)";
    char probe[16];
    std::snprintf(probe, sizeof probe, "%.1f", 2.5);
    EXPECT_STREQ(probe, "2,5") << "the locale in force must really use a comma for this test to mean anything";
    EXPECT_EQ(formatFixed(2.5, 2), "2.50");
    EXPECT_EQ(formatDurationNs(12'400), "12.4 us");
    EXPECT_EQ(formatDollars(3.25), "$3.25");
    EXPECT_EQ(formatSi(12'300, "B/s"), "12.3 kB/s");
    EXPECT_EQ(formatShortest(2.5), "2.5");
    double v = 0;
    EXPECT_TRUE(parseDouble("2.5", v));
    EXPECT_EQ(v, 2.5);
    EXPECT_FALSE(parseDouble("2,5", v));
    std::setlocale(LC_NUMERIC, saved.c_str());
}

}  // namespace
}  // namespace tpscope::core
