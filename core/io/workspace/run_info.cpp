// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/io/workspace/run_info.h"

namespace tpscope::core {

RunInfo makeRunInfo(const PlanConfig& plan, int tokens, const std::string& backend, const std::string& gpu,
                    const std::string& fabric) {
    RunInfo info;
    info.name = "TP " + std::to_string(plan.tp) + " · batch " + std::to_string(plan.batch);
    info.model = plan.model.id;
    info.gpu = gpu;
    info.fabric = fabric;
    info.tp = plan.tp;
    info.batch = plan.batch;
    info.tokens = tokens;
    const auto& m = plan.model;
    info.spec = {{"backend", backend},
                 {"dtype", std::string(toString(plan.dtype))},
                 {"context_len", std::to_string(plan.contextLen)},
                 {"model.name", m.name},
                 {"model.hidden", std::to_string(m.hidden)},
                 {"model.ffn", std::to_string(m.ffn)},
                 {"model.heads", std::to_string(m.heads)},
                 {"model.kv_heads", std::to_string(m.kvHeads)},
                 {"model.head_dim", std::to_string(m.headDim)},
                 {"model.layers", std::to_string(m.layers)},
                 {"model.vocab", std::to_string(m.vocab)}};
    return info;
}

}  // namespace tpscope::core
