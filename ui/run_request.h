#pragma once
// What the run panel asks for and what a finished run holds: plain value types that cross from the
// worker threads to the GUI thread in signals.

#include <QMetaType>
#include <QString>

#include <memory>
#include <vector>

#include "core/hw/gpu_spec.h"
#include "core/trace/event_kind.h"
#include "core/trace/trace.h"
#include "core/workload/model.h"

namespace tpscope::ui {

class TimelineData;

enum class BackendKind { SimulatedCluster, LocalGpus, Imported };

struct RunRequest {
    core::ModelSpec model;
    core::Dtype dtype = core::Dtype::Fp16;
    int tp = 1;
    int batch = 1;
    int tokens = 4;  // decode steps to run (one new token per sequence per step)
    int contextLen = 1024;
    BackendKind backend = BackendKind::SimulatedCluster;
    core::GpuSpec gpu;
    core::FabricSpec fabric;
    int nodes = 1;
    int gpusPerNode = 8;
    bool overlap = false;     // overlap communication with the next layer's compute
    bool cudaGraphs = false;  // graph replay: no per-kernel launch gaps
    double pricePerGpuHour = 0;
    std::uint64_t seed = 1;

    QString label() const;        // "TP 4 · batch 8"
    QString backendText() const;  // "sim 1×8 H100 SXM5 · NVLink 4"
};

// A sweep is the product of TP degrees and batch sizes over one base request.
struct SweepRequest {
    RunRequest base;
    std::vector<int> tps;
    std::vector<int> batches;
    std::vector<RunRequest> expand() const;  // batch-major, then TP ascending
};

struct RunMetrics {
    double stepLatencyNs = 0;  // median decode-step wall time
    double tokensPerSec = 0;   // batch / step latency
    int steps = 0;
};

enum class RunStatus { Pending, Running, Done, Failed, Cancelled };

struct RunRecord {
    RunRequest request;
    RunStatus status = RunStatus::Pending;
    double progress = 0;  // 0..1 while running
    QString error;        // why it failed
    QString source;       // file it came from, or empty for a run made here
    std::shared_ptr<const core::Trace> trace;
    std::shared_ptr<const TimelineData> timeline;  // derived on the worker thread with the trace
    RunMetrics metrics;

    QString label() const;
};

QString statusText(RunStatus status);

}  // namespace tpscope::ui

Q_DECLARE_METATYPE(tpscope::ui::RunRecord)
