// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/report/report_runs.h"

#include <QFileInfo>

#include <algorithm>

#include "core/analysis/analysis.h"
#include "core/hw/catalog.h"
#include "core/sim/sweep.h"
#include "core/util/units.h"

namespace tpscope::ui {

namespace {

std::shared_ptr<const core::analysis::RunAnalysis> analyse(const core::Trace& trace) {
    return std::make_shared<const core::analysis::RunAnalysis>(core::analysis::analyzeTrace(trace));
}

QString runLabel(int tp, int batch) {
    return QStringLiteral("TP %1 · batch %2").arg(tp).arg(batch);
}

}  // namespace

core::Result<ReportRuns> simulatedReportRuns(const core::sim::SweepSpec& spec, const QString& title) {
    auto swept = core::sim::runSweep(spec);
    if (!swept) return swept.error();
    const core::sim::SweepResult& sweep = *swept;
    ReportRuns out;
    out.context.title = titleWithRuntimes(title, {spec.params.effectiveRuntime()});
    const auto& cl = spec.cluster;
    out.context.configuration
        << QStringLiteral("Model %1, %2, context %3, %4 decode steps, on %5×%6 %7 over %8.")
               .arg(QString::fromStdString(spec.model.name),
                    QString::fromStdString(std::string(core::toString(spec.dtype))))
               .arg(spec.contextLen)
               .arg(spec.tokens)
               .arg(cl.nodes)
               .arg(cl.gpusPerNode)
               .arg(QString::fromStdString(cl.gpu.name), QString::fromStdString(cl.intraFabric.name))
        << QStringLiteral("Host runtime %1: resources/runtime_profiles.json names the source of each of its numbers.")
               .arg(QString::fromLatin1(core::sim::toString(spec.params.effectiveRuntime())))
        << QStringLiteral("Every trace here is simulated by tpscope's discrete-event model (core::sim), not measured.");
    for (const auto& n : core::sim::sweepModelNotes(spec)) out.context.modelNotes << QString::fromStdString(n);
    RunRequest fit;
    fit.model = spec.model;
    fit.dtype = spec.dtype;
    fit.contextLen = spec.contextLen;
    fit.gpu = spec.cluster.gpu;
    fit.batch = spec.batches.empty() ? 1 : *std::max_element(spec.batches.begin(), spec.batches.end());
    out.fitRequest = fit;
    for (const auto& run : sweep.runs) {
        ChartRun r;
        r.label = runLabel(run.config.plan.tp, run.config.plan.batch);
        r.gpus = run.config.plan.tp;
        r.batch = run.config.plan.batch;
        r.trace = run.trace;
        r.analysis = analyse(*run.trace);
        r.id = static_cast<RunId>(out.runs.size() + 1);
        out.runs.push_back(r);
        out.allRuns.push_back(std::move(r));
    }
    for (const auto& sk : sweep.skipped) {
        // core's sweep skips only the configurations that do not fit memory
        out.context.notFitting << runLabel(sk.tp, sk.batch) + QStringLiteral(": ") +
                                      QString::fromStdString(sk.reason.message);
    }
    return out;
}

ScalingInput ReportRuns::input() const {
    ScalingInput in = scalingInputOf(runs);
    in.fitRequest = fitRequest;
    return in;
}

core::Result<ReportRuns> loadDefaultReportRuns() {
    auto catalog = core::Catalog::load();
    if (!catalog) return catalog.error();
    auto spec = core::sim::defaultSweepSpec(*catalog);
    if (!spec) return spec.error();
    return simulatedReportRuns(*spec, QStringLiteral("tpscope report: the embedded default sweep"));
}

core::Result<ReportRuns> loadReportRuns(const QStringList& files, const Services& services) {
    ReportRuns out;
    out.context.title = files.size() == 1
                            ? QStringLiteral("tpscope report: %1").arg(QFileInfo(files.front()).fileName())
                            : QStringLiteral("tpscope report: %1 files compared").arg(files.size());
    std::vector<RunRecord> records;
    for (const auto& file : files) {
        auto doc = services.open(file, TaskControl{}, {});
        if (!doc) return doc.error();
        out.context.configuration << QStringLiteral("%1: %2 run(s)%3")
                                         .arg(QFileInfo(file).fileName())
                                         .arg(doc->runs.size())
                                         .arg(doc->note.isEmpty() ? QString() : QStringLiteral(" (") + doc->note + ")");
        for (auto& record : doc->runs) {
            if (record.status != RunStatus::Done || !record.trace) {
                (record.status == RunStatus::DoesNotFit ? out.context.notFitting : out.context.failedRuns)
                    << record.label() + QStringLiteral(": ") +
                           (record.error.isEmpty() ? statusText(record.status) : record.error);
                continue;
            }
            const std::string origin = record.trace->metadataValue("generator");
            if (!origin.empty()) {
                out.context.configuration
                    << QStringLiteral("%1: trace made by %2").arg(record.label(), QString::fromStdString(origin));
            }
            // The loader analysed the run on its worker (deriveRunData); analyse only if it did not.
            if (!record.analysis) record.analysis = analyse(*record.trace);
            record.id = static_cast<RunId>(records.size() + 1);
            records.push_back(std::move(record));
        }
    }
    if (records.empty()) return out;
    std::vector<RunRequest> requests;
    requests.reserve(records.size());
    for (const auto& r : records) requests.push_back(r.request);
    out.context.modelNotes = weightTrafficNotes(requests);
    // One scaling group, as the window shows one: the first finished run's (core forms the groups).
    ScalingInput input = scalingInputOf(records, records.front().id);
    out.runs = std::move(input.runs);
    out.fitRequest = std::move(input.fitRequest);
    for (const auto& r : records) {
        if (auto c = chartRunOf(r)) out.allRuns.push_back(std::move(*c));
        const bool inGroup =
            std::any_of(out.runs.begin(), out.runs.end(), [&r](const ChartRun& c) { return c.id == r.id; });
        if (!inGroup) {
            out.context.configuration << QStringLiteral(
                                             "%1: another scaling group than the first run's (%2), not in "
                                             "this report")
                                             .arg(r.label(), QString::fromStdString(input.name));
        }
    }
    return out;
}

}  // namespace tpscope::ui
