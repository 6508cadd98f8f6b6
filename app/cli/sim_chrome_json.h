#pragma once
// Writes a simulated sweep as one Chrome trace JSON file (opens in Perfetto and chrome://tracing):
// one process per (run, rank) named "TP4 b1 rank 2 (node0 gpu2)", one thread per stream plus one
// for the NVTX ranges, kernels as complete ("X") events in microseconds with their payload in
// args. An interim writer for `simulate --out x.json` until core/io's exporter and workspace land.
// O(events) time, streaming.

#include <ostream>
#include <string>

#include "core/sim/sweep.h"
#include "core/util/result.h"

namespace tpscope::cli {

void writeSweepChromeJson(std::ostream& out, const core::sim::SweepResult& sweep);
core::Status writeSweepChromeJsonFile(const std::string& path, const core::sim::SweepResult& sweep);

}  // namespace tpscope::cli
