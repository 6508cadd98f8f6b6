// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Runtime profiles: what the host costs when it drives a rank's GPU (DESIGN.md §4, issue 26).
//
// Input: resources/runtime_profiles.json (embedded), one entry per runtime with its numbers in ns
// and a `sources` object naming, for each number, the engine, version and measurement behind it.
// Mapping: the simulator's host timeline (core/sim/simulator.cpp) launches each kernel
// `host_per_launch_ns` after the previous launch (eager runtimes) or the whole step with one graph
// launch (`graphs`); a kernel starts at the later of (its launch call's start + `launch_latency_ns`)
// and (the previous kernel's end + `device_gap_ns`); `step_host_ns` of host work separates two steps.
// Cost: the file is parsed once per process (a few hundred bytes).

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/util/result.h"

namespace tpscope::core::sim {

enum class Runtime : std::uint8_t { PytorchEager, CppRuntime, CudaGraphs };
inline constexpr std::array<Runtime, 3> kRuntimes{Runtime::PytorchEager, Runtime::CppRuntime, Runtime::CudaGraphs};

std::string_view toString(Runtime runtime);  // "pytorch-eager", "cpp-runtime", "cuda-graphs"
std::optional<Runtime> parseRuntime(std::string_view text);

// The host numbers one simulation uses (ns). A kernel fit (core/sim/kernel_fit_file.h) may replace
// them with a measured machine's.
struct HostCosts {
    bool graphs = false;
    double hostPerLaunchNs = 0;  // host time from one launch call to the next (eager)
    double launchCallNs = 0;     // duration of the launch call itself (the host row's event)
    double launchLatencyNs = 0;  // launch call start -> earliest kernel start on an idle GPU
    double deviceGapNs = 0;      // queued kernel after the previous one (graphs: node to node)
    double stepHostNs = 0;       // host work between decode steps (GPU idle)
};

struct RuntimeProfile {
    Runtime runtime = Runtime::PytorchEager;
    std::string name;
    HostCosts costs;
    std::vector<std::pair<std::string, std::string>> sources;  // (field, source text)
};

// Parses a runtime-profile file; every profile must name a source for each number.
Result<std::vector<RuntimeProfile>> parseRuntimeProfiles(std::string_view json, const std::string& source);
// The built-in profile of a runtime (the embedded resources/runtime_profiles.json).
const RuntimeProfile& builtinRuntimeProfile(Runtime runtime);

}  // namespace tpscope::core::sim
