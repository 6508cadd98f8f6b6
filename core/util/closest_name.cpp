// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/util/closest_name.h"

#include <algorithm>

namespace tpscope::core {

namespace {

std::size_t editDistance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

}  // namespace

std::string closestName(std::string_view typed, const std::vector<std::string>& known) {
    std::string best;
    std::size_t bestDistance = std::max<std::size_t>(2, typed.size() / 3) + 1;
    for (const auto& k : known) {
        const std::size_t d = editDistance(typed, k);
        if (d < bestDistance) {
            bestDistance = d;
            best = k;
        }
    }
    if (!best.empty()) return best;
    const std::size_t first = typed.find_first_not_of('-');
    const std::string_view bare = first == std::string_view::npos ? std::string_view{} : typed.substr(first);
    for (const auto& k : known) {
        if (bare.size() >= 3 && k.find(bare) != std::string::npos) return k;
    }
    return {};
}

}  // namespace tpscope::core
