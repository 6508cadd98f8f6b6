// Today's wiring of the GUI seams (services.h). At merge, swap the stand-ins for the real modules:
//   runOne        previewDecodeTrace + measureRun  -> core::sim sweep API + core::analysis metrics
//   open          "needs core/io" error             -> core::io readTrace(path), then
//                                                      importedTraceDocument(path, trace); workspace load
//   saveWorkspace "needs core/io" error             -> core::io workspace save
//   localBackend  "no GPU backend in this build"    -> core::Backend device query (never CUDA headers here)

#include <QFileInfo>

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

core::Result<OpenedDocument> openWithoutIo(const QString& path, const ProgressFn&, const CancelFlag&) {
    const QFileInfo info(path);
    if (!info.exists()) return core::makeError(core::ErrorCode::NotFound, "no such file or folder", path.toStdString());
    return core::makeError(core::ErrorCode::Unsupported,
                           "reading traces and workspaces needs the core/io module, which is not in this build",
                           path.toStdString());
}

core::Status saveWithoutIo(const QString& path, const std::vector<RunRecord>&) {
    return core::makeError(core::ErrorCode::Unsupported,
                           "saving workspaces needs the core/io module, which is not in this build",
                           path.toStdString());
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
    s.open = openWithoutIo;
    s.saveWorkspace = saveWithoutIo;
    s.localBackend = noLocalBackend;
    return s;
}

}  // namespace tpscope::ui
