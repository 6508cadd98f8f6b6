// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/analysis/scaling.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "core/calc/amdahl.h"
#include "core/calc/cost.h"

namespace tpscope::core::analysis {

namespace {

double modelSpeedup(double s, double gpus, int baseline) {
    return amdahlSpeedup(s, gpus) / amdahlSpeedup(s, baseline);
}

double sse(const std::vector<std::pair<int, double>>& pts, int baseline, double s) {
    double sum = 0;
    for (const auto& [n, measured] : pts) {
        const double d = measured - modelSpeedup(s, n, baseline);
        sum += d * d;
    }
    return sum;
}

}  // namespace

AmdahlFit fitAmdahl(const std::vector<std::pair<int, double>>& pts, int baselineGpus) {
    AmdahlFit fit;
    fit.points = pts.size();
    std::vector<int> distinct;
    for (const auto& p : pts) distinct.push_back(p.first);
    std::sort(distinct.begin(), distinct.end());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    if (distinct.size() < 2 || baselineGpus <= 0) return fit;
    // A grid finds the basin (the SSE need not be unimodal with noisy points), golden section refines.
    constexpr int kGrid = 200;
    int bestI = 0;
    double bestV = std::numeric_limits<double>::infinity();
    for (int i = 0; i <= kGrid; ++i) {
        const double v = sse(pts, baselineGpus, static_cast<double>(i) / kGrid);
        if (v < bestV) {
            bestV = v;
            bestI = i;
        }
    }
    double lo = std::max(0.0, (bestI - 1.0) / kGrid);
    double hi = std::min(1.0, (bestI + 1.0) / kGrid);
    const double phi = (std::sqrt(5.0) - 1.0) / 2.0;
    double a = hi - phi * (hi - lo);
    double b = lo + phi * (hi - lo);
    double fa = sse(pts, baselineGpus, a);
    double fb = sse(pts, baselineGpus, b);
    for (int it = 0; it < 100 && hi - lo > 1e-12; ++it) {
        if (fa < fb) {
            hi = b;
            b = a;
            fb = fa;
            a = hi - phi * (hi - lo);
            fa = sse(pts, baselineGpus, a);
        } else {
            lo = a;
            a = b;
            fa = fb;
            b = lo + phi * (hi - lo);
            fb = sse(pts, baselineGpus, b);
        }
    }
    double s = (lo + hi) / 2.0;
    // The ends of [0, 1] are candidates too (golden section never evaluates them exactly).
    for (const double edge : {0.0, 1.0}) {
        if (sse(pts, baselineGpus, edge) <= sse(pts, baselineGpus, s)) s = edge;
    }
    fit.valid = true;
    fit.serialFraction = s;
    fit.rmsResidual = std::sqrt(sse(pts, baselineGpus, s) / static_cast<double>(pts.size()));
    fit.maxSpeedup = s > 0 ? 1.0 / s : std::numeric_limits<double>::infinity();
    fit.maxSpeedupVsBaseline = s > 0 ? (s + (1.0 - s) / baselineGpus) / s : std::numeric_limits<double>::infinity();
    return fit;
}

namespace {

// Every run has a GPU count, a batch and a throughput; sorted by batch, then GPUs, no two runs share
// both (a sweep run twice, or two files of one configuration, would make the speedup ambiguous).
Status sortAndValidate(std::vector<RunPoint>& runs) {
    if (runs.empty()) return makeError(ErrorCode::InvalidArgument, "no runs to compare", "scaling");
    for (const auto& r : runs) {
        if (r.gpus <= 0 || r.batch <= 0) {
            return makeError(ErrorCode::InvalidArgument,
                             "the run has no GPU count or batch size (give --tp/--batch or trace metadata)", r.label);
        }
        if (!std::isfinite(r.tokensPerSec) || r.tokensPerSec <= 0) {
            return makeError(ErrorCode::InvalidArgument, "the run has no measured throughput (no complete step)",
                             r.label);
        }
    }
    std::sort(runs.begin(), runs.end(), [](const RunPoint& a, const RunPoint& b) {
        return a.batch != b.batch ? a.batch < b.batch : a.gpus < b.gpus;
    });
    for (std::size_t i = 1; i < runs.size(); ++i) {
        if (runs[i].batch == runs[i - 1].batch && runs[i].gpus == runs[i - 1].gpus) {
            return makeError(ErrorCode::InvalidArgument,
                             "two runs with " + std::to_string(runs[i].gpus) + " GPUs at batch " +
                                 std::to_string(runs[i].batch) + ": " + runs[i - 1].label + " and " + runs[i].label,
                             "scaling");
        }
    }
    return Ok{};
}

// One batch's runs (ascending GPUs; the first is the baseline): speedup and efficiency against the
// baseline, the Amdahl fit and, with a price, $/Mtok and the premium over the baseline.
Result<BatchScaling> scaleBatch(const RunPoint* first, const RunPoint* last, double pricePerGpuHour) {
    BatchScaling bs;
    bs.batch = first->batch;
    bs.baselineGpus = first->gpus;
    const double baseTps = first->tokensPerSec;
    std::vector<std::pair<int, double>> speedups;
    std::vector<std::pair<int, double>> throughputs;
    for (const RunPoint* run = first; run != last; ++run) {
        ScalingRow row;
        row.label = run->label;
        row.gpus = run->gpus;
        row.tokensPerSec = run->tokensPerSec;
        row.stepLatencyNs = run->stepLatencyNs;
        row.speedup = run->tokensPerSec / baseTps;
        row.efficiency = row.speedup / (static_cast<double>(row.gpus) / bs.baselineGpus);
        row.loss = run->loss;
        row.exposedCommShare = run->exposedCommShare;
        speedups.emplace_back(row.gpus, row.speedup);
        throughputs.emplace_back(row.gpus, row.tokensPerSec);
        bs.rows.push_back(row);
    }
    bs.fit = fitAmdahl(speedups, bs.baselineGpus);
    if (bs.fit.valid) {
        for (auto& row : bs.rows) row.amdahlSpeedup = modelSpeedup(bs.fit.serialFraction, row.gpus, bs.baselineGpus);
    }
    if (pricePerGpuHour > 0) {
        auto table = costTable(pricePerGpuHour, throughputs);
        if (!table) return table.error();
        for (std::size_t k = 0; k < bs.rows.size(); ++k) {
            bs.rows[k].costPerMillionTokens = table->rows[k].costPerMillionTokens;
            bs.rows[k].premiumVsBaseline = table->rows[k].premiumVsBaseline;
        }
    }
    return bs;
}

// What a reader must know to read the batch's numbers: another baseline than 1 GPU, or no scaling.
void noteLimits(const BatchScaling& bs, std::vector<std::string>& notes) {
    if (bs.baselineGpus != 1) {
        notes.push_back("batch " + std::to_string(bs.batch) +
                        ": no 1-GPU run; speedup, efficiency and cost premium are relative to " +
                        std::to_string(bs.baselineGpus) + " GPUs");
    }
    if (bs.rows.size() < 2) {
        notes.push_back("batch " + std::to_string(bs.batch) + ": one GPU count only; no scaling or Amdahl fit");
    }
}

// Per GPU count above a baseline: the smallest batch whose efficiency reaches the threshold, else
// the batch with the best efficiency. Batches ascend, so the first that reaches it is the smallest.
std::vector<EfficientBatch> efficientBatches(const std::vector<BatchScaling>& batches, double threshold) {
    std::map<int, EfficientBatch> eff;
    for (const auto& bs : batches) {
        for (const auto& row : bs.rows) {
            if (row.gpus == bs.baselineGpus) continue;
            auto& e = eff[row.gpus];
            e.gpus = row.gpus;
            if (e.smallestBatch != 0) continue;
            if (row.efficiency >= threshold) {
                e.smallestBatch = bs.batch;
                e.efficiency = row.efficiency;
                e.atBatch = bs.batch;
            } else if (e.atBatch == 0 || row.efficiency > e.efficiency) {
                e.efficiency = row.efficiency;
                e.atBatch = bs.batch;
            }
        }
    }
    std::vector<EfficientBatch> out;
    out.reserve(eff.size());
    for (const auto& [gpus, e] : eff) out.push_back(e);
    return out;
}

}  // namespace

Result<ScalingReport> analyzeScaling(std::vector<RunPoint> runs, const ScalingOptions& options) {
    TPSCOPE_TRY(sortAndValidate(runs));
    ScalingReport report;
    report.pricePerGpuHour = options.pricePerGpuHour;
    report.efficiencyThreshold = options.efficiencyThreshold;
    for (std::size_t i = 0; i < runs.size();) {
        std::size_t j = i;
        while (j < runs.size() && runs[j].batch == runs[i].batch) ++j;
        auto batch = scaleBatch(runs.data() + i, runs.data() + j, options.pricePerGpuHour);
        if (!batch) return batch.error();
        noteLimits(*batch, report.notes);
        report.batches.push_back(std::move(*batch));
        i = j;
    }
    report.efficientBatches = efficientBatches(report.batches, options.efficiencyThreshold);
    return report;
}

double fittedSpeedup(const BatchScaling& batch, double gpus) {
    if (!batch.fit.valid || !(gpus > 0)) return 0;
    return modelSpeedup(batch.fit.serialFraction, gpus, batch.baselineGpus);
}

std::vector<CostCandidate> costCandidates(const ScalingReport& report) {
    std::vector<CostCandidate> out;
    for (const auto& b : report.batches) {
        for (const auto& r : b.rows) {
            out.push_back(CostCandidate{.gpus = r.gpus,
                                        .batch = b.batch,
                                        .tokensPerSec = r.tokensPerSec,
                                        .stepLatencyMs = r.stepLatencyNs / 1e6,
                                        .dollarsPerMillionTokens = r.costPerMillionTokens});
        }
    }
    return out;
}

}  // namespace tpscope::core::analysis
