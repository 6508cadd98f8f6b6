// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/jobs/io_services.h"

#include <QFileInfo>

#include <algorithm>
#include <charconv>
#include <future>

#include "core/hw/catalog.h"
#include "core/io/import/trace_reader.h"
#include "core/io/sqlite_db.h"
#include "core/io/workspace/run_info.h"
#include "core/io/workspace/stored_analysis.h"
#include "core/io/workspace/workspace_schema.h"
#include "core/sim/allreduce_engine.h"
#include "core/sim/runtime_profile.h"
#include "core/util/freed_memory.h"
#include "core/util/units.h"
#include "ui/logging.h"
#include "ui/timeline/timeline_data.h"

namespace tpscope::ui {

namespace {

std::string_view backendName(BackendKind k) {
    switch (k) {
        case BackendKind::SimulatedCluster:
            return "simulated";
        case BackendKind::LocalGpus:
            return "local";
        case BackendKind::Imported:
            return "imported";
    }
    return "imported";
}

std::string specValue(const core::RunInfo& info, std::string_view key) {
    for (const auto& [k, v] : info.spec) {
        if (k == key) return v;
    }
    return {};
}

template <typename T>
T specNumber(const core::RunInfo& info, std::string_view key, T fallback) {
    const std::string v = specValue(info, key);
    T out = fallback;
    if (v.empty()) return fallback;
    if constexpr (std::is_floating_point_v<T>) {
        // Not std::stod: it follows LC_NUMERIC, which Qt sets from the user's locale.
        double d = 0;
        return core::parseDouble(v, d) ? static_cast<T>(d) : fallback;
    } else {
        const auto r = std::from_chars(v.data(), v.data() + v.size(), out);
        return r.ec == std::errc() ? out : fallback;
    }
}

bool isWorkspaceFile(const std::string& path) {
    auto db = core::SqliteDb::open(path, core::SqliteDb::Mode::ReadOnly);
    return db && core::isWorkspaceDatabase(*db);
}

QString importNote(const core::ImportStats& stats) {
    if (stats.problemCount() == 0) return {};
    QStringList parts;
    for (const auto& c : stats.counters()) {
        if (c.problem && c.value > 0)
            parts << QStringLiteral("%1 %2").arg(c.value).arg(
                QString::fromUtf8(c.label.data(), static_cast<int>(c.label.size())));
    }
    return QStringLiteral("import repaired or skipped: ") + parts.join(QStringLiteral(", "));
}

}  // namespace

core::RunInfo runInfoOf(const RunRecord& run) {
    const RunRequest& r = run.request;
    core::RunInfo info =
        core::makeRunInfo(r.plan(), r.tokens, std::string(backendName(r.backend)), r.gpu.id, r.fabric.id);
    info.name = run.label().toStdString();
    info.spec.insert(info.spec.end(), {{"nodes", std::to_string(r.nodes)},
                                       {"gpus_per_node", std::to_string(r.gpusPerNode)},
                                       {"overlap", r.overlap ? "1" : "0"},
                                       {"runtime", std::string(core::sim::toString(r.runtime))},
                                       {"cuda_graphs", r.runtime == core::sim::Runtime::CudaGraphs ? "1" : "0"},
                                       {"allreduce_engine", std::string(core::sim::toString(r.allReduceEngine))},
                                       {"price_per_gpu_hour", core::formatShortest(r.pricePerGpuHour)},
                                       {"seed", std::to_string(r.seed)},
                                       {"inter_fabric", r.interFabric ? r.interFabric->id : std::string()},
                                       {"source", run.source.toStdString()},
                                       {"sweep", std::to_string(run.sweep)}});
    if (!run.trace && endedWithReason(run.status)) {
        info.spec.emplace_back("status", run.status == RunStatus::DoesNotFit ? "does_not_fit" : "failed");
        info.spec.emplace_back("error", run.error.toStdString());
    }
    return info;
}

RunRecord runRecordOf(const core::Run& run, const QString& workspacePath) {
    static const auto catalog = core::Catalog::load({});
    const core::RunInfo& info = run.info;
    RunRecord rec;
    RunRequest& r = rec.request;
    const std::string backend = specValue(info, "backend");
    r.backend = backend == "simulated" ? BackendKind::SimulatedCluster
                                       : (backend == "local" ? BackendKind::LocalGpus : BackendKind::Imported);
    r.model.id = info.model;
    r.model.name = specValue(info, "model.name");
    r.model.hidden = specNumber<std::int64_t>(info, "model.hidden", 0);
    r.model.ffn = specNumber<std::int64_t>(info, "model.ffn", 0);
    r.model.heads = specNumber<std::int64_t>(info, "model.heads", 0);
    r.model.kvHeads = specNumber<std::int64_t>(info, "model.kv_heads", 0);
    r.model.headDim = specNumber<std::int64_t>(info, "model.head_dim", 0);
    r.model.layers = specNumber<std::int64_t>(info, "model.layers", 0);
    r.model.vocab = specNumber<std::int64_t>(info, "model.vocab", 0);
    // MoE experts, routing skew and expert placement, MLA dims, weight formats: a MoE run reopens as MoE.
    core::readModelExtras(info, r.model, &r.moeParallel);
    if (catalog) {
        if (auto g = catalog->gpu(info.gpu)) r.gpu = *g;
        if (auto f = catalog->fabric(info.fabric)) r.fabric = *f;
        if (auto inter = catalog->fabric(specValue(info, "inter_fabric"))) r.interFabric = *inter;
    }
    r.gpu.id = info.gpu;
    r.fabric.id = info.fabric;
    r.tp = info.tp;
    r.batch = info.batch;
    r.tokens = static_cast<int>(info.tokens);
    r.dtype = core::parseDtype(specValue(info, "dtype")).value_or(core::Dtype::Fp16);
    r.contextLen = specNumber<int>(info, "context_len", r.contextLen);
    r.nodes = specNumber<int>(info, "nodes", r.nodes);
    r.gpusPerNode = specNumber<int>(info, "gpus_per_node", r.gpusPerNode);
    r.overlap = specValue(info, "overlap") == "1";
    // The runtime as the GUI and the CLI write it (issue 26); an older workspace has only the
    // cuda_graphs switch (unset: the eager launches every older simulator modelled).
    std::string runtime = specValue(info, "runtime");
    if (runtime.empty() && run.trace) runtime = run.trace->metadataValue("runtime");
    r.runtime = core::sim::parseRuntime(runtime).value_or(
        specValue(info, "cuda_graphs") == "1" ? core::sim::Runtime::CudaGraphs : core::sim::Runtime::PytorchEager);
    // The GUI writes the engine into the spec; a CLI-made workspace has it in the simulated trace's metadata.
    std::string engine = specValue(info, "allreduce_engine");
    if (engine.empty() && run.trace) engine = run.trace->metadataValue("allreduce_engine");
    r.allReduceEngine = core::sim::parseAllReduceEngine(engine).value_or(core::sim::AllReduceEngine::Nccl);
    r.pricePerGpuHour = specNumber<double>(info, "price_per_gpu_hour", 0.0);
    r.seed = specNumber<std::uint64_t>(info, "seed", r.seed);
    const std::string source = specValue(info, "source");
    rec.source = source.empty() ? workspacePath : QString::fromStdString(source);
    // The group the run was made in (issue 28): -1 when the workspace does not say (the CLI's, an
    // older GUI's); assignGroups then infers it.
    rec.sweep = specNumber<int>(info, "sweep", -1);
    if (const std::string status = specValue(info, "status"); status == "failed" || status == "does_not_fit") {
        // Kept with its reason (issue 45): the runs table shows what it showed when it was saved.
        rec.status = status == "failed" ? RunStatus::Failed : RunStatus::DoesNotFit;
        rec.error = QString::fromStdString(specValue(info, "error"));
        return rec;
    }
    rec.status = RunStatus::Done;
    rec.progress = 1;
    rec.trace = run.trace;
    return rec;
}

void assignGroups(std::vector<RunRecord>& runs) {
    // Runs of one sweep differ only in TP and batch: everything else of the request is the key.
    std::vector<std::string> keys;
    int next = 1;
    for (const auto& r : runs) next = std::max(next, r.sweep + 1);
    std::vector<int> groups;
    for (auto& r : runs) {
        if (r.sweep >= 0) continue;
        if (r.request.backend == BackendKind::Imported) {
            r.sweep = 0;
            continue;
        }
        const RunRequest& q = r.request;
        const std::string key =
            std::string(backendName(q.backend)) + '|' + q.model.id + '|' + std::string(core::toString(q.dtype)) + '|' +
            std::to_string(q.contextLen) + '|' + std::to_string(q.tokens) + '|' + q.gpu.id + '|' + q.fabric.id + '|' +
            (q.interFabric ? q.interFabric->id : std::string()) + '|' + std::to_string(q.nodes) + '|' +
            std::to_string(q.gpusPerNode) + '|' + (q.overlap ? "o" : "-") +
            std::string(core::sim::toString(q.runtime)) + '|' + std::string(core::sim::toString(q.allReduceEngine));
        const auto it = std::find(keys.begin(), keys.end(), key);
        if (it == keys.end()) {
            keys.push_back(key);
            groups.push_back(next++);
            r.sweep = groups.back();
        } else {
            r.sweep = groups[static_cast<std::size_t>(it - keys.begin())];
        }
    }
}

namespace {

// The first run's stored opening excerpt (schema 3, core/analysis/opening_excerpt.h), handed to preview
// before the events are read: a few milliseconds against seconds for the events of a large run. A
// file without one says nothing; a damaged one is logged and the events are read as they would be.
void previewExcerpt(const QString& path, const OpenPreviewFn& preview) {
    const std::string p = path.toStdString();
    auto excerpt = core::loadWorkspaceExcerpt(p, 0);
    if (!excerpt) {
        qCWarning(lcDocument).noquote() << "no opening excerpt shown:"
                                        << QString::fromStdString(excerpt.error().describe());
        return;
    }
    if (!excerpt->has_value()) return;
    auto infos = core::listWorkspaceRuns(p);
    if (!infos || infos->empty()) return;
    RunRecord run = runRecordOf(core::Run{infos->front(), (*excerpt)->events, std::nullopt}, path);
    run.timeline = TimelineData::buildExcerptRows(**excerpt);
    qCInfo(lcDocument).noquote() << "read the opening excerpt," << run.trace->eventCount() << "of"
                                 << (*excerpt)->traceEventCount << "events;" << memoryUseText();
    preview(run);
}

// The analysis stored with run `index` of the workspace (core/io/workspace/stored_analysis.h), as
// core::loadStoredAnalysis read it in place (`stored`): taken when this build wrote it for the run's
// batch, which saves the open the analysis (half its time at 100 M events). Returns the stored clock
// estimate for the timeline; nullopt, the run left unanalysed, when there is none to take. A damaged one
// is logged and the run analysed as if none were stored: the trace is what counts.
std::optional<core::analysis::ClockEstimate> takeStoredAnalysis(
    RunRecord& run, std::size_t index, core::Result<std::optional<core::StoredAnalysis>> stored) {
    if (!stored) {
        qCWarning(lcDocument).noquote() << "run" << index + 1
                                        << "analysed again:" << QString::fromStdString(stored.error().describe());
        return std::nullopt;
    }
    if (!stored->has_value()) return std::nullopt;
    run.analysis = std::make_shared<const core::analysis::RunAnalysis>(std::move((*stored)->analysis));
    qCInfo(lcDocument).noquote() << "took the stored analysis of run" << index + 1 << ";" << memoryUseText();
    return std::move((*stored)->clock);
}

// Each rank's exposed-communication intervals stored with run `index`'s analysis
// (core::loadStoredExposedComm), so that the timeline's rows copy them back instead of walking every
// kernel again (at 100 M events the largest part of the rows). nullopt when this build stored none for
// the run; damaged ones are logged and the rows derived from the trace.
std::optional<core::StoredExposedComm> takeStoredExposedComm(const RunRecord& run, const std::string& path,
                                                             std::size_t index) {
    if (!run.trace) return std::nullopt;
    const core::StoredAnalysisKey key{core::storedAnalysisBuild(), run.request.batch};
    auto stored = core::loadStoredExposedComm(path, index, *run.trace, key);
    if (!stored) {
        qCWarning(lcDocument).noquote() << "run" << index + 1 << "exposed communication derived again:"
                                        << QString::fromStdString(stored.error().describe());
        return std::nullopt;
    }
    return std::move(*stored);
}

}  // namespace

core::Result<OpenedDocument> openWithIo(const QString& path, const TaskControl& control, const OpenPreviewFn& preview) {
    const std::string p = path.toStdString();
    const QFileInfo info(path);
    // A device such as /dev/zero reads as an endless or empty stream: name what it is instead.
    if (info.exists() && !info.isFile() && !info.isDir()) {
        return core::makeError(core::ErrorCode::WrongFormat, "not a regular file or folder (a device, socket or pipe)",
                               p);
    }
    // Reading is [0, 0.5] of the bar, the analyses (as long again at 100 M events) the rest.
    TaskControl reading{nullptr, control.cancel};
    if (control.progress) reading.progress = [&control](double f) { control.report(f / 2); };
    if (isWorkspaceFile(p)) {
        if (preview) previewExcerpt(path, preview);
        core::WorkspaceOptions options;
        options.control = reading;
        options.readAnalysisCache = false;  // taken in place, run by run (takeStoredAnalysis)
        core::Workspace ws;
        TPSCOPE_TRY_ASSIGN(ws, core::loadWorkspace(p, options));
        OpenedDocument doc;
        doc.path = path;
        doc.isWorkspace = true;
        doc.settings = std::move(ws.settings);
        for (const auto& run : ws.runs) doc.runs.push_back(runRecordOf(run, path));
        assignGroups(doc.runs);
        // The reading threads' buffers are freed by now, but kept in their arenas (up to 0.9 GB at 100 M
        // events): handed back before the timeline rows and the analysis allocate.
        core::returnFreedMemory();
        qCInfo(lcDocument).noquote() << "read" << doc.runs.size() << "runs;" << memoryUseText();
        for (std::size_t i = 0; i < doc.runs.size(); ++i) {
            if (control.cancelled()) return core::makeError(core::ErrorCode::Cancelled, "opening cancelled", p);
            if (doc.runs[i].trace) {
                // The stored analysis is read while the timeline's rows are built: neither needs the
                // other, and together they keep both cores busy (at 100 M events each alone leaves one
                // idle at times). The first run's rows are shown as soon as they are built.
                RunRecord& run = doc.runs[i];
                const core::StoredAnalysisKey key{core::storedAnalysisBuild(), run.request.batch};
                auto stored = std::async(std::launch::async, [&p, i, trace = run.trace, key] {
                    return core::loadStoredAnalysis(p, i, *trace, key);
                });
                previewRun(run, i == 0 ? preview : OpenPreviewFn(), takeStoredExposedComm(run, p, i));
                auto clock = takeStoredAnalysis(run, i, stored.get());
                deriveRunData(doc.runs[i], std::move(clock));
            }
            qCInfo(lcDocument).noquote() << "analysed run" << i + 1 << "of" << doc.runs.size() << ";"
                                         << memoryUseText();
            control.report(0.5 + 0.5 * static_cast<double>(i + 1) / static_cast<double>(doc.runs.size()));
        }
        return doc;
    }
    core::ReadOptions options;
    options.control = reading;
    core::ImportStats stats;
    std::shared_ptr<core::Trace> trace;
    TPSCOPE_TRY_ASSIGN(trace, core::readTrace(p, options, &stats));
    core::returnFreedMemory();
    if (trace->ranks.empty() || trace->eventCount() == 0) {
        // Nothing to show: a "done" run with TP 0 and an empty timeline would hide the problem.
        const QString note = importNote(stats);
        return core::makeError(
            core::ErrorCode::WrongFormat,
            "no GPU events in the trace" + (note.isEmpty() ? std::string() : " (" + note.toStdString() + ")"), p);
    }
    OpenedDocument doc = importedTraceDocument(path, std::move(trace), preview);
    control.report(1);
    doc.note = importNote(stats);
    return doc;
}

bool isSavedRun(const RunRecord& run) {
    // A pending or cancelled run has nothing to keep; a failed one keeps its reason.
    return run.trace != nullptr || endedWithReason(run.status);
}

std::size_t savedRunCount(const std::vector<RunRecord>& runs) {
    return static_cast<std::size_t>(std::count_if(runs.begin(), runs.end(), isSavedRun));
}

namespace {

// The run's analysis and the timeline's clock estimate as a stored analysis, so that reopening the
// workspace skips the analysis; nothing for a run not analysed yet or a build that stores none.
std::optional<std::string> storedAnalysisOf(const RunRecord& run) {
    const core::StoredAnalysisKey key{core::storedAnalysisBuild(), run.request.batch};
    if (key.build.empty() || !run.trace || !run.analysis || !run.timeline || !run.timeline->hasAnalysis()) {
        return std::nullopt;
    }
    // The timeline's exposed communication as it holds it (the rows of the same trace): not derived again.
    std::vector<const core::EventColumns*> exposed;
    for (const auto& rank : run.timeline->ranks()) exposed.push_back(&rank.exposed);
    auto blob = core::encodeStoredAnalysis(*run.analysis, run.timeline->clock(), *run.trace, key, 0, exposed);
    if (!blob) {
        qCWarning(lcDocument).noquote() << "analysis not stored with" << run.label() << ":"
                                        << QString::fromStdString(blob.error().describe());
        return std::nullopt;
    }
    return std::move(*blob);
}

}  // namespace

core::Status saveWithIo(const QString& path, const WorkspaceSnapshot& snapshot, const TaskControl& control) {
    core::Workspace ws;
    for (const auto& run : snapshot.runs) {
        if (control.cancelled()) {
            return core::makeError(core::ErrorCode::Cancelled, "save cancelled", path.toStdString());
        }
        if (isSavedRun(run)) ws.runs.push_back(core::Run{runInfoOf(run), run.trace, storedAnalysisOf(run)});
    }
    ws.settings = snapshot.settings;
    core::WorkspaceOptions options;
    options.control = control;
    options.keepBackup = true;
    return core::saveWorkspace(ws, path.toStdString(), options);
}

core::Status saveWithIo(const QString& path, const std::vector<RunRecord>& runs, const TaskControl& control) {
    return saveWithIo(path, WorkspaceSnapshot{runs, {}}, control);
}

}  // namespace tpscope::ui
