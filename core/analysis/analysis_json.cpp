// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/analysis/analysis_json.h"

#include <cmath>
#include <map>
#include <tuple>

namespace tpscope::core::analysis {

namespace {

void writeLoss(JsonWriter& w, const LossBreakdown& l) {
    w.key("loss").beginObject();
    w.field("compute", l.compute).field("transfer", l.transfer).field("sync_wait", l.syncWait);
    w.field("imbalance", l.imbalance).field("idle", l.idle);
    w.endObject();
}

void writeTime(JsonWriter& w, const TimeBreakdown& t) {
    w.field("wall_ns", t.wallNs).field("compute_ns", t.computeNs).field("compute_only_ns", t.computeOnlyNs());
    w.field("comm_ns", t.commNs).field("exposed_comm_ns", t.exposedCommNs);
    w.field("overlapped_comm_ns", t.overlappedCommNs).field("exposed_wait_ns", t.exposedWaitNs);
    w.field("exposed_transfer_ns", t.exposedTransferNs).field("idle_ns", t.idleNs);
}

// The mean time fields of a layer or block table row (LayerIndexSummary, BlockIndexSummary).
template <typename Row>
void writeMeanTime(JsonWriter& w, const Row& l) {
    w.field("wall_ns", l.mean(&TimeBreakdown::wallNs)).field("compute_ns", l.mean(&TimeBreakdown::computeNs));
    w.field("compute_only_ns", l.mean(&TimeBreakdown::computeNs) - l.mean(&TimeBreakdown::overlappedCommNs));
    w.field("comm_ns", l.mean(&TimeBreakdown::commNs)).field("exposed_comm_ns", l.mean(&TimeBreakdown::exposedCommNs));
    w.field("overlapped_comm_ns", l.mean(&TimeBreakdown::overlappedCommNs));
    w.field("exposed_wait_ns", l.mean(&TimeBreakdown::exposedWaitNs));
    w.field("exposed_transfer_ns", l.mean(&TimeBreakdown::exposedTransferNs));
    w.field("idle_ns", l.mean(&TimeBreakdown::idleNs));
}

void writeSummary(JsonWriter& w, const Trace& trace, const RunSummary& s) {
    w.key("summary").beginObject();
    w.field("steps", static_cast<std::uint64_t>(s.steps.size()));
    w.key("latency_ns").beginObject();
    w.field("mean", s.latencyMeanNs).field("p50", s.latencyP50Ns).field("p90", s.latencyP90Ns);
    w.field("max", s.latencyMaxNs).endObject();
    w.field("tokens_per_sec", s.tokensPerSec);
    w.field("exposed_comm_share", s.exposedCommShare).field("exposed_wait_share", s.exposedWaitShare);
    writeLoss(w, s.loss);
    w.key("kinds").beginArray();
    for (const auto& k : s.kinds) {
        w.beginObject().field("kind", toString(k.kind)).field("kernels", static_cast<std::uint64_t>(k.kernels));
        w.field("busy_ns", k.busyNs).field("share", k.share).endObject();
    }
    w.endArray();
    w.key("slowest_rank");
    if (s.slowestRankIndex >= 0) {
        w.beginObject().field("rank", trace.ranks[static_cast<std::size_t>(s.slowestRankIndex)].id.value);
        w.field("reason", s.slowestRankReason).endObject();
    } else {
        w.null();
    }
    w.key("slowest_layer");
    if (s.slowestLayer >= 0) {
        w.beginObject().field("layer", s.slowestLayer).field("mean_wall_ns", s.slowestLayerMeanWallNs).endObject();
    } else {
        w.null();
    }
    w.key("collectives").beginObject();
    w.field("calls", static_cast<std::uint64_t>(s.collectiveCalls));
    w.field("incomplete", static_cast<std::uint64_t>(s.incompleteCalls)).endObject();
    w.endObject();
}

// Count of calls per (op, message size, communicator): what a user checks first in a foreign trace.
void writeCollectiveSizes(JsonWriter& w, const Trace& trace, const CollectiveMatching& m) {
    std::map<std::tuple<std::string_view, std::uint64_t, std::string_view>, std::size_t> counts;
    for (const auto& c : m.calls) ++counts[{toString(c.op), c.bytes, trace.name(c.communicator)}];
    w.key("collective_sizes").beginArray();
    for (const auto& [key, n] : counts) {
        w.beginObject().field("op", std::get<0>(key)).field("bytes", std::get<1>(key));
        w.field("communicator", std::get<2>(key)).field("calls", static_cast<std::uint64_t>(n)).endObject();
    }
    w.endArray();
}

void writeCalls(JsonWriter& w, const Trace& trace, const CollectiveMatching& m) {
    w.key("calls").beginArray();
    for (const auto& c : m.calls) {
        w.beginObject();
        w.key("step");
        if (c.layer >= 0) {
            w.value(c.step);
        } else {
            w.null();
        }
        w.key("layer");
        if (c.layer >= 0) {
            w.value(c.layer);
        } else {
            w.null();
        }
        w.field("op", toString(c.op)).field("bytes", c.bytes).field("communicator", trace.name(c.communicator));
        w.field("ranks", c.participantCount).field("expected_ranks", c.expectedParticipants);
        w.field("group_size", c.groupSize);
        const auto& first = m.participants[c.firstParticipant];
        w.field("kernel",
                trace.name(trace.ranks[first.rankIndex].streams[first.streamIndex].events.name(first.eventIndex)));
        w.field("first_start_ns", c.firstStartNs).field("last_start_ns", c.lastStartNs);
        w.field("median_end_ns", c.medianEndNs).field("transfer_ns", c.transferNs());
        w.field("last_rank", trace.ranks[c.lastRankIndex].id.value);
        w.field("algbw_bytes_per_sec", algBandwidth(c)).field("busbw_bytes_per_sec", busBandwidth(c));
        w.key("participants").beginArray();
        for (std::uint32_t i = 0; i < c.participantCount; ++i) {
            const auto& p = m.participants[c.firstParticipant + i];
            w.beginObject().field("rank", trace.ranks[p.rankIndex].id.value);
            w.field("start_ns", participantStartNs(trace, p)).field("end_ns", participantEndNs(trace, p));
            w.field("wait_ns", m.waitNs(c.firstParticipant + i)).endObject();
        }
        w.endArray().endObject();
    }
    w.endArray();
}

// What the analysis could not place (understanding.h): before the numbers built on it.
void writeUnderstanding(JsonWriter& w, const Understanding& u) {
    w.key("understanding").beginObject().field("understood", u.understood()).field("other_share", u.otherShare);
    w.key("gaps").beginArray();
    for (const auto& g : u.gaps) {
        w.beginObject().field("kind", toString(g.kind)).field("what", g.what).field("fix", g.fix).endObject();
    }
    w.endArray();
    w.key("top_other").beginArray();
    for (const auto& n : u.topOther) {
        w.beginObject().field("name", n.name).field("busy_ns", n.ns).field("kernels", n.count).endObject();
    }
    w.endArray();
    w.field("text", u.headline()).endObject();
}

}  // namespace

void writeAnalysisJson(JsonWriter& w, const Trace& trace, const RunAnalysis& a, const AnalysisJsonOptions& o) {
    const auto& s = a.summary;
    w.beginObject();
    w.field("source", trace.source).field("origin", toString(trace.origin));
    w.field("ranks", static_cast<std::uint64_t>(s.ranks)).field("events", static_cast<std::uint64_t>(s.events));
    w.field("batch", s.batch).field("batch_known", s.batchKnown).field("batch_source", s.batchSource);
    writeUnderstanding(w, a.understanding);
    w.key("layer_table_rank");
    if (o.rankIndex >= 0) {
        w.value(trace.ranks[static_cast<std::size_t>(o.rankIndex)].id.value);
    } else {
        w.null();
    }
    w.key("segmentation").beginArray();
    for (const auto& r : a.segmentation.ranks) {
        w.beginObject().field("rank", r.rank.value).field("source", toString(r.source));
        w.field("steps", static_cast<std::uint64_t>(r.steps.size()));
        w.field("layers", static_cast<std::uint64_t>(r.layers.size()));
        w.field("blocks", static_cast<std::uint64_t>(r.blockCount));
        w.field("block_source", r.blockCount == 0 ? "none" : r.blocksDerived ? "derived" : "nvtx");
        w.field("leftover_blocks", static_cast<std::uint64_t>(r.leftoverBlocks)).endObject();
    }
    w.endArray();
    writeSummary(w, trace, s);
    w.key("rank_totals").beginArray();
    for (const auto& r : s.rankSummaries) {
        w.beginObject().field("rank", r.rank.value);
        writeTime(w, r.time);
        w.field("imbalance_ns", r.imbalanceNs);
        w.field("collective_kernels", static_cast<std::uint64_t>(r.collectiveKernels));
        w.field("last_arrivals", static_cast<std::uint64_t>(r.lastArrivals));
        w.field("extra_kernels", static_cast<std::uint64_t>(r.extraKernels));
        w.field("collective_wait_ns", r.collectiveWaitNs).endObject();
    }
    w.endArray();
    w.key("layers").beginArray();
    for (const auto& l : layerTable(a.breakdown, o.rankIndex)) {
        w.beginObject().field("layer", l.layer).field("samples", static_cast<std::uint64_t>(l.samples));
        writeMeanTime(w, l);
        w.field("imbalance_ns", l.meanImbalanceNs());
        w.endObject();
    }
    w.endArray();
    w.key("blocks").beginArray();
    for (const auto& b : blockTable(a.breakdown, o.rankIndex)) {
        w.beginObject().field("layer", b.layer).field("block", toString(b.block));
        w.field("samples", static_cast<std::uint64_t>(b.samples));
        writeMeanTime(w, b);
        w.endObject();
    }
    w.endArray();
    w.key("steps").beginArray();
    for (const auto& st : s.steps) {
        w.beginObject().field("step", st.step).field("start_ns", st.startNs).field("latency_ns", st.latencyNs);
        w.field("phase", toString(st.phase)).field("batch", st.batch);
        w.field("ranks", st.ranks).endObject();
    }
    w.endArray();
    w.key("findings").beginArray();
    for (const auto& f : a.findings) {
        w.beginObject().field("kind", toString(f.kind)).field("value", f.value);
        if (f.kind == FindingKind::LaunchBound) {
            w.key("steps").beginArray();
            for (const auto step : f.steps) w.value(step);
            w.endArray();
        } else {
            w.field("communicator_size", f.communicatorSize).field("busbw_bytes_per_sec", f.busbwBytesPerSec);
            w.key("fabric_busbw_bytes_per_sec");
            if (f.fabricBusbwBytesPerSec > 0) {
                w.value(f.fabricBusbwBytesPerSec);
            } else {
                w.null();
            }
        }
        w.field("text", f.text).endObject();
    }
    w.endArray();
    if (o.includeCalls) {
        writeCollectiveSizes(w, trace, a.matching);
        writeCalls(w, trace, a.matching);
    }
    w.key("notes").beginArray();
    for (const auto& n : a.notes) w.value(n);
    w.endArray();
    w.endObject();
}

void writeScalingJson(JsonWriter& w, const ScalingReport& report, const std::vector<AdviceItem>& advice) {
    const bool priced = report.pricePerGpuHour > 0;
    w.beginObject();
    w.key("price_per_gpu_hour");
    if (priced) {
        w.value(report.pricePerGpuHour);
    } else {
        w.null();
    }
    w.field("efficiency_threshold", report.efficiencyThreshold);
    w.key("batches").beginArray();
    for (const auto& bs : report.batches) {
        w.beginObject().field("batch", bs.batch).field("baseline_gpus", bs.baselineGpus);
        w.key("amdahl").beginObject().field("valid", bs.fit.valid);
        w.field("serial_fraction", bs.fit.valid ? bs.fit.serialFraction : NAN);
        w.field("max_speedup", bs.fit.valid ? bs.fit.maxSpeedup : NAN);
        w.field("max_speedup_vs_baseline", bs.fit.valid ? bs.fit.maxSpeedupVsBaseline : NAN);
        w.field("rms_residual", bs.fit.valid ? bs.fit.rmsResidual : NAN);
        w.field("points", static_cast<std::uint64_t>(bs.fit.points)).endObject();
        w.key("runs").beginArray();
        for (const auto& r : bs.rows) {
            w.beginObject().field("label", r.label).field("gpus", r.gpus).field("tokens_per_sec", r.tokensPerSec);
            w.field("step_latency_ns", r.stepLatencyNs).field("speedup", r.speedup).field("efficiency", r.efficiency);
            w.field("amdahl_speedup", bs.fit.valid ? r.amdahlSpeedup : NAN);
            w.field("cost_per_million_tokens", priced ? r.costPerMillionTokens : NAN);
            w.field("premium_vs_baseline", priced ? r.premiumVsBaseline : NAN);
            w.field("exposed_comm_share", r.exposedCommShare);
            writeLoss(w, r.loss);
            w.endObject();
        }
        w.endArray().endObject();
    }
    w.endArray();
    w.key("efficient_batches").beginArray();
    for (const auto& e : report.efficientBatches) {
        w.beginObject().field("gpus", e.gpus).key("smallest_batch");
        if (e.smallestBatch > 0) {
            w.value(e.smallestBatch);
        } else {
            w.null();
        }
        w.field("efficiency", e.efficiency).field("at_batch", e.atBatch).endObject();
    }
    w.endArray();
    w.key("advice").beginArray();
    for (const auto& a : advice) {
        w.beginObject().field("kind", toString(a.kind)).field("batch", a.batch).field("from_gpus", a.fromGpus);
        w.field("to_gpus", a.toGpus).field("speedup", a.speedup).field("efficiency", a.efficiency);
        w.field("cost_change", priced ? a.costChange : NAN).field("largest_loss", a.largestLoss);
        w.field("largest_loss_share", a.largestLossShare).field("text", a.text).endObject();
    }
    w.endArray();
    w.key("notes").beginArray();
    for (const auto& n : report.notes) w.value(n);
    w.endArray();
    w.endObject();
}

void writeComparisonJson(JsonWriter& w, const RunComparison& c) {
    w.beginObject();
    w.key("runs").beginArray();
    for (const auto& r : c.runs) {
        w.beginObject().field("label", r.label).field("ranks", static_cast<std::uint64_t>(r.ranks));
        w.field("step_latency_ns", r.stepLatencyNs).field("tokens_per_sec", r.tokensPerSec);
        w.field("exposed_comm_share", r.exposedCommShare).field("exposed_wait_share", r.exposedWaitShare);
        w.field("latency_delta_fraction", r.latencyDeltaFraction);
        w.field("tokens_per_sec_delta_fraction", r.tokensPerSecDeltaFraction);
        w.field("exposed_comm_share_delta", r.exposedCommShareDelta);
        writeLoss(w, r.loss);
        w.endObject();
    }
    w.endArray();
    w.key("layers").beginArray();
    for (const auto& row : c.layers) {
        w.beginObject().field("layer", row.layer);
        w.key("runs").beginArray();
        for (const auto& cell : row.runs) {
            if (!cell.present) {
                w.null();
                continue;
            }
            w.beginObject().field("wall_ns", cell.wallNs).field("compute_ns", cell.computeNs);
            w.field("exposed_wait_ns", cell.exposedWaitNs).field("exposed_transfer_ns", cell.exposedTransferNs);
            w.field("overlapped_comm_ns", cell.overlappedCommNs).field("idle_ns", cell.idleNs);
            w.field("imbalance_ns", cell.imbalanceNs).endObject();
        }
        w.endArray();
        w.key("wall_delta_ns").beginArray();
        for (const double d : row.wallDeltaNs) w.value(d);
        w.endArray();
        w.key("wall_delta_fraction").beginArray();
        for (const double d : row.wallDeltaFraction) w.value(d);
        w.endArray();
        w.endObject();
    }
    w.endArray();
    w.endObject();
}

}  // namespace tpscope::core::analysis
