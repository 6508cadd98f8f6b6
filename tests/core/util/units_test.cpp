#include "core/util/units.h"

#include <gtest/gtest.h>

#include <clocale>
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

}  // namespace
}  // namespace tpscope::core
