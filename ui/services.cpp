#include "ui/services.h"

#include "ui/standin/run_metrics.h"

namespace tpscope::ui {

OpenedDocument importedTraceDocument(const QString& path, std::shared_ptr<const core::Trace> trace) {
    OpenedDocument doc;
    doc.path = path;
    RunRecord run;
    run.request.backend = BackendKind::Imported;
    run.request.tp = static_cast<int>(trace->ranks.size());
    run.request.batch = 0;  // unknown for a foreign trace: no tokens/s
    run.status = RunStatus::Done;
    run.progress = 1;
    run.source = path;
    run.metrics = measureRun(*trace, 0, 1);
    run.trace = std::move(trace);
    doc.runs.push_back(std::move(run));
    return doc;
}

}  // namespace tpscope::ui
