// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The description stored with each run of a workspace (RunInfo), built one way for every writer:
// the CLI (simulate, capture) and the GUI write the same keys, so a workspace written by one opens
// in the other with its settings. Keys and their meaning: docs/formats.md.

#include <string>

#include "core/io/workspace/workspace.h"
#include "core/workload/decode_plan.h"

namespace tpscope::core {

// name "TP 4 · batch 8"; model/gpu/fabric ids; tp, batch, tokens; spec: backend, dtype,
// context_len and the model's dimensions (model.name, model.hidden, ...). Callers append their
// backend's extra keys (nodes, seed, overlap, ...).
RunInfo makeRunInfo(const PlanConfig& plan, int tokens, const std::string& backend, const std::string& gpu,
                    const std::string& fabric);

}  // namespace tpscope::core
