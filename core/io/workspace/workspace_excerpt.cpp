// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/io/workspace/workspace_excerpt.h"

#include "core/io/codec/event_codec.h"

namespace tpscope::core {

std::string encodeExcerptTotals(const std::vector<analysis::ExcerptRankTotals>& ranks) {
    codec::Writer w;
    w.varint(ranks.size());
    w.varint(kEventKindCount);
    for (const auto& rank : ranks) {
        for (const std::uint64_t n : rank.kindCount) w.varint(n);
        w.zigzag(rank.exposedNs);
    }
    return std::move(w.bytes());
}

Status decodeExcerptTotals(std::string_view raw, std::size_t rankCount, std::vector<analysis::ExcerptRankTotals>& out) {
    out.clear();
    const auto bad = [&](const std::string& what) {
        out.clear();
        return makeError(ErrorCode::ParseError, "damaged opening excerpt: " + what);
    };
    codec::Reader r(raw);
    std::uint64_t ranks = 0, kinds = 0;
    if (!r.varint(ranks) || !r.varint(kinds)) return bad("totals cut short");
    if (ranks != rankCount) {
        return bad("totals of " + std::to_string(ranks) + " ranks for " + std::to_string(rankCount));
    }
    if (kinds > kEventKindCount) return bad("totals of " + std::to_string(kinds) + " event kinds");
    out.resize(rankCount);
    for (auto& rank : out) {
        for (std::uint64_t k = 0; k < kinds; ++k) {
            if (!r.varint(rank.kindCount[k])) return bad("totals cut short");
        }
        if (!r.zigzag(rank.exposedNs)) return bad("totals cut short");
        if (rank.exposedNs < 0) return bad("negative exposed time");
    }
    if (!r.atEnd()) return bad("bytes after the totals");
    return Ok{};
}

}  // namespace tpscope::core
