// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Today's wiring of the GUI seams (services.h):
//   runSweep      the simulated cluster through core::sim::runSweep (sim_service.h), or the local
//                 GPUs run by run through core::Backend; each run analysed by core::analysis
//   open          core/io (io_services.h): any trace, or a .tpscope workspace
//   saveWorkspace core/io (io_services.h): the runs with a trace, as a .tpscope workspace
//   whatIf        core::sim::runWhatIf (sim_service.h), as `tpscope-cli whatif`
//   localBackend  core::localBackend() device query (registered by app/gui when built with CUDA;
//                 the GUI library never sees a CUDA header)

#include "core/backend/backend.h"
#include "ui/jobs/io_services.h"
#include "ui/jobs/services.h"
#include "ui/jobs/sim_service.h"

namespace tpscope::ui {

namespace {

// One run on the local GPUs through core::Backend (registered by the executable when built with CUDA).
core::Result<RunOutcome> runOnLocalGpus(const RunRequest& request, const TaskControl& control) {
    const auto backend = core::localBackend();
    if (!backend) return core::makeError(core::ErrorCode::Unsupported, "no GPU backend in this build", "local GPUs");
    core::LocalRunRequest local;
    local.plan = request.plan();
    local.tokens = request.tokens;
    local.graph = request.runtime == core::sim::Runtime::CudaGraphs;  // the others launch eagerly
    local.overlap = request.overlap;
    auto trace = backend->run(local, control);
    if (!trace) return trace.error();
    RunOutcome outcome;
    outcome.trace = std::move(*trace);
    return outcome;
}

// The sweep on the backend the run panel chose: simulated cluster or local GPUs.
core::Status runSweepOnChosenBackend(const SweepRequest& sweep, const SweepCallbacks& callbacks,
                                     const CancelFlag& cancel) {
    if (sweep.base.backend == BackendKind::LocalGpus) return sweepOfRuns(runOnLocalGpus)(sweep, callbacks, cancel);
    return runSimulatedSweep(sweep, callbacks, cancel);
}

LocalBackendInfo queryLocalBackend() {
    LocalBackendInfo info;
    const auto backend = core::localBackend();
    if (!backend) {
        info.reason = QStringLiteral("no GPU backend in this build");
        return info;
    }
    const auto devices = backend->devices();
    if (!devices) {
        info.reason = QString::fromStdString(devices.error().message);
        return info;
    }
    info.available = !devices->empty();
    for (const auto& d : *devices) {
        info.devices << QStringLiteral("GPU %1: %2 (%3 GiB)")
                            .arg(d.index)
                            .arg(QString::fromStdString(d.name))
                            .arg(static_cast<double>(d.memoryBytes) / (1024.0 * 1024 * 1024), 0, 'f', 0);
    }
    return info;
}

}  // namespace

Services defaultServices() {
    Services s;
    s.runSweep = runSweepOnChosenBackend;
    s.open = openWithIo;
    s.saveWorkspace =
        static_cast<core::Status (*)(const QString&, const WorkspaceSnapshot&, const TaskControl&)>(saveWithIo);
    s.localBackend = queryLocalBackend;
    s.whatIf = replayWhatIf;
    return s;
}

}  // namespace tpscope::ui
