// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The what-if answer as a user reads it: the measured run and its replay on another fabric, both
// analysed the one way (core::analysis), side by side: step latency and its delta, per layer the
// wall time, exposed communication and exposed wait (sync wait + imbalance), and the assumptions the prediction rests
// on. JSON fields are documented in docs/cli.md (whatif). O(layers + steps).

#include <string>
#include <vector>

#include "core/analysis/analysis.h"
#include "core/sim/whatif_replay.h"
#include "core/util/json_writer.h"
#include "core/util/task_control.h"

namespace tpscope::core::sim {

struct WhatIfLayerRow {
    int layer = 0;
    double measuredWallNs = 0, predictedWallNs = 0;
    double measuredExposedCommNs = 0, predictedExposedCommNs = 0;
    double measuredExposedWaitNs = 0, predictedExposedWaitNs = 0;  // exposed wait (DESIGN.md §5)
};

struct WhatIfReport {
    std::string measuredSource;
    std::string fabric;  // "pcie4", "nvlink4 + ib-ndr"
    std::size_t measuredRanks = 0, predictedRanks = 0;
    std::size_t steps = 0;
    double measuredStepNs = 0, predictedStepNs = 0;  // mean step latency
    double deltaNs = 0, deltaFraction = 0;           // predicted - measured, and / measured
    double measuredTokensPerSec = 0, predictedTokensPerSec = 0;
    double measuredExposedCommShare = 0, predictedExposedCommShare = 0;
    double measuredExposedWaitShare = 0, predictedExposedWaitShare = 0;
    std::vector<WhatIfLayerRow> layers;
    std::size_t collectivesRetimed = 0, collectivesKept = 0;
    std::vector<std::string> assumptions;
};

struct WhatIfRun {
    WhatIfReplay replay;
    analysis::RunAnalysis measured;
    analysis::RunAnalysis predicted;
    WhatIfReport report;
};

// Analyses `measured`, replays it (replayOnFabric) and analyses the replay with the same options.
// control: progress after each of the three steps; a Cancelled error at the first check after its
// flag is set (between steps: the GUI's window closing during a replay does not wait for the rest).
Result<WhatIfRun> runWhatIf(const Trace& measured, const analysis::AnalysisOptions& analysisOptions,
                            const WhatIfOptions& options, const TaskControl& control = {});

void writeWhatIfJson(JsonWriter& w, const WhatIfReport& report);

}  // namespace tpscope::core::sim
