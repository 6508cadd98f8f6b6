// Today's wiring of the GUI seams (services.h):
//   runOne        core::sim (simulatedTrace) or the local-GPU core::Backend, + core::analysis metrics
//   open          core/io (io_services.h): any trace, or a .tpscope workspace
//   saveWorkspace core/io (io_services.h): the runs with a trace, as a .tpscope workspace
//   localBackend  core::localBackend() device query (registered by app/gui when built with CUDA;
//                 the GUI library never sees a CUDA header)

#include "core/backend/backend.h"
#include "ui/io_services.h"
#include "ui/services.h"
#include "ui/sim_service.h"

namespace tpscope::ui {

namespace {

// Local GPUs through core::Backend (registered by the executable when built with CUDA).
core::Result<RunOutcome> runOnLocalGpus(const RunRequest& request, const ProgressFn& progress,
                                        const CancelFlag& cancel) {
    const auto backend = core::localBackend();
    if (!backend) return core::makeError(core::ErrorCode::Unsupported, "no GPU backend in this build", "local GPUs");
    core::LocalRunRequest local;
    local.plan = core::PlanConfig{request.model, request.tp, request.batch, request.contextLen, request.dtype};
    local.tokens = request.tokens;
    local.graph = request.cudaGraphs;
    local.overlap = request.overlap;
    auto trace = backend->run(
        local,
        [&](const std::string&, double fraction) {
            if (progress) progress(fraction);
        },
        &cancel);
    if (!trace) return trace.error();
    RunOutcome outcome;
    outcome.metrics = metricsOf(**trace, request.batch);
    outcome.trace = std::move(*trace);
    return outcome;
}

core::Result<RunOutcome> runSimulated(const RunRequest& request, const ProgressFn& progress, const CancelFlag& cancel) {
    if (request.backend == BackendKind::LocalGpus) return runOnLocalGpus(request, progress, cancel);
    std::shared_ptr<const core::Trace> trace;
    if (progress) progress(0.0);
    TPSCOPE_TRY_ASSIGN(trace, simulatedTrace(request, cancel));
    RunOutcome outcome;
    outcome.metrics = metricsOf(*trace, request.batch);
    if (progress) progress(1.0);
    outcome.trace = std::move(trace);
    return outcome;
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
    s.runOne = runSimulated;
    s.open = openWithIo;
    s.saveWorkspace = saveWithIo;
    s.localBackend = queryLocalBackend;
    return s;
}

}  // namespace tpscope::ui
