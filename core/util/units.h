// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Parsing and printing of sizes, durations and lists as users type them on the command line.
// Sizes follow nccl-tests: K/M/G/T are powers of 1024 ("8,1K,1M" -> 8, 1024, 1048576).

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/util/result.h"

namespace tpscope::core {

Result<std::uint64_t> parseByteSize(std::string_view text);
Result<std::vector<std::uint64_t>> parseByteSizeList(std::string_view text);
// "1,2,4,8" -> {1,2,4,8}; every entry must be a positive integer.
Result<std::vector<int>> parsePositiveIntList(std::string_view text, std::string_view what);

std::string formatBytes(double bytes);  // "24.0 KiB", "35.3 GB" style: binary units
// One duration formatter for every view. Compact: 3 significant digits with ASCII "us" (CLI tables,
// CSV-adjacent text, anything that must stay ASCII): "812 ns", "12.4 us", "15.2 ms", "1.20 s".
// Detail: fixed decimals per unit with "µs" (the GUI's tooltips, tables and event details):
// "812 ns", "12.41 µs", "15.203 ms", "1.2000 s".
// Display: Compact's digits with "µs" (the GUI's chart axes, chart tables and report pages, where
// the text is read by people and need not stay ASCII): "812 ns", "12.4 µs", "15.2 ms", "1.20 s".
enum class DurationStyle { Compact, Detail, Display };
std::string formatDurationNs(double ns, DurationStyle style = DurationStyle::Compact);
// Locale-proof number text for files and settings: the shortest text that reads back to the same
// double, and a parse of a whole string (surrounding spaces allowed; nothing else; finite only).
std::string formatShortest(double v);
bool parseDouble(std::string_view text, double& out);
// Always '.' as the decimal point, whatever the process locale (a Qt GUI sets LC_NUMERIC from the user's).
std::string formatFixed(double v, int decimals);
// SI prefixes, about 3 significant digits: (812, "tokens/s") -> "812 tokens/s", (1.23e4, "B/s") -> "12.3 kB/s",
// (1500, "") -> "1.50 k"; whole numbers below 1000 print without decimals.
std::string formatSi(double v, std::string_view unit);
std::string formatDollars(double dollars);   // "$0.42", "$12.5", "$1234"
std::string formatPercent(double fraction);  // 0.853 -> "85.3 %" (one decimal below 10 %: "4.2 %")

}  // namespace tpscope::core
