#include "core/analysis/layer_breakdown.h"

#include <algorithm>
#include <array>
#include <span>

#include "core/analysis/interval_union.h"

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

// The three coverage lists of one rank: compute, comm, and the transfer part of comm.
CoverageTimeline rankCoverage(const Rank& rank, std::span<const CallParticipant* const> mine) {
    std::vector<Interval> compute;
    std::vector<Interval> comm;
    std::vector<Interval> scratchCompute;
    std::vector<Interval> scratchComm;
    for (const auto& stream : rank.streams) {
        const auto& ev = stream.events;
        const auto starts = ev.starts();
        const auto kinds = ev.kinds();
        scratchCompute.clear();
        scratchComm.clear();
        for (std::size_t i = 0; i < ev.size(); ++i) {
            const Interval iv{starts[i], starts[i] + ev.durNs(i)};
            if (kinds[i] == static_cast<std::uint8_t>(EventKind::Collective)) {
                scratchComm.push_back(iv);
            } else {
                scratchCompute.push_back(iv);
            }
        }
        // Each stream is sorted by start, so its union is one pass; streams then merge pairwise.
        unionInPlace(scratchCompute);
        unionInPlace(scratchComm);
        compute = compute.empty() ? scratchCompute : mergeUnions(compute, scratchCompute);
        comm = comm.empty() ? scratchComm : mergeUnions(comm, scratchComm);
    }
    std::vector<Interval> transfer;
    transfer.reserve(mine.size());
    for (const CallParticipant* p : mine) {
        const auto& ev = rank.streams[p->streamIndex].events;
        const std::int64_t start = ev.startNs(p->eventIndex);
        transfer.push_back({start + p->waitNs, ev.endNs(p->eventIndex)});
    }
    std::sort(transfer.begin(), transfer.end(),
              [](const Interval& a, const Interval& b) { return a.startNs < b.startNs; });
    unionInPlace(transfer);
    const std::array<std::span<const Interval>, 3> lists{compute, comm, transfer};
    return CoverageTimeline(lists);
}

TimeBreakdown measureWindow(const CoverageTimeline& coverage, Interval window) {
    const auto masks = coverage.measure(window);
    TimeBreakdown t;
    t.wallNs = window.length();
    t.idleNs = masks[0];
    for (std::uint32_t m = 1; m < masks.size(); ++m) {
        const std::int64_t v = masks[m];
        if (v == 0) continue;
        if (m & kCompute) t.computeNs += v;
        if (m & kComm) {
            t.commNs += v;
            if (!(m & kCompute)) {
                t.exposedCommNs += v;
                if (m & kTransfer) {
                    t.exposedTransferNs += v;
                } else {
                    t.exposedWaitNs += v;
                }
            }
        }
    }
    t.overlappedCommNs = t.commNs - t.exposedCommNs;
    return t;
}

void aggregateLayers(LayerBreakdown& out) {
    const auto& rows = out.rows;
    for (std::size_t i = 0; i < rows.size();) {
        std::size_t j = i;
        LayerAcrossRanks agg;
        agg.step = rows[i].step;
        agg.layer = rows[i].layer;
        agg.firstRow = static_cast<std::uint32_t>(i);
        agg.minComputeNs = rows[i].time.computeNs;
        agg.maxComputeNs = rows[i].time.computeNs;
        agg.slowestRankIndex = rows[i].rankIndex;
        double sum = 0;
        for (; j < rows.size() && rows[j].step == agg.step && rows[j].layer == agg.layer; ++j) {
            const auto& t = rows[j].time;
            agg.maxWallNs = std::max(agg.maxWallNs, t.wallNs);
            agg.minComputeNs = std::min(agg.minComputeNs, t.computeNs);
            if (t.computeNs > agg.maxComputeNs) {
                agg.maxComputeNs = t.computeNs;
                agg.slowestRankIndex = rows[j].rankIndex;
            }
            sum += static_cast<double>(t.computeNs);
        }
        agg.ranks = static_cast<std::uint32_t>(j - i);
        agg.meanComputeNs = sum / agg.ranks;
        out.layers.push_back(agg);
        i = j;
    }
}

}  // namespace

LayerBreakdown computeBreakdown(const Trace& trace, const Segmentation& segmentation,
                                const CollectiveMatching& matching) {
    LayerBreakdown out;
    const std::size_t rankCount = trace.ranks.size();
    out.rankTotals.resize(rankCount);
    // Bucket the matched kernels by rank (counting sort keeps this linear).
    std::vector<std::size_t> offsets(rankCount + 1, 0);
    for (const auto& p : matching.participants) ++offsets[p.rankIndex + 1];
    for (std::size_t r = 0; r < rankCount; ++r) offsets[r + 1] += offsets[r];
    std::vector<const CallParticipant*> byRank(matching.participants.size());
    {
        std::vector<std::size_t> fill(offsets.begin(), offsets.end() - 1);
        for (const auto& p : matching.participants) byRank[fill[p.rankIndex]++] = &p;
    }
    std::size_t layerCount = 0;
    for (const auto& seg : segmentation.ranks) layerCount += seg.layers.size();
    out.rows.reserve(layerCount);
    for (std::size_t r = 0; r < rankCount && r < segmentation.ranks.size(); ++r) {
        const auto& seg = segmentation.ranks[r];
        if (seg.layers.empty() && seg.steps.empty()) continue;
        const std::span<const CallParticipant* const> mine(byRank.data() + offsets[r], offsets[r + 1] - offsets[r]);
        const CoverageTimeline coverage = rankCoverage(trace.ranks[r], mine);
        const auto rankIndex = static_cast<std::uint32_t>(r);
        for (const auto& l : seg.layers) {
            out.rows.push_back({l.step, l.layer, rankIndex, l.startNs, measureWindow(coverage, {l.startNs, l.endNs})});
        }
        for (const auto& s : seg.steps) {
            StepRankRow row{s.key, rankIndex, s.startNs, measureWindow(coverage, {s.startNs, s.endNs})};
            out.rankTotals[r] += row.time;
            out.steps.push_back(row);
        }
    }
    std::stable_sort(out.rows.begin(), out.rows.end(), [](const LayerRankRow& a, const LayerRankRow& b) {
        if (a.step != b.step) return a.step < b.step;
        if (a.layer != b.layer) return a.layer < b.layer;
        return a.rankIndex < b.rankIndex;
    });
    std::stable_sort(out.steps.begin(), out.steps.end(), [](const StepRankRow& a, const StepRankRow& b) {
        return a.step != b.step ? a.step < b.step : a.rankIndex < b.rankIndex;
    });
    aggregateLayers(out);
    return out;
}

}  // namespace tpscope::core::analysis
