// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// A decoder-only transformer's dimensions: what the TP decode plan needs, nothing more.

#include <cstdint>
#include <string>

#include "core/util/result.h"

namespace tpscope::core {

struct ModelSpec {
    std::string id;    // stable kebab-case id: "llama3-70b"
    std::string name;  // "Llama-3 70B"
    std::int64_t hidden = 0;
    std::int64_t ffn = 0;      // MLP intermediate size
    std::int64_t heads = 0;    // query heads
    std::int64_t kvHeads = 0;  // key/value heads (GQA when < heads)
    std::int64_t headDim = 0;
    std::int64_t layers = 0;
    std::int64_t vocab = 0;
    std::string source;

    // Parameter count of the unsharded model (untied embedding and LM head, RMSNorm weights).
    std::int64_t parameterCount() const;
};

// Positive dimensions, heads a multiple of kv heads; the error names the model.
Status validateModel(const ModelSpec& model);

}  // namespace tpscope::core
