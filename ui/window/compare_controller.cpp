// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/window/compare_controller.h"

#include <QAction>

#include <algorithm>

#include "core/analysis/analysis.h"
#include "core/hw/catalog.h"
#include "core/sim/whatif_report.h"
#include "ui/charts/charts_controller.h"
#include "ui/compare/compare_view.h"
#include "ui/document/run_document.h"
#include "ui/jobs/services.h"
#include "ui/report/compare_report.h"
#include "ui/window/tab_host.h"

namespace tpscope::ui {

namespace {

core::TraceOrigin originOf(const RunRecord& r) {
    if (r.trace && r.trace->origin != core::TraceOrigin::Unknown) return r.trace->origin;
    switch (r.request.backend) {
        case BackendKind::SimulatedCluster:
            return core::TraceOrigin::Simulated;
        case BackendKind::LocalGpus:
            return core::TraceOrigin::Captured;
        case BackendKind::Imported:
            return core::TraceOrigin::Imported;
    }
    return core::TraceOrigin::Unknown;
}

bool isMeasured(const RunRecord& r) {
    return isMeasuredOrigin(originOf(r));
}

// What the run is, in its Compare title: measured, simulated (on what) or predicted.
QString compareLabel(const RunRecord& r) {
    switch (originOf(r)) {
        case core::TraceOrigin::Captured:
        case core::TraceOrigin::Imported:
            return QStringLiteral("measured · %1").arg(r.label());
        case core::TraceOrigin::Simulated: {
            // A run simulated here names its hardware; an opened simulated file says it in its name.
            const std::string gpu = r.request.gpu.id, fabric = r.request.fabric.id;
            return QStringLiteral("simulated · %1%2")
                .arg(r.label(), gpu.empty() || fabric.empty()
                                    ? QString()
                                    : QStringLiteral(" · %1 · %2")
                                          .arg(QString::fromStdString(gpu), QString::fromStdString(fabric)));
        }
        case core::TraceOrigin::Predicted:
            return r.label();
        default:
            return r.label();
    }
}

bool isFinished(const RunRecord* r) {
    return r != nullptr && r->status == RunStatus::Done && r->trace && r->analysis;
}

}  // namespace

CompareController::CompareController(TabHost& host, const ChartsController& prices, QObject* parent)
    : QObject(parent), m_host(host), m_prices(prices) {
    m_view = new CompareView(m_host.dialogParent());
    m_host.addViewTab(m_view);

    m_compare = new QAction(tr("&Compare selected runs"), this);
    m_compare->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_K));
    m_compare->setToolTip(tr("Select 2 to 4 runs (Ctrl+click) and compare them side by side, aligned by layer"));
    m_simulate = new QAction(tr("&Simulate this configuration…"), this);
    m_simulate->setToolTip(
        tr("Simulate the captured or imported run's model, TP, batch and context on the catalog's GPU and fabric, "
           "and compare measured against simulated"));
    m_whatIf = new QAction(tr("&What if on…"), this);
    m_whatIf->setToolTip(tr("Replay the run on another fabric (or TP degree) and compare it with the prediction"));
    connect(m_compare, &QAction::triggered, this, &CompareController::compareSelected);
    connect(m_simulate, &QAction::triggered, this, &CompareController::simulateDialog);
    connect(m_whatIf, &QAction::triggered, this, &CompareController::whatIfDialog);

    auto* doc = m_host.document();
    connect(doc, &RunDocument::runChanged, this, &CompareController::updateActions);
    connect(doc, &RunDocument::runRemoved, this, [this](RunId id) {
        if (m_view->showsRun(id))
            m_view->clear(
                tr("<h3>A compared run was removed</h3><p>Select runs and press "
                   "<b>Compare</b> again.</p>"));
    });
    connect(doc, &RunDocument::reset, this,
            [this] { m_view->clear(tr("<h3>Compare runs</h3><p>Select 2 to 4 runs and press <b>Compare</b>.</p>")); });
    updateActions();
}

CompareController::~CompareController() {
    // The replay's worker holds its own copies, never this: cancel, do not wait.
    cancelWhatIf();
}

void CompareController::cancelWhatIf() {
    m_whatIfJob.abandon();
    m_whatIfJob = {};
}

RunId CompareController::singleSelectedRun() const {
    const auto ids = m_host.selectedRuns();
    if (ids.size() == 1) return ids.front();
    return ids.empty() ? m_host.currentRun() : RunId::None;
}

void CompareController::updateActions() {
    const auto ids = m_host.selectedRuns();
    const auto* doc = m_host.document();
    const bool allFinished = std::all_of(ids.begin(), ids.end(), [doc](RunId id) { return isFinished(doc->run(id)); });
    m_compare->setEnabled(ids.size() >= CompareView::kMinRuns && ids.size() <= CompareView::kMaxRuns && allFinished);
    const RunRecord* one = doc->run(singleSelectedRun());
    m_simulate->setEnabled(isFinished(one) && isMeasured(*one) && m_pending == std::nullopt);
    m_whatIf->setEnabled(isFinished(one) && !isWhatIfRunning());
}

void CompareController::fail(const QString& message) {
    m_host.showError(message);
    Q_EMIT comparisonFailed(message);
}

core::Result<CompareController::Selection> CompareController::gather(const std::vector<RunId>& ids) const {
    const auto* doc = m_host.document();
    Selection out;
    std::vector<core::TraceOrigin> origins;
    for (const RunId id : ids) {
        const RunRecord* r = doc->run(id);
        if (r == nullptr) return core::makeError(core::ErrorCode::InvalidArgument, "a selected run is gone");
        if (!isFinished(r)) {
            return core::makeError(core::ErrorCode::InvalidArgument,
                                   "run '" + r->label().toStdString() + "' has not finished: nothing to compare yet");
        }
        out.runs.push_back({id, compareLabel(*r), r->trace, r->timeline, r->analysis});
        origins.push_back(originOf(*r));
    }
    out.residual = residualPairFor(origins);
    return out;
}

ReportPages CompareController::reportPages() const {
    // What the Compare tab shows (issue 45 §2): its runs in its order (the baseline first) and its
    // aligned layer, not the runs table's selection.
    std::vector<RunId> ids;
    for (const auto& run : m_view->runs()) ids.push_back(run.id);
    if (ids.size() < CompareView::kMinRuns || ids.size() > CompareView::kMaxRuns) return {};
    auto selection = gather(ids);
    if (!selection) return {};
    return [selection = std::move(*selection), layer = m_view->alignedLayer()](ReportPdf& pdf) {
        // A view of its own at a page's proportions: the on-screen tab's layout stays as it is.
        CompareView view;
        view.resize(1600, 1000);
        if (!view.setRuns(selection.runs, selection.residual).ok()) return;
        if (layer >= 0) view.alignOnLayer(layer);
        addComparisonPages(pdf, view);
    };
}

core::Status CompareController::compare(const std::vector<RunId>& ids) {
    Selection selection;
    TPSCOPE_TRY_ASSIGN(selection, gather(ids));
    TPSCOPE_TRY(m_view->setRuns(std::move(selection.runs), selection.residual));
    m_host.showTab(m_view);
    Q_EMIT comparisonShown();
    return core::Ok{};
}

void CompareController::compareSelected() {
    if (auto status = compare(m_host.selectedRuns()); !status) {
        fail(tr("Cannot compare: %1").arg(QString::fromStdString(status.error().message)));
    }
}

core::Status CompareController::simulateConfiguration(RunId measured, const RunConfigChoice& choice) {
    const RunRecord* m = m_host.document()->run(measured);
    if (!isFinished(m)) return core::makeError(core::ErrorCode::InvalidArgument, "the run has not finished");
    if (m_pending) return core::makeError(core::ErrorCode::InvalidArgument, "a simulation for Compare is running");
    const core::Catalog& catalog = m_host.catalog();
    RunRequest r;
    TPSCOPE_TRY_ASSIGN(r.model, chosenModel(choice, catalog));
    TPSCOPE_TRY_ASSIGN(r.gpu, catalog.gpu(choice.gpuId));
    TPSCOPE_TRY_ASSIGN(r.fabric, catalog.fabric(choice.fabricId));
    if (r.fabric.maxGpus > 0 && choice.tp > r.fabric.maxGpus) {
        return core::makeError(core::ErrorCode::InvalidArgument,
                               "TP " + std::to_string(choice.tp) + " needs more GPUs than one " + r.fabric.id +
                                   " node connects (" + std::to_string(r.fabric.maxGpus) + ")");
    }
    r.backend = BackendKind::SimulatedCluster;
    r.tp = choice.tp;
    r.batch = choice.batch;
    r.contextLen = choice.contextLen;
    r.tokens = choice.tokens;
    r.dtype = core::parseDtype(m->trace->metadataValue("dtype")).value_or(m->request.dtype);
    r.nodes = 1;
    r.gpusPerNode = choice.tp;
    r.pricePerGpuHour = m_prices.pricePerGpuHour();
    SweepRequest sweep;
    sweep.base = r;
    sweep.tps = {choice.tp};
    sweep.batches = {choice.batch};
    const auto ids = m_host.startSweepRequest(sweep);
    if (ids.size() != 1) {
        return core::makeError(core::ErrorCode::InvalidArgument, "a sweep is running: wait for it or cancel it");
    }
    m_pending = PendingSimulation{measured, ids.front()};
    updateActions();
    return core::Ok{};
}

void CompareController::onSweepFinished() {
    if (!m_pending) return;
    const PendingSimulation pending = *m_pending;
    m_pending.reset();
    updateActions();
    const RunRecord* sim = m_host.document()->run(pending.simulated);
    if (!isFinished(sim)) {
        fail(tr("The simulation did not finish%1")
                 .arg(sim != nullptr && !sim->error.isEmpty() ? QStringLiteral(": ") + sim->error : QString()));
        return;
    }
    if (auto status = compare({pending.measured, pending.simulated}); !status) {
        fail(tr("Cannot compare: %1").arg(QString::fromStdString(status.error().message)));
    }
}

core::Status CompareController::whatIf(RunId run, const RunConfigChoice& choice) {
    const RunRecord* m = m_host.document()->run(run);
    if (!isFinished(m)) return core::makeError(core::ErrorCode::InvalidArgument, "the run has not finished");
    if (isWhatIfRunning()) return core::makeError(core::ErrorCode::InvalidArgument, "a what-if replay is running");
    const core::Catalog& catalog = m_host.catalog();
    core::sim::WhatIfOptions options;
    TPSCOPE_TRY_ASSIGN(options.fabric, catalog.fabric(choice.fabricId));
    // The engine the trace's all-reduces ran on, as `tpscope-cli whatif` (default NCCL).
    if (const auto engine = core::sim::parseAllReduceEngine(m->trace->metadataValue("allreduce_engine")))
        options.engine = *engine;
    const int ranks = static_cast<int>(m->trace->ranks.size());
    if (choice.tp > 0 && choice.tp != ranks) {
        core::PlanConfig measured;
        TPSCOPE_TRY_ASSIGN(measured.model, chosenModel(choice, catalog));
        measured.tp = ranks;
        measured.batch = choice.batch;
        measured.contextLen = choice.contextLen;
        measured.dtype = core::parseDtype(m->trace->metadataValue("dtype")).value_or(core::Dtype::Fp16);
        core::GpuSpec gpu;
        TPSCOPE_TRY_ASSIGN(gpu, catalog.gpu(choice.gpuId));
        options.tp = choice.tp;
        TPSCOPE_TRY_ASSIGN(options.scaling, core::sim::tpKernelScaling(measured, choice.tp, gpu));
    }
    RunRecord base;
    base.request = m->request;
    base.request.backend = BackendKind::Imported;  // not a simulation of the cluster: a replay of this run
    base.request.fabric = options.fabric;
    base.request.tp = options.tp > 0 ? options.tp : ranks;
    base.source = QStringLiteral("what-if: %1 on %2%3 (predicted)")
                      .arg(m->label(), QString::fromStdString(options.fabric.id),
                           options.tp > 0 ? QStringLiteral(" at TP %1").arg(options.tp) : QString());
    base.source.replace(QLatin1Char('/'), QLatin1Char('_'));  // the label is the source's last path part
    if (!m_host.services().whatIf) return core::makeError(core::ErrorCode::Unsupported, "no what-if service");
    JobHandlers<RunRecord> handlers;
    handlers.result = [this, run](RunRecord record) { onWhatIfDone(run, std::move(record)); };
    handlers.failed = [this, run](const core::Error& error) { onWhatIfDone(run, error); };
    m_whatIfJob = startJob<RunRecord>(
        this, "what-if replay",
        [replay = m_host.services().whatIf, trace = m->trace, options, base](const JobContext<>& job) {
            return replay(trace, options, base, job.control);
        },
        std::move(handlers));
    updateActions();
    return core::Ok{};
}

void CompareController::onWhatIfDone(RunId measured, const core::Result<RunRecord>& outcome) {
    m_whatIfJob = {};
    updateActions();
    if (!outcome) {
        fail(tr("What-if replay failed: %1").arg(QString::fromStdString(outcome.error().describe())));
        return;
    }
    if (m_host.document()->run(measured) == nullptr) {
        fail(tr("What-if replay finished, but its run was removed meanwhile"));
        return;
    }
    // A prediction is not a measurement: its own group, never a point of its run's scaling (issue 45 §2).
    RunRecord prediction = *outcome;
    prediction.sweep = m_host.document()->nextSweepNumber();
    const RunId predicted = m_host.document()->add(std::move(prediction));
    m_host.markUnsaved();  // the prediction is the user's work: quitting asks first
    if (auto status = compare({measured, predicted}); !status) {
        fail(tr("Cannot compare: %1").arg(QString::fromStdString(status.error().message)));
    }
}

void CompareController::simulateDialog() {
    runConfigDialog(RunConfigDialog::Mode::Simulate, &CompareController::simulateConfiguration, tr("Cannot simulate"));
}

void CompareController::whatIfDialog() {
    runConfigDialog(RunConfigDialog::Mode::WhatIf, &CompareController::whatIf, tr("Cannot replay"));
}

void CompareController::runConfigDialog(RunConfigDialog::Mode mode, RunAction action, const QString& failure) {
    const RunId id = singleSelectedRun();
    const RunRecord* r = m_host.document()->run(id);
    if (!isFinished(r)) return;
    QString note;
    const RunConfigChoice prefill = prefillFromRun(*r, m_host.catalog(), &note);
    RunConfigDialog dialog(m_host.catalog(), mode, prefill, r->label(), note, m_host.dialogParent());
    if (dialog.exec() != QDialog::Accepted) return;
    if (auto status = (this->*action)(id, dialog.choice()); !status) {
        fail(QStringLiteral("%1: %2").arg(failure, QString::fromStdString(status.error().describe())));
    }
}

}  // namespace tpscope::ui
