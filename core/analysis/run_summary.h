// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Step and run summary (DESIGN.md §5): the few numbers that explain a decode step.
//
// Input: the trace and its breakdown and matching. Mapping:
// - token latency = a step's wall time, from the earliest rank's step start to the latest rank's
//   step end; p50/p90 by linear interpolation between order statistics; tokens/s = batch / mean
//   step latency.
// - kind shares: summed kernel time per EventKind over all ranks / all kernel time.
// - loss breakdown, fractions of step time summed over ranks (they sum to 1 with compute):
//   transfer = exposed transfer, idle = idle, and exposed wait split into imbalance (the part a
//   rank's lower compute explains: sum over layers of max_r compute - own compute, capped at its
//   exposed wait) and sync wait (the rest: launch skew, jitter).
// - slowest rank: the one that arrived last at most complete collective calls (without
//   collectives: the most compute); slowest layer: the layer index with the highest mean wall.
// Complexity: O(rows + steps log steps + events / 8) (kind shares read the kind column only).

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/analysis/collective_matching.h"
#include "core/analysis/layer_breakdown.h"
#include "core/analysis/layer_segmentation.h"
#include "core/trace/trace.h"

namespace tpscope::core::analysis {

struct StepLatency {
    std::int64_t step = 0;
    std::int64_t startNs = 0;
    std::int64_t latencyNs = 0;
    std::uint32_t ranks = 0;
    StepPhase phase = StepPhase::Unknown;  // from an engine's step annotation
    bool prefill = false;  // an engine's prefill (or mixed) step: not in the decode latency and tokens/s
    int batch = 0;         // from the engine's step annotation; 0 unknown
};

struct KindShare {
    EventKind kind = EventKind::Other;
    std::size_t kernels = 0;
    std::int64_t busyNs = 0;
    double share = 0;  // of all kernel time
};

struct LossBreakdown {
    double compute = 0;
    double transfer = 0;
    double syncWait = 0;
    double imbalance = 0;
    double idle = 0;
};

struct RankSummary {
    std::uint32_t rankIndex = 0;
    RankId rank{};
    TimeBreakdown time;            // over all step windows
    std::int64_t imbalanceNs = 0;  // part of its exposed wait explained by compute spread
    std::size_t collectiveKernels = 0;
    std::size_t lastArrivals = 0;
    std::size_t extraKernels = 0;
    std::int64_t collectiveWaitNs = 0;  // summed wait of its collective kernels, hidden or not
};

struct RunSummary {
    std::size_t ranks = 0;
    std::size_t events = 0;
    int batch = 1;
    bool batchKnown = false;  // from options, trace metadata "batch" or the engine's step annotations
    std::string batchSource;  // "option", "metadata", "step annotations"; empty when unknown
    std::size_t prefillSteps = 0;
    std::vector<StepLatency> steps;
    double latencyMeanNs = 0;
    double latencyP50Ns = 0;
    double latencyP90Ns = 0;
    double latencyMaxNs = 0;
    double tokensPerSec = 0;
    std::array<KindShare, kEventKindCount> kinds{};
    LossBreakdown loss;
    double exposedCommShare = 0;
    double exposedWaitShare = 0;
    std::int64_t slowestRankIndex = -1;
    std::string slowestRankReason;
    int slowestLayer = -1;
    double slowestLayerMeanWallNs = 0;
    std::size_t collectiveCalls = 0;
    std::size_t incompleteCalls = 0;
    std::vector<RankSummary> rankSummaries;
};

// The run's batch as the option and the trace's metadata give it, before any step annotation:
// batch > 0 ("option"), else metadata "batch" ("metadata"), else 1, unknown ("").
struct RunBatch {
    int batch = 1;
    bool known = false;
    std::string_view source;
};
RunBatch runBatch(const Trace& trace, int batch);

// batch <= 0: read trace metadata "batch", else 1 (and batchKnown = false); see runBatch.
// Kind shares are summed one task per rank on up to `threads` threads (0: one per hardware thread).
// With `segmentation`, its steps' phase and batch (engine step annotations) apply: prefill steps are
// left out of the latency and tokens/s, and the decode steps' batch is used when neither option nor
// metadata gives one (tokens/s = summed batch / summed latency over decode steps).
RunSummary summarizeRun(const Trace& trace, const CollectiveMatching& matching, const LayerBreakdown& breakdown,
                        int batch = 0, unsigned threads = 0, const Segmentation* segmentation = nullptr);

// The one tokens/s of a run (issue 45 §2): the tokens its decode steps produced over the time they
// took, each step at its own batch (engine step annotations) or else at `batch` (<= 0: the
// summary's). With one batch throughout it is batch / mean decode latency. The summary, the scaling
// points (runPointOf) and through them the runs table, Compare, Scaling, Cost, Advice and the
// report all take it from here. 0 without a decode step.
double decodeTokensPerSec(const RunSummary& summary, int batch = 0);

// Per layer index, averaged over steps (and over ranks unless one is picked): the per-layer table.
struct LayerIndexSummary {
    int layer = 0;
    std::size_t samples = 0;    // (step, rank) rows summed
    TimeBreakdown sumTime;      // exact sums; means are sum / samples, so they partition the mean wall
    std::size_t instances = 0;  // (step) layer instances
    std::int64_t sumImbalanceNs = 0;
    double mean(std::int64_t TimeBreakdown::*field) const {
        return samples > 0 ? static_cast<double>(sumTime.*field) / static_cast<double>(samples) : 0.0;
    }
    // Compute with no collective running: the bottom part of a stacked layer bar.
    double meanComputeOnlyNs() const {
        return mean(&TimeBreakdown::computeNs) - mean(&TimeBreakdown::overlappedCommNs);
    }
    double meanImbalanceNs() const {
        return instances > 0 ? static_cast<double>(sumImbalanceNs) / static_cast<double>(instances) : 0.0;
    }
};
// rankIndex < 0: every rank.
std::vector<LayerIndexSummary> layerTable(const LayerBreakdown& breakdown, std::int64_t rankIndex = -1);
// "Max over ranks": per layer instance the rank with the largest wall (ties: the lower rank index),
// averaged over steps. Each picked row partitions its own wall, so the means still sum to the mean wall.
std::vector<LayerIndexSummary> layerTableSlowestRank(const LayerBreakdown& breakdown);

// Per (layer index, block), averaged over steps (and over ranks unless one is picked): the per-block
// table, the layer table's rows split into attention and MLP where the segmentation has blocks.
struct BlockIndexSummary {
    int layer = 0;
    BlockKind block = BlockKind::Attention;
    std::size_t samples = 0;  // (step, rank) rows summed
    TimeBreakdown sumTime;
    double mean(std::int64_t TimeBreakdown::*field) const {
        return samples > 0 ? static_cast<double>(sumTime.*field) / static_cast<double>(samples) : 0.0;
    }
};
// rankIndex < 0: every rank. Sorted by (layer, block).
std::vector<BlockIndexSummary> blockTable(const LayerBreakdown& breakdown, std::int64_t rankIndex = -1);

struct TimeSpan {
    std::int64_t startNs = 0;
    std::int64_t endNs = 0;
};
// Where layer index `layer` first runs: its first instance (lowest step), from the earliest rank's
// start to the latest rank's end. nullopt when the layer index never occurs. O(layer instances + ranks).
std::optional<TimeSpan> firstLayerSpan(const LayerBreakdown& breakdown, int layer);

}  // namespace tpscope::core::analysis
