#pragma once
// STAND-IN for core::analysis step metrics until that module is merged: replace measureRun() in
// services_default.cpp with the analysis call and delete this file.
//
// Step latency = median duration of rank 0's depth-0 NVTX ranges (the decode steps); without NVTX,
// the trace's span divided by the expected step count. Throughput = batch / step latency. O(s log s)
// for s steps.

#include "core/trace/trace.h"
#include "ui/run_request.h"

namespace tpscope::ui {

RunMetrics measureRun(const core::Trace& trace, int batch, int expectedSteps);

}  // namespace tpscope::ui
