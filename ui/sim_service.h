#pragma once
// The GUI's bridge to core::sim and core::analysis: one simulated run of a RunRequest, and the
// step metrics the runs table shows (the numbers `tpscope-cli analyze --json` prints for the same
// trace). Called on worker threads; no widgets.

#include <memory>

#include "core/trace/trace.h"
#include "core/util/result.h"
#include "ui/services.h"

namespace tpscope::ui {

// Simulates the request on its virtual cluster. Several nodes use the catalog's InfiniBand NDR
// (ib-ndr) between nodes, the fabric of current HGX clusters.
core::Result<std::shared_ptr<const core::Trace>> simulatedTrace(const RunRequest& request, const CancelFlag& cancel);

// Median step latency and tokens/s from core::analysis; batch <= 0 reads the trace metadata.
RunMetrics metricsOf(const core::Trace& trace, int batch);

}  // namespace tpscope::ui
