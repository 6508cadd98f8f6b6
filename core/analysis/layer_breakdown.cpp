// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/analysis/layer_breakdown.h"

#include <algorithm>
#include <array>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <queue>
#include <span>
#include <tuple>

#include "core/analysis/coverage_chunks.h"
#include "core/analysis/interval_union.h"
#include "core/analysis/step_masks.h"
#include "core/util/parallel_for.h"

namespace tpscope::core::analysis {

TimeBreakdown& TimeBreakdown::operator+=(const TimeBreakdown& o) {
    wallNs += o.wallNs;
    computeNs += o.computeNs;
    commNs += o.commNs;
    exposedCommNs += o.exposedCommNs;
    overlappedCommNs += o.overlappedCommNs;
    exposedWaitNs += o.exposedWaitNs;
    exposedTransferNs += o.exposedTransferNs;
    idleNs += o.idleNs;
    return *this;
}

namespace {

constexpr std::uint32_t kCompute = 1;
constexpr std::uint32_t kComm = 2;
constexpr std::uint32_t kTransfer = 4;
// The breakdown sweeps those three lists, so masks from 8 on stay zero: sums and conversions of mask
// times (per layer and block) touch only the first eight.
constexpr std::size_t kUsedMasks = 8;
static_assert(kUsedMasks <= std::tuple_size_v<CoverageTimeline::MaskTimes>);

TimeBreakdown fromMasks(const CoverageTimeline::MaskTimes& masks, std::int64_t wallNs) {
    TimeBreakdown t;
    t.wallNs = wallNs;
    t.idleNs = masks[0];
    // Unrolled, each mask's tests are constants: no branch on the data (called per layer and block).
#pragma GCC unroll 8
    for (std::uint32_t m = 1; m < kUsedMasks; ++m) {
        const std::int64_t v = masks[m];
        const bool compute = (m & kCompute) != 0;
        const bool comm = (m & kComm) != 0;
        t.computeNs += compute ? v : 0;
        t.commNs += comm ? v : 0;
        t.exposedCommNs += comm && !compute ? v : 0;
        t.exposedTransferNs += comm && !compute && (m & kTransfer) != 0 ? v : 0;
        t.exposedWaitNs += comm && !compute && (m & kTransfer) == 0 ? v : 0;
    }
    t.overlappedCommNs = t.commNs - t.exposedCommNs;
    return t;
}

// One rank's block times summed per (layer index, block kind): dense for layer indices up to a few
// times the rank's layer count (a rank without step windows numbers every layer on), a map for the
// rare larger one (an NVTX "layer 100000"), so memory stays O(layers).
class BlockSums {
  public:
    // `layerCount`: the rank's layer windows; the dense table grows to the largest index seen.
    explicit BlockSums(std::size_t layerCount)
        : m_denseLimit(static_cast<int>(std::min<std::size_t>(4 * layerCount + 64, 1U << 30))) {}
    // Mask times are summed as they come and turned into a TimeBreakdown once, in take().
    void add(int layer, BlockKind kind, const CoverageTimeline::MaskTimes& masks, std::int64_t wallNs) {
        Acc* acc = nullptr;
        if (layer >= 0 && layer < m_denseLimit) {
            const std::size_t slot = static_cast<std::size_t>(layer) * 2 + static_cast<std::size_t>(kind);
            if (slot >= m_dense.size()) m_dense.resize(slot / 2 * 2 + 2);
            acc = &m_dense[slot];
        } else {
            acc = &m_sparse[{layer, kind}];
        }
        ++acc->samples;
        acc->wallNs += wallNs;
#pragma GCC unroll 8
        for (std::size_t m = 0; m < kUsedMasks; ++m) acc->masks[m] += masks[m];
    }
    // In (layer, block) order.
    std::vector<BlockRankSum> take(std::uint32_t rankIndex) const {
        std::vector<BlockRankSum> out;
        auto push = [&](int layer, BlockKind kind, const Acc& a) {
            if (a.samples > 0) out.push_back({rankIndex, layer, kind, a.samples, fromMasks(a.masks, a.wallNs)});
        };
        for (const auto& [key, a] : m_sparse) {
            if (key.first < 0) push(key.first, key.second, a);
        }
        for (std::size_t slot = 0; slot < m_dense.size(); ++slot) {
            push(static_cast<int>(slot / 2), static_cast<BlockKind>(slot % 2), m_dense[slot]);
        }
        for (const auto& [key, a] : m_sparse) {
            if (key.first >= 0) push(key.first, key.second, a);
        }
        return out;
    }

  private:
    int m_denseLimit = 0;
    struct Acc {
        std::size_t samples = 0;
        std::int64_t wallNs = 0;
        CoverageTimeline::MaskTimes masks{};
    };
    std::vector<Acc> m_dense;
    std::map<std::pair<int, BlockKind>, Acc> m_sparse;
};

constexpr std::size_t kMaxParts = 4;  // blocks of a layer measured in one sweep

// Whether the blocks (in start order) cover the layer's window exactly, without gaps or overlaps:
// then the layer's time is the sum of theirs.
bool partitions(std::span<const BlockWindow> blocks, const LayerWindow& l) {
    if (blocks.empty() || blocks.front().startNs != l.startNs || blocks.back().endNs != l.endNs) return false;
    for (std::size_t i = 1; i < blocks.size(); ++i) {
        if (blocks[i].startNs != blocks[i - 1].endNs) return false;
    }
    return true;
}

// One LayerAcrossRanks per layer instance of the rows, in row order.
void aggregateLayers(LayerBreakdown& out) {
    auto& layers = out.layers;
    layers.reserve(out.rows.instanceCount());
    double sum = 0;
    auto finish = [&] {
        if (!layers.empty()) layers.back().meanComputeNs = sum / layers.back().ranks;
    };
    std::uint32_t i = 0;
    for (const LayerRankRow row : out.rows) {
        const auto& t = row.time;
        if (layers.empty() || row.step != layers.back().step || row.layer != layers.back().layer) {
            finish();
            LayerAcrossRanks& agg = layers.emplace_back();
            agg.step = row.step;
            agg.layer = row.layer;
            agg.firstRow = i;
            agg.minComputeNs = t.computeNs;
            agg.maxComputeNs = t.computeNs;
            agg.slowestRankIndex = row.rankIndex;
            sum = 0;
        }
        LayerAcrossRanks& agg = layers.back();
        ++agg.ranks;
        agg.maxWallNs = std::max(agg.maxWallNs, t.wallNs);
        agg.minComputeNs = std::min(agg.minComputeNs, t.computeNs);
        if (t.computeNs > agg.maxComputeNs) {
            agg.maxComputeNs = t.computeNs;
            agg.slowestRankIndex = row.rankIndex;
        }
        sum += static_cast<double>(t.computeNs);
        ++i;
    }
    finish();
}

// Where each rank's layer rows go in LayerBreakdown::rows: the order a stable sort by (step, layer,
// rank) gives rows appended rank by rank in start order. Per rank a stable order by (step, layer)
// (usually the start order already), then a merge of the ranks, the lower rank first on ties.
// Knowing the slots up front lets each rank's task write its rows in place: no sort, no buffer.
// The merge also yields the layer instances: a new one wherever (step, layer) changes.
struct RowPlan {
    std::vector<std::vector<std::uint32_t>> slots;  // per rank, per layer window
    std::vector<LayerRows::Instance> instances;
    std::size_t rows = 0;
};

// The usual decode trace: every rank holds the same layer windows, (step, layer) strictly increasing.
// The merge then puts window i of rank r at row i * ranks + r, so the plan needs no heap and each
// rank's slots are filled (and their pages faulted) on the rank's own thread. Empty when the ranks
// differ: the general merge below decides then.
std::optional<RowPlan> sameWindowsOnEveryRank(const Segmentation& segmentation, std::size_t ranks, unsigned threads) {
    if (ranks == 0) return std::nullopt;
    const auto& first = segmentation.ranks[0].layers;
    const std::size_t n = first.size();
    for (std::size_t r = 1; r < ranks; ++r) {
        if (segmentation.ranks[r].layers.size() != n) return std::nullopt;
    }
    if (n == 0 || n * ranks > 0xFFFFFFFFU) return std::nullopt;
    RowPlan plan;
    plan.slots.resize(ranks);
    plan.instances.resize(n);
    std::vector<char> same(ranks, 1);
    parallelFor(ranks, threads, [&](std::size_t r) {
        const auto& layers = segmentation.ranks[r].layers;
        auto& slots = plan.slots[r];
        slots.resize(n);
        const auto rankCount = static_cast<std::uint32_t>(ranks);
        auto a = first.begin();
        auto b = layers.begin();
        std::int64_t previousStep = 0;
        int previousLayer = 0;
        for (std::uint32_t i = 0; i < n; ++i, ++a, ++b) {
            const LayerWindow want = *a;
            const LayerWindow have = *b;
            const bool increasing =
                i == 0 || want.step > previousStep || (want.step == previousStep && want.layer > previousLayer);
            if (have.step != want.step || have.layer != want.layer || !increasing) {
                same[r] = 0;
                return;
            }
            previousStep = want.step;
            previousLayer = want.layer;
            slots[i] = i * rankCount + static_cast<std::uint32_t>(r);
            if (r == 0) plan.instances[i] = {want.step, want.layer, i * rankCount};
        }
    });
    if (std::find(same.begin(), same.end(), 0) != same.end()) return std::nullopt;
    plan.rows = n * ranks;
    return plan;
}

RowPlan rowSlots(const Segmentation& segmentation, std::size_t rankCount, unsigned threads) {
    const std::size_t ranks = std::min(rankCount, segmentation.ranks.size());
    if (auto plan = sameWindowsOnEveryRank(segmentation, ranks, threads)) return std::move(*plan);
    std::vector<std::vector<std::uint32_t>> order(ranks);  // per rank: layer indices in (step, layer) order
    for (std::size_t r = 0; r < ranks; ++r) {
        const auto& layers = segmentation.ranks[r].layers;
        auto& o = order[r];
        o.resize(layers.size());
        for (std::uint32_t i = 0; i < o.size(); ++i) o[i] = i;
        auto before = [](const LayerWindow& x, const LayerWindow& y) {
            return x.step != y.step ? x.step < y.step : x.layer < y.layer;
        };
        // Usually in order already: each window read once to see that.
        bool inOrder = true;
        LayerWindow previous;
        for (std::size_t i = 0; i < layers.size() && inOrder; ++i) {
            const LayerWindow l = layers[i];
            inOrder = i == 0 || !before(l, previous);
            previous = l;
        }
        if (!inOrder) {
            std::stable_sort(o.begin(), o.end(),
                             [&](std::uint32_t a, std::uint32_t b) { return before(layers[a], layers[b]); });
        }
    }
    struct Head {
        std::int64_t step;
        int layer;
        std::uint32_t rank;
        bool operator>(const Head& h) const { return std::tie(step, layer, rank) > std::tie(h.step, h.layer, h.rank); }
    };
    std::priority_queue<Head, std::vector<Head>, std::greater<>> heads;
    std::vector<std::size_t> pos(ranks, 0);
    auto headOf = [&](std::size_t r) {
        const auto& l = segmentation.ranks[r].layers[order[r][pos[r]]];
        return Head{l.step, l.layer, static_cast<std::uint32_t>(r)};
    };
    for (std::size_t r = 0; r < ranks; ++r) {
        if (!order[r].empty()) heads.push(headOf(r));
    }
    RowPlan plan;
    plan.slots.resize(ranks);
    for (std::size_t r = 0; r < ranks; ++r) plan.slots[r].resize(order[r].size());
    std::uint32_t next = 0;
    while (!heads.empty()) {
        const Head head = heads.top();
        heads.pop();
        const std::uint32_t r = head.rank;
        if (plan.instances.empty() || plan.instances.back().step != head.step ||
            plan.instances.back().layer != head.layer) {
            plan.instances.push_back({head.step, head.layer, next});
        }
        plan.slots[r][order[r][pos[r]]] = next++;
        if (++pos[r] < order[r].size()) heads.push(headOf(r));
    }
    plan.rows = next;
    return plan;
}

// What one rank's task hands back beside the rows it stores.
struct RankResult {
    std::vector<LayerRows::WideRow> wide;  // rows whose times need 64 bits
    std::vector<StepRankRow> steps;
    std::vector<BlockRankSum> blockSums;
    TimeBreakdown total;
};

// Measures one rank's layers (with their blocks) and steps over its coverage, chunk by chunk
// (coverage_chunks.h): in each chunk the layers in start order in one sweep, then the steps, which
// sweep only what their layers leave uncovered (step_masks.h). Stores the layer rows at their slots.
// Returns false, keeping nothing in `result`, when a block reaches past its chunk (a block outside its
// layer's window, which layer_blocks.h does not make): the caller then measures the rank in one chunk.
bool measureRank(const Trace& trace, const RankSegmentation& seg, std::uint32_t rankIndex,
                 const CollectiveMatching& matching, std::span<const std::uint32_t> mine,
                 std::span<const CoverageChunk> chunks, std::span<const std::uint32_t> slots, LayerRows& rows,
                 RankResult& result) {
    ChunkedCoverage coverage(trace.ranks[rankIndex], matching.participants, matching.longWaits, mine);
    StepMasks stepMasks(seg.steps, seg.layers);
    BlockSums sums(seg.layers.size());
    // The blocks are read once each out of their compact list (block_windows.h): `head` is the
    // next one, `layerBlocks` the current layer's.
    auto nextBlock = seg.blocks.begin();
    std::optional<BlockWindow> head;
    auto readHead = [&] {
        head = nextBlock == seg.blocks.end() ? std::nullopt : std::optional<BlockWindow>(*nextBlock);
    };
    auto advance = [&] {
        ++nextBlock;
        readHead();
    };
    readHead();
    std::vector<BlockWindow> layerBlocks;
    result = {};
    result.steps.reserve(seg.steps.size());
    std::size_t i = 0;     // next layer
    std::size_t step = 0;  // next step
    std::int64_t chunkStart = std::numeric_limits<std::int64_t>::min();
    for (const CoverageChunk& chunk : chunks) {
        coverage.cover(chunkStart, chunk.endNs);
        chunkStart = chunk.endNs;
        const auto lists = coverage.lists();
        static_assert(std::size_t{1} << std::tuple_size_v<decltype(lists)> == kUsedMasks);
        CoverageSweep layerSweep(lists);
        for (; i < chunk.layerEnd; ++i) {
            const auto& l = seg.layers[i];
            // Blocks lie inside their layer's window and both lists are in start order: a merge walk.
            while (head && head->startNs < l.startNs) advance();  // outside every layer
            layerBlocks.clear();
            while (head && head->startNs < l.endNs && head->step == l.step && head->layer == l.layer) {
                layerBlocks.push_back(*head);
                advance();
            }
            CoverageTimeline::MaskTimes layerMasks;  // set by either branch
            if (partitions(layerBlocks, l) && layerBlocks.size() <= kMaxParts) {
                // One sweep over the layer, cut at its blocks' starts; the layer's masks are their sum.
                std::array<std::int64_t, kMaxParts> cuts;
                std::array<CoverageTimeline::MaskTimes, kMaxParts> parts;
                const std::size_t n = layerBlocks.size();
                for (std::size_t k = 1; k < n; ++k) cuts[k - 1] = layerBlocks[k].startNs;
                layerSweep.measureParts({l.startNs, l.endNs}, std::span(cuts).first(n - 1), std::span(parts).first(n));
                layerMasks = parts[0];
                for (std::size_t k = 0; k < n; ++k) {
                    const BlockWindow& w = layerBlocks[k];
                    sums.add(w.layer, w.kind, parts[k], w.endNs - w.startNs);
                    if (k > 0) {
#pragma GCC unroll 8
                        for (std::size_t m = 0; m < kUsedMasks; ++m) {
                            layerMasks[m] += parts[k][m];
                        }
                    }
                }
            } else {
                for (const BlockWindow& w : layerBlocks) {
                    if (w.endNs > chunk.endNs) return false;
                    sums.add(w.layer, w.kind, layerSweep.measure({w.startNs, w.endNs}), w.endNs - w.startNs);
                }
                layerMasks = layerSweep.measure({l.startNs, l.endNs});
            }
            const TimeBreakdown layerTime = fromMasks(layerMasks, l.endNs - l.startNs);
            stepMasks.addLayer(i, layerMasks);
            if (!rows.store(slots[i], {l.step, l.layer, rankIndex, l.startNs, layerTime})) {
                result.wide.emplace_back(slots[i], layerTime);
            }
        }
        CoverageSweep stepSweep(lists);
        for (; step < chunk.stepEnd; ++step) {
            const auto& s = seg.steps[step];
            // A step holding its layers is their sum plus the gaps between them: only the gaps are swept.
            StepRankRow row{s.key, rankIndex, s.startNs,
                            fromMasks(stepMasks.measure(step, stepSweep), s.endNs - s.startNs)};
            result.total += row.time;
            result.steps.push_back(row);
        }
    }
    result.blockSums = sums.take(rankIndex);
    return true;
}

}  // namespace

LayerBreakdown computeBreakdown(const Trace& trace, const Segmentation& segmentation,
                                const CollectiveMatching& matching, unsigned threads, std::size_t windowsPerChunk) {
    LayerBreakdown out;
    const std::size_t rankCount = trace.ranks.size();
    out.rankTotals.resize(rankCount);
    // Bucket the matched kernels by rank (counting sort keeps this linear).
    std::vector<std::size_t> offsets(rankCount + 1, 0);
    for (const auto& p : matching.participants) ++offsets[p.rankIndex + 1];
    for (std::size_t r = 0; r < rankCount; ++r) offsets[r + 1] += offsets[r];
    std::vector<std::uint32_t> byRank(matching.participants.size());
    {
        std::vector<std::size_t> fill(offsets.begin(), offsets.end() - 1);
        for (std::uint32_t i = 0; i < byRank.size(); ++i) byRank[fill[matching.participants[i].rankIndex]++] = i;
    }
    RowPlan plan = rowSlots(segmentation, rankCount, threads);
    out.rows.reset(std::move(plan.instances), plan.rows);
    const std::size_t ranks = std::min(rankCount, segmentation.ranks.size());
    std::vector<RankResult> results(ranks);
    // Ranks are independent until here: each task measures one rank over one chunk of its coverage at
    // a time (the largest temporary) and writes only that rank's rows, steps and total.
    parallelFor(ranks, threads, [&](std::size_t r) {
        const auto& seg = segmentation.ranks[r];
        if (seg.layers.empty() && seg.steps.empty()) return;
        const std::span<const std::uint32_t> mine(byRank.data() + offsets[r], offsets[r + 1] - offsets[r]);
        const auto rankIndex = static_cast<std::uint32_t>(r);
        const std::vector<CoverageChunk> chunks = planChunks(seg.steps, seg.layers, windowsPerChunk);
        if (!measureRank(trace, seg, rankIndex, matching, mine, chunks, plan.slots[r], out.rows, results[r])) {
            const CoverageChunk whole{std::numeric_limits<std::int64_t>::max(), seg.layers.size(), seg.steps.size()};
            measureRank(trace, seg, rankIndex, matching, mine, std::span(&whole, 1), plan.slots[r], out.rows,
                        results[r]);
        }
        out.rankTotals[r] = results[r].total;
    });
    // Freed before the layer instances are aggregated (4 bytes a matched kernel and a layer window:
    // 120 MB at 100 M events), so they do not add to the peak.
    std::vector<std::uint32_t>().swap(byRank);
    std::vector<std::vector<std::uint32_t>>().swap(plan.slots);
    std::vector<LayerRows::WideRow> wide;
    for (auto& res : results) wide.insert(wide.end(), res.wide.begin(), res.wide.end());
    out.rows.keepWide(std::move(wide));
    for (auto& res : results) out.steps.insert(out.steps.end(), res.steps.begin(), res.steps.end());
    for (auto& res : results) out.blockSums.insert(out.blockSums.end(), res.blockSums.begin(), res.blockSums.end());
    std::stable_sort(out.steps.begin(), out.steps.end(), [](const StepRankRow& a, const StepRankRow& b) {
        return a.step != b.step ? a.step < b.step : a.rankIndex < b.rankIndex;
    });
    aggregateLayers(out);
    return out;
}

}  // namespace tpscope::core::analysis
