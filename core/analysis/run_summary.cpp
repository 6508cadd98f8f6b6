// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/analysis/run_summary.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <optional>

#include "core/trace/event_scan.h"
#include "core/util/parallel_for.h"
#include "core/util/statistics.h"

namespace tpscope::core::analysis {

namespace {

int metadataBatch(const Trace& trace) {
    const std::string text = trace.metadataValue("batch");
    int value = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    return ec == std::errc() && ptr == text.data() + text.size() && value > 0 ? value : 0;
}

// Phase and batch per step key, from the first rank whose steps carry an engine annotation.
std::map<std::int64_t, std::pair<StepPhase, int>> annotatedSteps(const Segmentation* seg) {
    std::map<std::int64_t, std::pair<StepPhase, int>> out;
    if (seg == nullptr) return out;
    for (const auto& r : seg->ranks) {
        for (const auto& st : r.steps) {
            if (st.phase != StepPhase::Unknown || st.batch > 0) out.emplace(st.key, std::pair{st.phase, st.batch});
        }
        if (!out.empty()) break;
    }
    return out;
}

// The most common positive batch of the decode steps; 0 when none says.
int annotatedBatch(const std::vector<StepLatency>& steps) {
    std::map<int, std::size_t> count;
    for (const auto& st : steps) {
        if (!st.prefill && st.batch > 0) ++count[st.batch];
    }
    int best = 0;
    std::size_t bestCount = 0;
    for (const auto& [b, n] : count) {
        if (n > bestCount) {
            best = b;
            bestCount = n;
        }
    }
    return best;
}

void stepLatencies(const LayerBreakdown& bd, const std::map<std::int64_t, std::pair<StepPhase, int>>& annotated,
                   RunSummary& s) {
    for (std::size_t i = 0; i < bd.steps.size();) {
        std::size_t j = i;
        StepLatency step{bd.steps[i].step, bd.steps[i].startNs, 0, 0};
        std::int64_t end = bd.steps[i].startNs + bd.steps[i].time.wallNs;
        for (; j < bd.steps.size() && bd.steps[j].step == step.step; ++j) {
            step.startNs = std::min(step.startNs, bd.steps[j].startNs);
            end = std::max(end, bd.steps[j].startNs + bd.steps[j].time.wallNs);
            ++step.ranks;
        }
        step.latencyNs = end - step.startNs;
        if (const auto it = annotated.find(step.step); it != annotated.end()) {
            step.phase = it->second.first;
            // A mixed step decodes too, but its time is mostly the prefill's: not a decode step's rate.
            step.prefill = step.phase == StepPhase::Prefill || step.phase == StepPhase::Mixed;
            step.batch = it->second.second;
        }
        s.prefillSteps += step.prefill ? 1 : 0;
        s.steps.push_back(step);
        i = j;
    }
    if (!s.batchKnown) {
        if (const int b = annotatedBatch(s.steps); b > 0) {
            s.batch = b;
            s.batchKnown = true;
            s.batchSource = "step annotations";
        }
    }
    std::vector<double> latencies;
    double sum = 0;
    for (const auto& st : s.steps) {
        if (st.prefill) continue;
        latencies.push_back(static_cast<double>(st.latencyNs));
        sum += static_cast<double>(st.latencyNs);
    }
    if (latencies.empty()) return;
    s.latencyMeanNs = sum / static_cast<double>(latencies.size());
    s.latencyP50Ns = percentile(latencies, 0.5);
    s.latencyP90Ns = percentile(latencies, 0.9);
    s.latencyMaxNs = *std::max_element(latencies.begin(), latencies.end());
    s.tokensPerSec = decodeTokensPerSec(s, s.batch);
}

}  // namespace

double decodeTokensPerSec(const RunSummary& summary, int batch) {
    const int runBatch = batch > 0 ? batch : summary.batch;
    double sum = 0;
    double tokens = 0;
    bool perStepBatch = false;
    for (const auto& st : summary.steps) {
        if (st.prefill) continue;
        sum += static_cast<double>(st.latencyNs);
        tokens += st.batch > 0 ? st.batch : runBatch;
        perStepBatch = perStepBatch || (st.batch > 0 && st.batch != runBatch);
    }
    // A summary without its steps (kept elsewhere) has its mean latency alone.
    if (sum <= 0) return summary.latencyMeanNs > 0 ? runBatch / (summary.latencyMeanNs * 1e-9) : 0;
    // Steps of different batches: the tokens they decoded over the time they took; one batch: the
    // same number written as batch / mean latency, digit for digit what earlier versions printed.
    return perStepBatch ? tokens / (sum * 1e-9) : runBatch / (summary.latencyMeanNs * 1e-9);
}

namespace {

// Kernel time and count per kind: one task per rank (integer sums, so the thread count cannot
// change them), added up in rank order.
void kindShares(const Trace& trace, RunSummary& s, unsigned threads) {
    struct KindTotals {
        std::array<std::int64_t, kEventKindCount> busy{};
        std::array<std::size_t, kEventKindCount> count{};
    };
    std::vector<KindTotals> perRank(trace.ranks.size());
    parallelFor(trace.ranks.size(), threads, [&](std::size_t r) {
        auto& totals = perRank[r];
        for (const auto& stream : trace.ranks[r].streams) {
            EventScan events(stream.events, EventScan::kDurations | EventScan::kKinds);
            for (std::size_t i = 0, n = events.size(); i < n; ++i) {
                const EventScan::Event e = events.at(i);
                const std::uint8_t k = e.kind < kEventKindCount ? e.kind : static_cast<std::uint8_t>(EventKind::Other);
                totals.busy[k] += e.durNs;
                ++totals.count[k];
            }
        }
    });
    for (int k = 0; k < kEventKindCount; ++k) s.kinds[k].kind = static_cast<EventKind>(k);
    std::int64_t total = 0;
    for (const auto& totals : perRank) {
        for (int k = 0; k < kEventKindCount; ++k) {
            s.kinds[k].busyNs += totals.busy[k];
            s.kinds[k].kernels += totals.count[k];
            total += totals.busy[k];
        }
    }
    for (auto& k : s.kinds) k.share = total > 0 ? static_cast<double>(k.busyNs) / static_cast<double>(total) : 0;
}

void rankSummaries(const Trace& trace, const CollectiveMatching& m, const LayerBreakdown& bd, RunSummary& s) {
    s.rankSummaries.resize(trace.ranks.size());
    for (std::uint32_t r = 0; r < trace.ranks.size(); ++r) {
        auto& rs = s.rankSummaries[r];
        rs.rankIndex = r;
        rs.rank = trace.ranks[r].id;
        if (r < bd.rankTotals.size()) rs.time = bd.rankTotals[r];
        if (r < m.ranks.size()) {
            rs.collectiveKernels = m.ranks[r].kernels;
            rs.lastArrivals = m.ranks[r].lastArrivals;
            rs.extraKernels = m.ranks[r].extraKernels;
            rs.collectiveWaitNs = m.ranks[r].waitNs;
        }
    }
    // Compute spread explains wait: a rank with less compute than the slowest in a layer waits for it.
    for (const auto& layer : bd.layers) {
        auto it = bd.rows.from(layer.firstRow);
        for (std::uint32_t i = 0; i < layer.ranks; ++i, ++it) {
            const LayerRankRow row = *it;
            s.rankSummaries[row.rankIndex].imbalanceNs += layer.maxComputeNs - row.time.computeNs;
        }
    }
    for (auto& rs : s.rankSummaries) rs.imbalanceNs = std::min(rs.imbalanceNs, rs.time.exposedWaitNs);
}

void lossAndShares(RunSummary& s) {
    double wall = 0;
    double compute = 0, transfer = 0, wait = 0, imbalance = 0, idle = 0, exposed = 0;
    for (const auto& rs : s.rankSummaries) {
        wall += static_cast<double>(rs.time.wallNs);
        compute += static_cast<double>(rs.time.computeNs);
        transfer += static_cast<double>(rs.time.exposedTransferNs);
        wait += static_cast<double>(rs.time.exposedWaitNs);
        imbalance += static_cast<double>(rs.imbalanceNs);
        idle += static_cast<double>(rs.time.idleNs);
        exposed += static_cast<double>(rs.time.exposedCommNs);
    }
    if (wall <= 0) return;
    s.loss = {compute / wall, transfer / wall, (wait - imbalance) / wall, imbalance / wall, idle / wall};
    s.exposedCommShare = exposed / wall;
    s.exposedWaitShare = wait / wall;
}

void slowest(const LayerBreakdown& bd, RunSummary& s) {
    const RankSummary* best = nullptr;
    for (const auto& rs : s.rankSummaries) {
        if (best == nullptr || rs.lastArrivals > best->lastArrivals ||
            (rs.lastArrivals == best->lastArrivals && rs.time.computeNs > best->time.computeNs)) {
            best = &rs;
        }
    }
    if (best != nullptr && (best->lastArrivals > 0 || best->time.computeNs > 0)) {
        s.slowestRankIndex = best->rankIndex;
        std::size_t complete = s.collectiveCalls - s.incompleteCalls;
        s.slowestRankReason = best->lastArrivals > 0 ? "arrived last at " + std::to_string(best->lastArrivals) +
                                                           " of " + std::to_string(complete) + " collective calls"
                                                     : "most compute time";
    }
    const auto table = layerTable(bd);
    for (const auto& l : table) {
        if (l.mean(&TimeBreakdown::wallNs) > s.slowestLayerMeanWallNs) {
            s.slowestLayerMeanWallNs = l.mean(&TimeBreakdown::wallNs);
            s.slowestLayer = l.layer;
        }
    }
}

}  // namespace

RunBatch runBatch(const Trace& trace, int batch) {
    if (batch > 0) return {batch, true, "option"};
    if (const int fromMetadata = metadataBatch(trace); fromMetadata > 0) return {fromMetadata, true, "metadata"};
    return {};
}

RunSummary summarizeRun(const Trace& trace, const CollectiveMatching& matching, const LayerBreakdown& breakdown,
                        int batch, unsigned threads, const Segmentation* segmentation) {
    RunSummary s;
    s.ranks = trace.ranks.size();
    s.events = trace.eventCount();
    const RunBatch chosen = runBatch(trace, batch);
    s.batch = chosen.batch;
    s.batchKnown = chosen.known;
    s.batchSource = chosen.source;
    s.collectiveCalls = matching.calls.size();
    s.incompleteCalls = matching.incompleteCalls;
    stepLatencies(breakdown, annotatedSteps(segmentation), s);
    kindShares(trace, s, threads);
    rankSummaries(trace, matching, breakdown, s);
    lossAndShares(s);
    slowest(breakdown, s);
    return s;
}

namespace {

// Sums the picked (step, layer, rank) rows per layer index, with each layer's instance imbalance. pick
// calls add(layer, rows, summed times) for each run of rows it picks.
template <typename Pick>
std::vector<LayerIndexSummary> accumulateLayers(const LayerBreakdown& breakdown, Pick pick) {
    struct Acc {
        std::size_t n = 0;
        TimeBreakdown sum;
        std::int64_t imbalance = 0;
        std::size_t layerInstances = 0;
    };
    std::map<int, Acc> acc;
    // Rows come by (step, layer, rank): the ranks of one layer instance follow each other, so the
    // previous row's entry is usually this row's too (a map lookup a row was ~2 % of the analysis).
    auto last = acc.end();
    pick([&acc, &last](int layer, std::size_t rows, const TimeBreakdown& time) {
        if (last == acc.end() || last->first != layer) last = acc.try_emplace(layer).first;
        Acc& a = last->second;
        a.n += rows;
        a.sum += time;
    });
    for (const auto& l : breakdown.layers) {
        auto it = acc.find(l.layer);
        if (it == acc.end()) continue;
        it->second.imbalance += l.imbalanceNs();
        ++it->second.layerInstances;
    }
    std::vector<LayerIndexSummary> out;
    for (const auto& [layer, a] : acc) {
        LayerIndexSummary s;
        s.layer = layer;
        s.samples = a.n;
        s.sumTime = a.sum;
        s.instances = a.layerInstances;
        s.sumImbalanceNs = a.imbalance;
        out.push_back(s);
    }
    return out;
}

}  // namespace

std::vector<LayerIndexSummary> layerTable(const LayerBreakdown& breakdown, std::int64_t rankIndex) {
    // A layer instance's rows at once, summed where they lie (LayerRows::sumTimes): at 100 M events the
    // Layers page reads 10 M rows on the GUI thread as the run opens, once unpacked a row at a time.
    return accumulateLayers(breakdown, [&](const auto& add) {
        const LayerRows& rows = breakdown.rows;
        const auto& instances = rows.instances();
        for (std::size_t k = 0; k < instances.size(); ++k) {
            const std::size_t end = k + 1 < instances.size() ? instances[k + 1].firstRow : rows.size();
            const LayerRows::TimesSum part = rows.sumTimes(instances[k].firstRow, end, rankIndex);
            if (part.rows > 0) add(instances[k].layer, part.rows, part.time);
        }
    });
}

std::vector<BlockIndexSummary> blockTable(const LayerBreakdown& breakdown, std::int64_t rankIndex) {
    std::map<std::pair<int, BlockKind>, BlockIndexSummary> acc;
    for (const auto& sum : breakdown.blockSums) {
        if (rankIndex >= 0 && sum.rankIndex != rankIndex) continue;
        auto& a = acc[{sum.layer, sum.block}];
        a.layer = sum.layer;
        a.block = sum.block;
        a.samples += sum.samples;
        a.sumTime += sum.time;
    }
    std::vector<BlockIndexSummary> out;
    out.reserve(acc.size());
    for (const auto& [key, a] : acc) out.push_back(a);
    return out;
}

std::vector<LayerIndexSummary> layerTableSlowestRank(const LayerBreakdown& breakdown) {
    return accumulateLayers(breakdown, [&](const auto& add) {
        for (const auto& l : breakdown.layers) {
            std::optional<LayerRankRow> slowest;
            auto it = breakdown.rows.from(l.firstRow);
            for (std::uint32_t i = 0; i < l.ranks; ++i, ++it) {
                const LayerRankRow row = *it;
                if (!slowest || row.time.wallNs > slowest->time.wallNs) slowest = row;
            }
            if (slowest) add(slowest->layer, 1, slowest->time);
        }
    });
}

std::optional<TimeSpan> firstLayerSpan(const LayerBreakdown& breakdown, int layer) {
    for (const auto& l : breakdown.layers) {  // sorted by (step, layer): the first match is the first step
        if (l.layer != layer || l.ranks == 0) continue;
        TimeSpan span{std::numeric_limits<std::int64_t>::max(), std::numeric_limits<std::int64_t>::min()};
        auto it = breakdown.rows.from(l.firstRow);
        for (std::uint32_t i = 0; i < l.ranks; ++i, ++it) {
            const LayerRankRow row = *it;
            span.startNs = std::min(span.startNs, row.startNs);
            span.endNs = std::max(span.endNs, row.startNs + row.time.wallNs);
        }
        return span;
    }
    return std::nullopt;
}

}  // namespace tpscope::core::analysis
