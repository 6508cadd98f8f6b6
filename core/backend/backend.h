// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// core::Backend: how the GUI (and anything else without CUDA headers) runs the decode workload on
// local GPUs. The GPU module implements it (gpu/local_backend.h); an executable built with CUDA
// registers it at start-up. Without one, localBackend() answers with the reason, so the GUI can
// show "Local GPUs" disabled and say why.

#include <memory>
#include <string>
#include <vector>

#include "core/trace/trace.h"
#include "core/util/result.h"
#include "core/util/task_control.h"
#include "core/workload/decode_plan.h"

namespace tpscope::core {

struct LocalRunRequest {
    PlanConfig plan;       // model, tp, batch, context, dtype
    int tokens = 16;       // measured decode steps
    bool graph = false;    // CUDA-graph replay of the decode step
    bool overlap = false;  // all-reduces on their own stream
};

struct LocalDevice {
    int index = 0;
    std::string name;
    std::uint64_t memoryBytes = 0;
};

class Backend {
  public:
    virtual ~Backend() = default;
    virtual std::string name() const = 0;
    // The GPUs this backend can use; an error says why there are none ("no CUDA device: ...").
    virtual Result<std::vector<LocalDevice>> devices() const = 0;
    // Runs and records one configuration; reports decode steps done / tokens and honours the
    // control's cancel flag between steps (a Cancelled error).
    virtual Result<std::shared_ptr<const Trace>> run(const LocalRunRequest& request, const TaskControl& control) = 0;
};

// The process-wide local-GPU backend: set once at start-up by an executable that links one.
void registerLocalBackend(std::shared_ptr<Backend> backend);
// nullptr when the build has no GPU backend.
std::shared_ptr<Backend> localBackend();

}  // namespace tpscope::core
