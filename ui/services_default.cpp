// Today's wiring of the GUI seams (services.h). At merge, swap the stand-ins for the real modules:
//   runOne        previewDecodeTrace + measureRun  -> core::sim sweep API + core::analysis metrics
//   open          core/io (io_services.h): any trace, or a .tpscope workspace
//   saveWorkspace core/io (io_services.h): the runs with a trace, as a .tpscope workspace
//   localBackend  "no GPU backend in this build"    -> core::Backend device query (never CUDA headers here)

#include "ui/io_services.h"
#include "ui/services.h"
#include "ui/standin/plan_trace_preview.h"
#include "ui/standin/run_metrics.h"

namespace tpscope::ui {

namespace {

core::Result<RunOutcome> runWithStandIn(const RunRequest& request, const ProgressFn& progress,
                                        const CancelFlag& cancel) {
    if (request.backend == BackendKind::LocalGpus) {
        return core::makeError(core::ErrorCode::Unsupported, "no GPU backend in this build", "local GPUs");
    }
    std::shared_ptr<const core::Trace> trace;
    TPSCOPE_TRY_ASSIGN(trace, previewDecodeTrace(request, progress, cancel));
    RunOutcome outcome;
    outcome.metrics = measureRun(*trace, request.batch, request.tokens);
    outcome.trace = std::move(trace);
    return outcome;
}

LocalBackendInfo noLocalBackend() {
    LocalBackendInfo info;
    info.reason = QStringLiteral("no GPU backend in this build");
    return info;
}

}  // namespace

Services defaultServices() {
    Services s;
    s.runOne = runWithStandIn;
    s.open = openWithIo;
    s.saveWorkspace = saveWithIo;
    s.localBackend = noLocalBackend;
    return s;
}

}  // namespace tpscope::ui
