// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/scaling_input.h"

#include <QStringList>

#include <algorithm>

namespace tpscope::ui {

std::optional<ChartRun> chartRunOf(const RunRecord& run) {
    if (run.status != RunStatus::Done || !run.trace || !run.analysis) return std::nullopt;
    ChartRun c;
    c.id = run.id;
    c.label = run.label();
    const bool imported = run.request.backend == BackendKind::Imported;
    // An imported run's TP and batch are what its trace says, read by core.
    c.gpus = imported ? 0 : run.request.tp;
    c.batch = imported ? 0 : run.request.batch;
    c.trace = run.trace;
    c.analysis = run.analysis;
    return c;
}

ScalingInput scalingInputOf(std::vector<ChartRun> runs) {
    ScalingInput in;
    std::erase_if(runs, [](const ChartRun& r) { return !r.trace || !r.analysis; });
    in.runs = std::move(runs);
    for (const auto& r : in.runs) {
        const std::string label = r.label.toStdString();
        for (const auto& note : r.analysis->notes) {
            in.notes.push_back(label);
            in.notes.back().append(": ").append(note);
        }
        if (r.batch <= 0 && !r.analysis->summary.batchKnown) {
            in.notes.push_back(label + ": left out of scaling, cost and advice: its batch size is unknown, so its " +
                               "tokens/s would be a guess");
            in.leftOut.emplace_back(r.id, "batch size unknown (--batch N): tokens/s would be a guess");
            continue;
        }
        if (r.analysis->summary.latencyMeanNs <= 0) {
            in.notes.push_back(label + ": left out of scaling, cost and advice: no decode step, no throughput");
            in.leftOut.emplace_back(r.id, "no decode step found: no latency or throughput");
            continue;
        }
        in.points.push_back(core::analysis::runPointOf(*r.trace, *r.analysis, label, r.gpus, r.batch));
        in.pointIds.push_back(r.id);
    }
    return in;
}

ScalingInput scalingInputOf(const std::vector<RunRecord>& runs, int group) {
    std::vector<ChartRun> charted;
    std::optional<RunRequest> fit;
    for (const auto& r : runs) {
        if (groupOf(r) != group) continue;
        if (r.request.backend != BackendKind::Imported && r.request.model.layers > 0) {
            if (!fit) fit = r.request;
            fit->batch = std::max(fit->batch, r.request.batch);
        }
        if (auto c = chartRunOf(r)) charted.push_back(std::move(*c));
    }
    ScalingInput in = scalingInputOf(std::move(charted));
    in.fitRequest = std::move(fit);
    return in;
}

QString notesText(const std::vector<std::string>& notes) {
    QStringList lines;
    for (const auto& n : notes) lines << QString::fromStdString(n);
    return lines.join(QLatin1Char('\n'));
}

}  // namespace tpscope::ui
