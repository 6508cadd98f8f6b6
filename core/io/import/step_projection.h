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
// launches sorted by thread then start (KinetoLinks::takeLaunchRecords). No CPU event enters the trace.
// Cost: O(log launches + launches inside) per annotation, then one pass over the events, each
// looked up in the launches sorted by correlation (a few steps from the previous one's place in
// launch order, O(log launches) at worst).

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

// The serving engines' step annotations: projected alone by the nsys reader (NVTX), and kept at
// depth 0 by the Kineto reader's tree projection, so that they stay steps inside a ProfilerStep#N.
bool projectedStep(std::string_view name);

// Adds the GPU-time ranges to `part`; returns, per annotation, whether it launched GPU work (the
// ones that did not keep their CPU range).
std::vector<bool> projectSteps(const std::vector<CpuStepRange>& steps,
                               const std::vector<KinetoLinks::LaunchRecord>& launches, TracePart& part);

// A Kineto trace's CPU annotation tree (ProfilerStep#N > forward > ...), projected as a whole, so
// that its nesting holds in GPU time too: each range becomes the span of the GPU work launched on its
// thread inside it, its children's included. A child launches a subset of its parent's work, so its
// span lies inside the parent's: nesting on the CPU gives nesting on the GPU. Each range's depth is
// its depth in the CPU tree (`depth` when >= 0: 0 for engine steps, which must stay steps), so two
// siblings whose work overlaps on the GPU (several streams) share a row and overlap there, instead
// of the later one passing for the earlier one's child. A range that launched no GPU work has no GPU
// time and is not projected (the caller drops it). Returns, per range, whether it was added to
// `part` (once per device that ran its work). Cost: O(ranges log ranges +
// launches) to give each launch its innermost range, one pass over the events, then O(ranges x
// devices) to hand spans to the parents.
struct CpuAnnotation {
    CpuStepRange range;
    int depth = -1;
};
std::vector<bool> projectAnnotationTree(const std::vector<CpuAnnotation>& annotations,
                                        const std::vector<KinetoLinks::LaunchRecord>& launches, TracePart& part);

}  // namespace tpscope::core
