// Today's wiring of the GUI seams (services.h):
//   runOne        core::sim (simulatedTrace) + core::analysis metrics
//   open          "needs core/io" error             -> core::io readTrace(path), then
//                                                      importedTraceDocument(path, trace); workspace load
//   saveWorkspace "needs core/io" error             -> core::io workspace save
//   localBackend  "no GPU backend in this build"    -> core::Backend device query (never CUDA headers here)

#include <QFileInfo>

#include "ui/services.h"
#include "ui/sim_service.h"

namespace tpscope::ui {

namespace {

core::Result<RunOutcome> runSimulated(const RunRequest& request, const ProgressFn& progress,
                                      const CancelFlag& cancel) {
    if (request.backend == BackendKind::LocalGpus) {
        return core::makeError(core::ErrorCode::Unsupported, "no GPU backend in this build", "local GPUs");
    }
    std::shared_ptr<const core::Trace> trace;
    if (progress) progress(0.0);
    TPSCOPE_TRY_ASSIGN(trace, simulatedTrace(request, cancel));
    RunOutcome outcome;
    outcome.metrics = metricsOf(*trace, request.batch);
    if (progress) progress(1.0);
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
    s.runOne = runSimulated;
    s.open = openWithoutIo;
    s.saveWorkspace = saveWithoutIo;
    s.localBackend = noLocalBackend;
    return s;
}

}  // namespace tpscope::ui
