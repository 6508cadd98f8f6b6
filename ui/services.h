#pragma once
// The seams between the GUI and the computing modules. Every long call runs on a worker thread
// (SweepRunner, DocumentLoader) and reports progress through ProgressFn and honours CancelFlag.
// defaultServices() (services_default.cpp) wires them to today's implementations; it is the one
// place to change when core::sim / core::io / core::Backend arrive.

#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>
#include <memory>
#include <vector>

#include "core/util/result.h"
#include "ui/run_request.h"

namespace tpscope::ui {

using ProgressFn = std::function<void(double fraction)>;
using CancelFlag = std::atomic<bool>;

struct RunOutcome {
    std::shared_ptr<const core::Trace> trace;
    std::shared_ptr<const TimelineData> timeline;  // filled by SweepRunner on its thread
    RunMetrics metrics;
};

struct OpenedDocument {
    QString path;
    bool isWorkspace = false;  // a .tpscope workspace (its runs replace the current ones)
    std::vector<RunRecord> runs;
    QString note;  // import statistics worth showing ("12 records skipped")
};

struct LocalBackendInfo {
    bool available = false;
    QString reason;  // why not, when unavailable
    QStringList devices;
};

struct Services {
    std::function<core::Result<RunOutcome>(const RunRequest&, const ProgressFn&, const CancelFlag&)> runOne;
    std::function<core::Result<OpenedDocument>(const QString& path, const ProgressFn&, const CancelFlag&)> open;
    std::function<core::Status(const QString& path, const std::vector<RunRecord>& runs)> saveWorkspace;
    std::function<LocalBackendInfo()> localBackend;
};

Services defaultServices();

// A document of one imported trace (a Kineto file, a rank folder, an nsys export): one run, its
// TP = the number of ranks, step latency from the NVTX steps when there are any. For the io seam.
OpenedDocument importedTraceDocument(const QString& path, std::shared_ptr<const core::Trace> trace);

}  // namespace tpscope::ui

Q_DECLARE_METATYPE(tpscope::ui::RunOutcome)
Q_DECLARE_METATYPE(tpscope::ui::OpenedDocument)
