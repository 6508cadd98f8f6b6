// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Merges the traces of several processes (one MPI rank each, possibly on several hosts) onto one
// timeline. Input: per process its trace (ranks with global ids), the clock offset of its host
// (added to its timestamps to reach rank 0's clock), and an error when its capture failed.
// Mapping: names and payloads are re-interned, events and ranges shifted by the offset, which is
// recorded in Rank::clockOffsetNs; metadata comes from the first part ("cupti.*" counters are
// summed), failures are added as "capture.error.process N", and "launch.id_agreed" says whether
// every process received the same NCCL unique id. O(events).

#include <cstdint>
#include <string>
#include <vector>

#include "core/trace/trace.h"
#include "core/util/result.h"

namespace tpscope::gpu {

struct ProcessTrace {
    int process = 0;  // MPI world rank
    std::string host;
    std::int64_t clockOffsetNs = 0;
    std::string error;               // empty when the capture succeeded
    std::uint64_t launchIdHash = 0;  // hash of the NCCL unique id this process received
    core::Trace trace;
};

// A global rank id found in two processes' traces is an error (the launch mapped GPUs wrongly).
core::Result<core::Trace> mergeProcessTraces(std::vector<ProcessTrace> parts);

}  // namespace tpscope::gpu
