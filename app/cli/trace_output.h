#pragma once
// Where a captured trace goes: the one function `capture` writes through, so that switching to
// the workspace format (io) is a one-line change. Until then: Chrome trace JSON (chrome://tracing,
// Perfetto), one process per rank, one thread per stream plus "NVTX" (thread 0).

#include <string>

#include "core/trace/trace.h"
#include "core/util/result.h"

namespace tpscope::cli {

core::Status writeTraceFile(const core::Trace& trace, const std::string& path);

}  // namespace tpscope::cli
