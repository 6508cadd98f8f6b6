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

// The MoE, MLA and weight-format keys makeRunInfo writes (model.moe.*, model.mla.*, model.weights.*,
// moe_parallel), read back into a model whose dense dimensions the caller has read; absent keys leave
// a dense GQA model with default formats.
void readModelExtras(const RunInfo& info, ModelSpec& model, MoeParallel* moeParallel = nullptr);

}  // namespace tpscope::core
