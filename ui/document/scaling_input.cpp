// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/document/scaling_input.h"

#include <QStringList>

#include <algorithm>

#include "core/analysis/scaling_input.h"

namespace tpscope::ui {

namespace {

// Core's groups of `runs` (the GUI's rules: guesses stay out, each run's notes go with it).
core::analysis::ScalingGroups groupsOf(const std::vector<ChartRun>& runs) {
    std::vector<core::analysis::MeasuredRun> measured;
    measured.reserve(runs.size());
    for (const auto& r : runs) {
        measured.push_back({r.trace.get(), r.analysis.get(), r.label.toStdString(), r.gpus, r.batch,
                            "sweep " + std::to_string(r.sweep)});
    }
    return core::analysis::groupScalingRuns(measured, {.leaveOutGuesses = true, .withRunNotes = true});
}

// The input of core's group `group` of `runs`.
ScalingInput inputOfGroup(const std::vector<ChartRun>& runs, const core::analysis::ScalingGroup& group) {
    ScalingInput in;
    in.name = group.name;
    for (const std::size_t m : group.members) in.runs.push_back(runs[m]);
    in.points = group.input.runs;
    for (const std::size_t m : group.pointMembers) in.pointIds.push_back(runs[m].id);
    in.notes = group.input.notes;
    // A member without a point was left out by core's rules: the report gives it its row and the reason.
    for (const std::size_t m : group.members) {
        if (std::find(group.pointMembers.begin(), group.pointMembers.end(), m) != group.pointMembers.end()) continue;
        const auto& r = runs[m];
        const bool batchUnknown = r.batch <= 0 && !r.analysis->summary.batchKnown;
        in.leftOut.emplace_back(r.id, batchUnknown ? "batch size unknown (--batch N): tokens/s would be a guess"
                                                   : "no decode step found: no latency or throughput");
    }
    return in;
}

std::vector<ChartRun> chartRunsOf(const std::vector<RunRecord>& runs) {
    std::vector<ChartRun> charted;
    for (const auto& r : runs) {
        if (auto c = chartRunOf(r)) charted.push_back(std::move(*c));
    }
    return charted;
}

// The request of the group's runs made here, for the advice's memory fit (batch: the largest).
std::optional<RunRequest> fitRequestOf(const std::vector<RunRecord>& records, const ScalingInput& in) {
    std::optional<RunRequest> fit;
    for (const auto& r : records) {
        const bool member =
            std::any_of(in.runs.begin(), in.runs.end(), [&r](const ChartRun& c) { return c.id == r.id; });
        if (!member || r.request.backend == BackendKind::Imported || r.request.model.layers <= 0) continue;
        if (!fit) fit = r.request;
        fit->batch = std::max(fit->batch, r.request.batch);
    }
    return fit;
}

}  // namespace

std::optional<ChartRun> chartRunOf(const RunRecord& run) {
    if (run.status != RunStatus::Done || !run.trace || !run.analysis) return std::nullopt;
    ChartRun c;
    c.id = run.id;
    c.label = run.label();
    const bool imported = run.request.backend == BackendKind::Imported;
    // An imported run's TP and batch are what its trace says, read by core.
    c.gpus = imported ? 0 : run.request.tp;
    c.batch = imported ? 0 : run.request.batch;
    c.sweep = groupOf(run);
    c.trace = run.trace;
    c.analysis = run.analysis;
    return c;
}

ScalingInput scalingInputOf(std::vector<ChartRun> runs) {
    std::erase_if(runs, [](const ChartRun& r) { return !r.trace || !r.analysis; });
    const auto groups = groupsOf(runs);
    ScalingInput in = groups.groups.empty() ? ScalingInput{} : inputOfGroup(runs, groups.groups.front());
    in.runs = std::move(runs);
    in.notes.insert(in.notes.begin(), groups.notes.begin(), groups.notes.end());
    return in;
}

std::vector<ScalingInput> scalingGroupsOf(const std::vector<RunRecord>& runs) {
    const std::vector<ChartRun> charted = chartRunsOf(runs);
    std::vector<ScalingInput> out;
    for (const auto& group : groupsOf(charted).groups) {
        out.push_back(inputOfGroup(charted, group));
        out.back().fitRequest = fitRequestOf(runs, out.back());
    }
    return out;
}

ScalingInput scalingInputOf(const std::vector<RunRecord>& runs, RunId id) {
    std::vector<ScalingInput> groups = scalingGroupsOf(runs);
    if (groups.empty()) {
        ScalingInput none;
        // No finished run yet: the advice's memory fit still has the sweep's request.
        for (const auto& r : runs) {
            if (r.request.backend == BackendKind::Imported || r.request.model.layers <= 0) continue;
            if (!none.fitRequest) none.fitRequest = r.request;
            none.fitRequest->batch = std::max(none.fitRequest->batch, r.request.batch);
        }
        return none;
    }
    for (auto& g : groups) {
        if (std::any_of(g.runs.begin(), g.runs.end(), [id](const ChartRun& c) { return c.id == id; }))
            return std::move(g);
    }
    return std::move(groups.front());
}

QString notesText(const std::vector<std::string>& notes) {
    QStringList lines;
    for (const auto& n : notes) lines << QString::fromStdString(n);
    return lines.join(QLatin1Char('\n'));
}

}  // namespace tpscope::ui
