// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/analysis/scaling_input.h"

#include <algorithm>
#include <map>
#include <set>

namespace tpscope::core::analysis {

namespace {

// The most common group size of the trace's all-reduces; 0 when none says.
int communicatorSize(const Trace& trace) {
    std::map<std::uint32_t, std::size_t> count;
    for (const auto& rank : trace.ranks) {
        for (const auto& stream : rank.streams) {
            const auto& ev = stream.events;
            for (std::size_t i = 0; i < ev.size(); ++i) {
                if (ev.kind(i) != EventKind::Collective) continue;
                const Payload& p = trace.payload(ev.payload(i));
                if (p.kind == PayloadKind::Collective && p.collective.op == CollectiveOp::AllReduce &&
                    p.collective.groupSize > 0) {
                    ++count[p.collective.groupSize];
                }
            }
        }
    }
    std::uint32_t best = 0;
    std::size_t bestCount = 0;
    for (const auto& [size, n] : count) {
        if (n > bestCount) {
            best = size;
            bestCount = n;
        }
    }
    return static_cast<int>(best);
}

std::string gpuOf(const Trace& trace) {
    std::string gpu = trace.metadataValue("gpu");
    if (gpu.empty() && !trace.ranks.empty()) gpu = trace.ranks.front().deviceName;
    return gpu;
}

// "" when every run has the same value (runs without one are skipped); else "label: value, ...".
std::string differing(const std::vector<MeasuredRun>& runs, const std::vector<std::string>& values) {
    std::set<std::string> distinct;
    for (const auto& v : values) {
        if (!v.empty()) distinct.insert(v);
    }
    if (distinct.size() <= 1) return {};
    std::string out;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        out += (i > 0 ? ", " : "") + runs[i].label + ": " + (values[i].empty() ? "?" : values[i]);
    }
    return out;
}

}  // namespace

TraceTp traceTp(const Trace& trace) {
    if (const int tp = metadataInt(trace, "tp"); tp > 0) return {tp, "metadata tp"};
    if (const int tp = communicatorSize(trace); tp > 0) return {tp, "communicator size"};
    if (const int tp = metadataInt(trace, "world_size"); tp > 0) return {tp, "world_size"};
    return {static_cast<int>(trace.ranks.size()), "ranks"};
}

Result<ScalingInput> buildScalingInput(const std::vector<MeasuredRun>& runs) {
    ScalingInput in;
    std::vector<std::string> models;
    std::vector<std::string> gpus;
    std::set<int> batches;
    std::map<std::string, std::size_t> tpSources;
    std::size_t assumedBatch = 0;
    for (const auto& r : runs) {
        if (r.trace == nullptr || r.analysis == nullptr) {
            return makeError(ErrorCode::InvalidArgument, "a run without a trace or analysis", r.label);
        }
        const TraceTp tp = r.tp > 0 ? TraceTp{r.tp, "given"} : traceTp(*r.trace);
        ++tpSources[tp.source];
        if (r.batch <= 0 && !r.analysis->summary.batchKnown) ++assumedBatch;
        in.runs.push_back(runPointOf(*r.trace, *r.analysis, r.label, tp.tp, r.batch));
        batches.insert(in.runs.back().batch);
        models.push_back(r.trace->metadataValue("model"));
        gpus.push_back(gpuOf(*r.trace));
    }
    if (const auto d = differing(runs, models); !d.empty()) {
        return makeError(ErrorCode::InvalidArgument,
                         "the runs are of different models (" + d + "): scaling compares one model", "scaling");
    }
    if (const auto d = differing(runs, gpus); !d.empty()) {
        return makeError(ErrorCode::InvalidArgument,
                         "the runs ran on different GPUs (" + d + "): scaling compares one GPU type", "scaling");
    }
    std::string sources;
    for (const auto& [source, n] : tpSources) {
        sources += (sources.empty() ? "" : ", ") + std::to_string(n) + " from " + source;
    }
    in.notes.push_back("TP per run: " + sources);
    if (std::all_of(models.begin(), models.end(), [](const std::string& m) { return m.empty(); }) && runs.size() > 1) {
        in.notes.emplace_back("no trace names its model: the runs are assumed to be of one model");
    }
    if (batches.size() > 1) {
        in.notes.push_back("the runs differ in batch (" + std::to_string(batches.size()) +
                           " batches): one curve per batch, each against its own smallest TP");
    }
    if (assumedBatch > 0) {
        in.notes.push_back(std::to_string(assumedBatch) +
                           " run(s) of unknown batch: assumed 1 (give --batch, or traces with step annotations)");
    }
    return in;
}

namespace {

// The points of one group's members, with the group's notes.
void fillGroupPoints(const std::vector<MeasuredRun>& runs, ScalingGroup& group, const ScalingGroupOptions& options) {
    std::size_t assumedBatch = 0;
    std::set<int> batches;
    for (const std::size_t m : group.members) {
        const MeasuredRun& r = runs[m];
        if (options.withRunNotes) {
            for (const auto& note : r.analysis->notes) group.input.notes.push_back(r.label + ": " + note);
        }
        const bool batchUnknown = r.batch <= 0 && !r.analysis->summary.batchKnown;
        if (options.leaveOutGuesses && batchUnknown) {
            group.input.notes.push_back(r.label +
                                        ": left out of scaling, cost and advice: its batch size is unknown, so its "
                                        "tokens/s would be a guess");
            continue;
        }
        if (options.leaveOutGuesses && r.analysis->summary.latencyMeanNs <= 0) {
            group.input.notes.push_back(r.label +
                                        ": left out of scaling, cost and advice: no decode step, no throughput");
            continue;
        }
        if (batchUnknown) ++assumedBatch;
        group.input.runs.push_back(runPointOf(*r.trace, *r.analysis, r.label, r.tp, r.batch));
        group.pointMembers.push_back(m);
        batches.insert(group.input.runs.back().batch);
    }
    if (batches.size() > 1 && !options.leaveOutGuesses) {
        group.input.notes.push_back("the runs differ in batch (" + std::to_string(batches.size()) +
                                    " batches): one curve per batch, each against its own smallest TP");
    }
    if (assumedBatch > 0) {
        group.input.notes.push_back(
            std::to_string(assumedBatch) +
            " run(s) of unknown batch: assumed 1 (give --batch, or traces with step annotations)");
    }
}

}  // namespace

ScalingGroups groupScalingRuns(const std::vector<MeasuredRun>& runs, const ScalingGroupOptions& options) {
    ScalingGroups out;
    struct Key {
        std::string group, gpu, model;
    };
    std::vector<Key> keys;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const MeasuredRun& r = runs[i];
        if (r.trace == nullptr || r.analysis == nullptr) continue;
        const Key key{r.group, gpuOf(*r.trace), r.trace->metadataValue("model")};
        // A run naming no model joins the first group of its GPU (and caller's group); a group whose
        // runs named none so far takes the first model named.
        std::size_t g = 0;
        for (; g < keys.size(); ++g) {
            if (keys[g].group != key.group || keys[g].gpu != key.gpu) continue;
            if (key.model.empty() || keys[g].model.empty() || keys[g].model == key.model) break;
        }
        if (g == keys.size()) {
            keys.push_back(key);
            ScalingGroup group;
            group.name = (key.model.empty() ? std::string("unnamed model") : key.model) + " on " +
                         (key.gpu.empty() ? std::string("an unnamed GPU") : key.gpu) +
                         (key.group.empty() ? std::string() : " (" + key.group + ")");
            out.groups.push_back(std::move(group));
        } else if (keys[g].model.empty() && !key.model.empty()) {
            keys[g].model = key.model;
            out.groups[g].name = key.model + " on " + (key.gpu.empty() ? std::string("an unnamed GPU") : key.gpu) +
                                 (key.group.empty() ? std::string() : " (" + key.group + ")");
        }
        out.groups[g].members.push_back(i);
    }
    for (auto& group : out.groups) fillGroupPoints(runs, group, options);
    if (out.groups.size() > 1) {
        std::string split =
            "the runs form " + std::to_string(out.groups.size()) + " scaling groups (one model on one GPU type each): ";
        for (std::size_t g = 0; g < out.groups.size(); ++g) {
            split += (g > 0 ? "; " : "") + out.groups[g].name + ": ";
            for (std::size_t k = 0; k < out.groups[g].members.size(); ++k) {
                split += (k > 0 ? ", " : "") + runs[out.groups[g].members[k]].label;
            }
        }
        out.notes.push_back(std::move(split));
    }
    return out;
}

const ScalingGroup* groupOfRun(const ScalingGroups& groups, std::size_t index) {
    for (const auto& g : groups.groups) {
        if (std::find(g.members.begin(), g.members.end(), index) != g.members.end()) return &g;
    }
    return nullptr;
}

}  // namespace tpscope::core::analysis
