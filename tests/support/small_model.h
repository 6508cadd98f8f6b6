// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// One builder for the small custom models the tests decode, capture and simulate: the ModelSpec and
// the matching `--model custom ...` flags of tpscope-cli, so a test that runs the CLI and computes
// its expectation from the plan uses the same model in both. headDim = hidden / heads.

#include <cstdint>
#include <string>

#include "core/workload/model.h"

namespace tpscope::test {

struct SmallModelDims {
    std::int64_t hidden = 256;
    std::int64_t ffn = 512;
    std::int64_t heads = 8;
    std::int64_t kvHeads = 8;
    std::int64_t layers = 4;
    std::int64_t vocab = 1000;
};

inline core::ModelSpec customModel(const SmallModelDims& d = {}, const std::string& id = "tiny") {
    core::ModelSpec m;
    m.id = id;
    m.name = id;
    m.hidden = d.hidden;
    m.ffn = d.ffn;
    m.heads = d.heads;
    m.kvHeads = d.kvHeads;
    m.headDim = d.hidden / d.heads;
    m.layers = d.layers;
    m.vocab = d.vocab;
    return m;
}

inline std::string customModelFlags(const SmallModelDims& d = {}) {
    return "--model custom --hidden " + std::to_string(d.hidden) + " --ffn " + std::to_string(d.ffn) + " --heads " +
           std::to_string(d.heads) + " --kv-heads " + std::to_string(d.kvHeads) + " --layers " +
           std::to_string(d.layers) + " --vocab " + std::to_string(d.vocab);
}

}  // namespace tpscope::test
