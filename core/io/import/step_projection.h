// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Step annotations (core/trace/step_annotation.h) are CPU ranges: the host's time for the step, which
// ends long before the GPU runs the kernels it queued. Each is projected onto the GPU work it
// launched: the kernels, copies and sets whose correlation is that of a launch on the annotation's
// thread inside its range (a cudaGraphLaunch's correlation is shared by every kernel it replays).
// The step in GPU time runs from the first such event's start to the last one's end, on each device
// that ran one, as a depth-0 range named like the annotation.
//
// Input: the staged part after reading (events carry correlation ids), the annotations, and the
// launches sorted by thread then start (KinetoLinks::launchRecords). No CPU event enters the trace.
// Cost: O(log launches + launches inside) per annotation, then one pass over the events with a
// direct-indexed (or hashed, when correlation ids are sparse) step per correlation.

#include <cstdint>
#include <string_view>
#include <vector>

#include "core/io/import/kineto_links.h"
#include "core/io/import/trace_part.h"

namespace tpscope::core {

struct CpuStepRange {
    std::int64_t thread = 0;
    std::int64_t startNs = 0;
    std::int64_t endNs = 0;
    NameId name{};
};

// The annotations that are projected: the serving engines' steps. A CPU-only ProfilerStep#N stays
// where it is: the other CPU annotations nested in it (forward, backward, optimizer) stay in CPU time
// too, and moving the step alone would break their nesting.
bool projectedStep(std::string_view name);

// Adds the GPU-time ranges to `part`; returns, per annotation, whether it launched GPU work (the
// ones that did not keep their CPU range).
std::vector<bool> projectSteps(const std::vector<CpuStepRange>& steps,
                               const std::vector<KinetoLinks::LaunchRecord>& launches, TracePart& part);

}  // namespace tpscope::core
