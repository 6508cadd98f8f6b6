// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/sim/whatif_report.h"

#include <map>

namespace tpscope::core::sim {

namespace {

using analysis::TimeBreakdown;

WhatIfReport compare(const Trace& measured, const WhatIfRun& run, const WhatIfOptions& o) {
    WhatIfReport r;
    r.measuredSource = measured.source;
    r.fabric = o.fabric.id + (o.interFabric ? " + " + o.interFabric->id : std::string());
    r.measuredRanks = measured.ranks.size();
    r.predictedRanks = run.replay.trace->ranks.size();
    const auto& m = run.measured.summary;
    const auto& p = run.predicted.summary;
    r.steps = p.steps.size();
    r.measuredStepNs = m.latencyMeanNs;
    r.predictedStepNs = p.latencyMeanNs;
    r.deltaNs = r.predictedStepNs - r.measuredStepNs;
    r.deltaFraction = r.measuredStepNs > 0 ? r.deltaNs / r.measuredStepNs : 0;
    r.measuredTokensPerSec = m.tokensPerSec;
    r.predictedTokensPerSec = p.tokensPerSec;
    r.measuredExposedCommShare = m.exposedCommShare;
    r.predictedExposedCommShare = p.exposedCommShare;
    r.measuredExposedWaitShare = m.exposedWaitShare;
    r.predictedExposedWaitShare = p.exposedWaitShare;
    std::map<int, WhatIfLayerRow> rows;
    for (const auto& l : analysis::layerTable(run.measured.breakdown)) {
        auto& row = rows[l.layer];
        row.layer = l.layer;
        row.measuredWallNs = l.mean(&TimeBreakdown::wallNs);
        row.measuredExposedCommNs = l.mean(&TimeBreakdown::exposedCommNs);
        row.measuredExposedWaitNs = l.mean(&TimeBreakdown::exposedWaitNs);
    }
    for (const auto& l : analysis::layerTable(run.predicted.breakdown)) {
        auto& row = rows[l.layer];
        row.layer = l.layer;
        row.predictedWallNs = l.mean(&TimeBreakdown::wallNs);
        row.predictedExposedCommNs = l.mean(&TimeBreakdown::exposedCommNs);
        row.predictedExposedWaitNs = l.mean(&TimeBreakdown::exposedWaitNs);
    }
    for (const auto& [layer, row] : rows) r.layers.push_back(row);
    r.collectivesRetimed = run.replay.collectivesRetimed;
    r.collectivesKept = run.replay.collectivesKept;
    r.assumptions = run.replay.assumptions;
    return r;
}

}  // namespace

Result<WhatIfRun> runWhatIf(const Trace& measured, const analysis::AnalysisOptions& analysisOptions,
                            const WhatIfOptions& options, const TaskControl& control) {
    const auto cancelled = [] { return makeError(ErrorCode::Cancelled, "what-if replay cancelled"); };
    // Progress in thirds: the two analyses and the replay are each O(events).
    WhatIfRun run;
    run.measured = analysis::analyzeTrace(measured, analysisOptions);
    control.report(1.0 / 3);
    if (control.cancelled()) return cancelled();
    auto replay = replayOnFabric(measured, run.measured.matching, options);
    if (!replay) return replay.error();
    run.replay = std::move(*replay);
    control.report(2.0 / 3);
    if (control.cancelled()) return cancelled();
    run.predicted = analysis::analyzeTrace(*run.replay.trace, analysisOptions);
    control.report(1.0);
    run.report = compare(measured, run, options);
    return run;
}

void writeWhatIfJson(JsonWriter& w, const WhatIfReport& r) {
    w.beginObject();
    w.field("measured_source", r.measuredSource).field("fabric", r.fabric);
    w.field("origin", "predicted").field("model_estimate", true);
    w.field("measured_ranks", static_cast<std::uint64_t>(r.measuredRanks));
    w.field("predicted_ranks", static_cast<std::uint64_t>(r.predictedRanks));
    w.field("steps", static_cast<std::uint64_t>(r.steps));
    w.key("step_latency_ns").beginObject();
    w.field("measured", r.measuredStepNs).field("predicted", r.predictedStepNs);
    w.field("delta", r.deltaNs).field("delta_fraction", r.deltaFraction).endObject();
    w.key("tokens_per_sec").beginObject();
    w.field("measured", r.measuredTokensPerSec).field("predicted", r.predictedTokensPerSec).endObject();
    w.key("exposed_comm_share").beginObject();
    w.field("measured", r.measuredExposedCommShare).field("predicted", r.predictedExposedCommShare).endObject();
    w.key("exposed_wait_share").beginObject();
    w.field("measured", r.measuredExposedWaitShare).field("predicted", r.predictedExposedWaitShare).endObject();
    w.field("collectives_retimed", static_cast<std::uint64_t>(r.collectivesRetimed));
    w.field("collectives_kept", static_cast<std::uint64_t>(r.collectivesKept));
    w.key("layers").beginArray();
    for (const auto& l : r.layers) {
        w.beginObject().field("layer", l.layer);
        w.field("measured_wall_ns", l.measuredWallNs).field("predicted_wall_ns", l.predictedWallNs);
        w.field("measured_exposed_comm_ns", l.measuredExposedCommNs);
        w.field("predicted_exposed_comm_ns", l.predictedExposedCommNs);
        w.field("measured_exposed_wait_ns", l.measuredExposedWaitNs)
            .field("predicted_exposed_wait_ns", l.predictedExposedWaitNs);
        w.endObject();
    }
    w.endArray().key("assumptions").beginArray();
    for (const auto& a : r.assumptions) w.value(a);
    w.endArray().endObject();
}

}  // namespace tpscope::core::sim
