// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/analysis/layer_blocks.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>
#include <string>
#include <unordered_map>

#include "core/trace/event_scan.h"

namespace tpscope::core::analysis {

std::string_view toString(BlockKind kind) {
    return kind == BlockKind::Mlp ? "mlp" : "attention";
}

std::optional<BlockKind> blockKindOfName(std::string_view name) {
    std::string lower(name);
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    auto has = [&](std::string_view part) { return lower.find(part) != std::string::npos; };
    if (has("norm")) return std::nullopt;
    if (has("attn") || has("attention")) return BlockKind::Attention;
    if (has("mlp") || has("ffn") || has("feed_forward") || has("feedforward") || has("moe") || has("expert")) {
        return BlockKind::Mlp;
    }
    return std::nullopt;
}

namespace {

// The last layer that starts at or before t (layers sorted by start), or layers.size() if none. The
// search starts at `hint` (the previous block's layer): a few steps forward for ranges in start order,
// a binary search for a jump or a range out of order.
std::size_t lastLayerStartingBy(std::span<const LayerWindow> layers, std::size_t hint, std::int64_t t) {
    if (hint < layers.size() && layers[hint].startNs <= t) {
        for (int step = 0; step < 4; ++step) {
            if (hint + 1 == layers.size() || layers[hint + 1].startNs > t) return hint;
            ++hint;
        }
    }
    auto it = std::upper_bound(layers.begin(), layers.end(), t,
                               [](std::int64_t v, const LayerWindow& l) { return v < l.startNs; });
    return it == layers.begin() ? layers.size() : static_cast<std::size_t>(it - layers.begin()) - 1;
}

}  // namespace

std::vector<BlockWindow> nvtxBlocks(const Trace& trace, const Rank& rank, std::span<const LayerWindow> layers,
                                    int depth) {
    std::vector<BlockWindow> out;
    nvtxBlocks(trace, rank, layers, depth, out);
    return out;
}

void nvtxBlocks(const Trace& trace, const Rank& rank, std::span<const LayerWindow> layers, int depth,
                std::vector<BlockWindow>& out) {
    out.clear();
    if (layers.empty()) return;
    out.reserve(2 * layers.size());
    // A few names, many ranges: the last two names looked up ("attention", "mlp") are kept at hand.
    // Kind codes: -1 not a block, else the BlockKind.
    std::unordered_map<std::uint32_t, int> kindOfName;
    std::array<std::uint32_t, 2> recentName{UINT32_MAX, UINT32_MAX};
    std::array<int, 2> recentKind{-1, -1};
    auto kindOf = [&](NameId name) {
        if (recentName[0] == name.value) return recentKind[0];
        if (recentName[1] != name.value) {
            auto it = kindOfName.find(name.value);
            if (it == kindOfName.end()) {
                const auto kind = blockKindOfName(trace.name(name));
                it = kindOfName.emplace(name.value, kind ? static_cast<int>(*kind) : -1).first;
            }
            recentName[1] = name.value;
            recentKind[1] = it->second;
        }
        std::swap(recentName[0], recentName[1]);
        std::swap(recentKind[0], recentKind[1]);
        return recentKind[0];
    };
    std::size_t cursor = 0;  // the layer of the previous block: ranges mostly come in start order
    EventScan spans(rank.ranges.columns(), EventScan::kStarts | EventScan::kDurations);
    for (std::size_t i = 0; i < rank.ranges.size(); ++i) {
        if (rank.ranges.depth(i) != depth) continue;  // the depth column first: most ranges are not blocks
        const int kind = kindOf(rank.ranges.name(i));
        if (kind < 0) continue;
        const EventScan::Event r = spans.at(i);
        cursor = lastLayerStartingBy(layers, cursor, r.startNs);
        if (cursor == layers.size()) {  // before the first layer
            cursor = 0;
            continue;
        }
        const LayerWindow& layer = layers[cursor];
        if (r.startNs >= layer.endNs) continue;  // between two layers
        out.push_back({layer.step, layer.layer, static_cast<BlockKind>(kind), r.startNs,
                       std::min(r.startNs + r.durNs, layer.endNs)});
    }
    auto byStart = [](const BlockWindow& a, const BlockWindow& b) { return a.startNs < b.startNs; };
    if (!std::is_sorted(out.begin(), out.end(), byStart)) std::stable_sort(out.begin(), out.end(), byStart);
}

DerivedBlocks splitLayersByKernelKind(std::span<const RepeatKernel> kernels, std::span<const LayerWindow> layers) {
    DerivedBlocks out;
    out.blocks.reserve(2 * layers.size());
    // Layers are in start order and do not overlap: one forward walk finds each one's kernels.
    std::size_t first = 0;
    for (const LayerWindow& l : layers) {
        while (first < kernels.size() && kernels[first].startNs < l.startNs) ++first;
        std::size_t last = first;
        std::size_t attention = kernels.size();  // the layer's last attention kernel
        for (; last < kernels.size() && kernels[last].startNs < l.endNs; ++last) {
            if (kernels[last].kind == EventKind::Attention) attention = last;
        }
        if (attention == kernels.size()) attention = last;
        std::size_t split = attention;
        while (split < last && kernels[split].kind != EventKind::Gemm) ++split;  // the output projection
        if (split < last) ++split;
        while (split < last && kernels[split].kind == EventKind::Collective) ++split;  // its all-reduce
        if (attention == last || split >= last || kernels[split].startNs <= l.startNs) {
            ++out.unsplitLayers;
            continue;
        }
        const std::int64_t at = kernels[split].startNs;
        out.blocks.push_back({l.step, l.layer, BlockKind::Attention, l.startNs, at});
        out.blocks.push_back({l.step, l.layer, BlockKind::Mlp, at, l.endNs});
    }
    return out;
}

}  // namespace tpscope::core::analysis
