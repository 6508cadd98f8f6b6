#pragma once
// Communication time of a trace per rank, as the run summary reports it: the union of collective
// kernel time and the part of it during which no compute kernel ran on the same GPU ("exposed",
// DESIGN.md §5). Works on any finalized trace (simulated or captured). O(n log n) per rank for n events.

#include "core/trace/trace.h"

namespace tpscope::core::sim {

struct CommSummary {
    double commNs = 0;     // union of collective kernel time, summed over ranks
    double exposedNs = 0;  // of which no compute kernel was running, summed over ranks
};

CommSummary summarizeComm(const Rank& rank);
CommSummary summarizeComm(const Trace& trace);

}  // namespace tpscope::core::sim
