// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/util/units.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>

namespace tpscope::core {

namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

template <typename F>
void forEachItem(std::string_view text, F&& f) {
    std::size_t pos = 0;
    while (pos <= text.size()) {
        const std::size_t comma = text.find(',', pos);
        const std::size_t end = comma == std::string_view::npos ? text.size() : comma;
        f(trim(text.substr(pos, end - pos)));
        if (comma == std::string_view::npos) break;
        pos = comma + 1;
    }
}

}  // namespace

Result<std::uint64_t> parseByteSize(std::string_view text) {
    const std::string_view s = trim(text);
    std::uint64_t number = 0;
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), number);
    if (ec != std::errc() || ptr == s.data()) {
        return makeError(ErrorCode::InvalidArgument, "expected a size such as 8, 1K, 64M or 1G", std::string(text));
    }
    std::string_view suffix = s.substr(static_cast<std::size_t>(ptr - s.data()));
    if (!suffix.empty() && (suffix.back() == 'B' || suffix.back() == 'b')) suffix.remove_suffix(1);
    if (suffix.size() > 1) {
        return makeError(ErrorCode::InvalidArgument, "unknown size suffix (use K, M, G or T)", std::string(text));
    }
    int shift = 0;
    if (!suffix.empty()) {
        switch (suffix.front()) {
            case 'k':
            case 'K':
                shift = 10;
                break;
            case 'm':
            case 'M':
                shift = 20;
                break;
            case 'g':
            case 'G':
                shift = 30;
                break;
            case 't':
            case 'T':
                shift = 40;
                break;
            default:
                return makeError(ErrorCode::InvalidArgument, "unknown size suffix (use K, M, G or T)",
                                 std::string(text));
        }
    }
    if (shift > 0 && number > (std::numeric_limits<std::uint64_t>::max() >> shift)) {
        return makeError(ErrorCode::InvalidArgument, "size too large", std::string(text));
    }
    return number << shift;
}

Result<std::vector<std::uint64_t>> parseByteSizeList(std::string_view text) {
    std::vector<std::uint64_t> sizes;
    Error firstError;
    bool failed = false;
    forEachItem(text, [&](std::string_view item) {
        if (failed) return;
        auto size = parseByteSize(item);
        if (!size) {
            failed = true;
            firstError = size.error();
            return;
        }
        sizes.push_back(*size);
    });
    if (failed) return firstError;
    if (sizes.empty()) return makeError(ErrorCode::InvalidArgument, "empty size list");
    return sizes;
}

Result<std::vector<int>> parsePositiveIntList(std::string_view text, std::string_view what) {
    std::vector<int> values;
    bool failed = false;
    std::string bad;
    forEachItem(text, [&](std::string_view item) {
        if (failed) return;
        int v = 0;
        const auto [ptr, ec] = std::from_chars(item.data(), item.data() + item.size(), v);
        if (ec != std::errc() || ptr != item.data() + item.size() || v <= 0) {
            failed = true;
            bad = std::string(item);
            return;
        }
        values.push_back(v);
    });
    if (failed || values.empty()) {
        return makeError(ErrorCode::InvalidArgument,
                         "expected a comma-separated list of positive integers, got '" + bad + "'", std::string(what));
    }
    return values;
}

std::string formatShortest(double v) {
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, r.ptr);
}

bool parseDouble(std::string_view text, double& out) {
    text = trim(text);
    if (!text.empty() && text.front() == '+') text.remove_prefix(1);
    if (text.empty()) return false;
    double v = 0;
    const auto r = std::from_chars(text.data(), text.data() + text.size(), v);
    if (r.ec != std::errc() || r.ptr != text.data() + text.size() || !std::isfinite(v)) return false;
    out = v;
    return true;
}

std::string formatFixed(double v, int decimals) {
    // to_chars, not snprintf: printf follows LC_NUMERIC, and the GUI runs under the user's locale.
    std::array<char, 400> buf{};  // the longest fixed double (1.8e308) with a few decimals
    char* const end = buf.data() + buf.size();
    auto r = std::to_chars(buf.data(), end, v, std::chars_format::fixed, decimals);
    if (r.ec != std::errc()) r = std::to_chars(buf.data(), end, v, std::chars_format::general);
    return {buf.data(), r.ptr};
}

std::string formatSi(double v, std::string_view unit) {
    static constexpr const char* kPrefix[] = {"", "k", "M", "G", "T"};
    int p = 0;
    double x = v;
    while (std::fabs(x) >= 999.5 && p < 4) {
        x /= 1000.0;
        ++p;
    }
    const double a = std::fabs(x);
    const bool whole = x == std::floor(x);
    const int decimals = whole ? 0 : a < 10 ? 2 : a < 100 ? 1 : 0;
    std::string suffix = std::string(kPrefix[p]) + std::string(unit);
    return suffix.empty() ? formatFixed(x, decimals) : formatFixed(x, decimals) + " " + suffix;
}

std::string formatDollars(double dollars) {
    const double a = std::fabs(dollars);
    return (dollars < 0 ? "-$" : "$") + formatFixed(a, a < 10 ? 2 : a < 100 ? 1 : 0);
}

std::string formatPercent(double fraction) {
    const double pct = fraction * 100.0;
    return formatFixed(pct, std::fabs(pct) < 10 && pct != std::floor(pct) ? 1 : 0) + " %";
}

std::string formatBytes(double bytes) {
    static constexpr const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int unit = 0;
    double v = bytes;
    while (std::fabs(v) >= 1024.0 && unit < 4) {
        v /= 1024.0;
        ++unit;
    }
    return formatFixed(v, unit == 0 ? 0 : (std::fabs(v) < 10 ? 2 : 1)) + " " + kUnits[unit];
}

std::string formatDurationNs(double ns, DurationStyle style) {
    const double a = std::fabs(ns);
    if (style == DurationStyle::Detail) {
        if (a < 1e3) return formatFixed(ns, 0) + " ns";
        if (a < 1e6) return formatFixed(ns / 1e3, 2) + " \u00b5s";  // µs
        if (a < 1e9) return formatFixed(ns / 1e6, 3) + " ms";
        return formatFixed(ns / 1e9, 4) + " s";
    }
    // Compact and Display share their digits; only the microsecond unit is spelled differently.
    const char* micro = style == DurationStyle::Display ? " \u00b5s" : " us";
    if (a < 1e3) return formatFixed(ns, 0) + " ns";
    if (a < 1e6) return formatFixed(ns / 1e3, a < 1e4 ? 2 : 1) + micro;
    if (a < 1e9) return formatFixed(ns / 1e6, a < 1e7 ? 2 : 1) + " ms";
    return formatFixed(ns / 1e9, 2) + " s";
}

}  // namespace tpscope::core
