// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/workload/model.h"

#include <string>

namespace tpscope::core {

std::int64_t ModelSpec::parameterCount() const {
    const std::int64_t qkv = hidden * (heads + 2 * kvHeads) * headDim;
    const std::int64_t oProj = heads * headDim * hidden;
    const std::int64_t mlp = 3 * hidden * ffn;
    const std::int64_t norms = 2 * hidden;
    return layers * (qkv + oProj + mlp + norms) + 2 * vocab * hidden + hidden;
}

Status validateModel(const ModelSpec& m) {
    if (m.hidden <= 0 || m.ffn <= 0 || m.heads <= 0 || m.kvHeads <= 0 || m.headDim <= 0 || m.layers <= 0 ||
        m.vocab <= 0) {
        return makeError(ErrorCode::InvalidArgument,
                         "hidden, ffn, heads, kv_heads, head_dim, layers and vocab must all be positive", m.id);
    }
    if (m.heads % m.kvHeads != 0) {
        return makeError(ErrorCode::InvalidArgument,
                         "heads (" + std::to_string(m.heads) + ") must be a multiple of kv_heads (" +
                             std::to_string(m.kvHeads) + ")",
                         m.id);
    }
    return Ok{};
}

}  // namespace tpscope::core
