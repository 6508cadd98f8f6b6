// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/io/workspace/run_info.h"

#include <charconv>

#include "core/util/units.h"

namespace tpscope::core {

namespace {

void addModelExtras(const ModelSpec& m, MoeParallel moeParallel, RunInfo& info) {
    auto add = [&](const char* key, std::string value) { info.spec.emplace_back(key, std::move(value)); };
    if (m.isMla()) {
        add("model.attention", "mla");
        add("model.mla.q_lora_rank", std::to_string(m.mla.qLoraRank));
        add("model.mla.kv_lora_rank", std::to_string(m.mla.kvLoraRank));
        add("model.mla.qk_nope_head_dim", std::to_string(m.mla.qkNopeDim));
        add("model.mla.qk_rope_head_dim", std::to_string(m.mla.qkRopeDim));
        add("model.mla.v_head_dim", std::to_string(m.mla.vHeadDim));
    }
    if (m.isMoe()) {
        add("model.moe.experts", std::to_string(m.moe.experts));
        add("model.moe.experts_per_token", std::to_string(m.moe.topK));
        add("model.moe.expert_ffn", std::to_string(m.moe.expertFfn));
        add("model.moe.shared_experts", std::to_string(m.moe.sharedExperts));
        add("model.moe.dense_layers", std::to_string(m.moe.denseLayers));
        add("model.moe.routing_skew", formatFixed(m.moe.routingSkew, 6));
        add("moe_parallel", std::string(toString(moeParallel)));
    }
    for (const auto& [key, f] :
         {std::pair{"model.weights.attention", m.formats.attention}, std::pair{"model.weights.mlp", m.formats.mlp},
          std::pair{"model.weights.experts", m.formats.experts}}) {
        if (f != WeightFormat::Default) add(key, std::string(toString(f)));
    }
}

std::string valueOf(const RunInfo& info, std::string_view key) {
    for (const auto& [k, v] : info.spec) {
        if (k == key) return v;
    }
    return {};
}

std::int64_t intOf(const RunInfo& info, std::string_view key) {
    const std::string v = valueOf(info, key);
    std::int64_t out = 0;
    const auto r = std::from_chars(v.data(), v.data() + v.size(), out);
    return r.ec == std::errc() ? out : 0;
}

}  // namespace

void readModelExtras(const RunInfo& info, ModelSpec& m, MoeParallel* moeParallel) {
    if (valueOf(info, "model.attention") == "mla") {
        m.attention = AttentionKind::Mla;
        m.mla.qLoraRank = intOf(info, "model.mla.q_lora_rank");
        m.mla.kvLoraRank = intOf(info, "model.mla.kv_lora_rank");
        m.mla.qkNopeDim = intOf(info, "model.mla.qk_nope_head_dim");
        m.mla.qkRopeDim = intOf(info, "model.mla.qk_rope_head_dim");
        m.mla.vHeadDim = intOf(info, "model.mla.v_head_dim");
    }
    m.moe.experts = intOf(info, "model.moe.experts");
    m.moe.topK = intOf(info, "model.moe.experts_per_token");
    m.moe.expertFfn = intOf(info, "model.moe.expert_ffn");
    m.moe.sharedExperts = intOf(info, "model.moe.shared_experts");
    m.moe.denseLayers = intOf(info, "model.moe.dense_layers");
    double skew = 0;
    if (parseDouble(valueOf(info, "model.moe.routing_skew"), skew)) m.moe.routingSkew = skew;
    m.formats.attention = parseWeightFormat(valueOf(info, "model.weights.attention")).value_or(WeightFormat::Default);
    m.formats.mlp = parseWeightFormat(valueOf(info, "model.weights.mlp")).value_or(WeightFormat::Default);
    m.formats.experts = parseWeightFormat(valueOf(info, "model.weights.experts")).value_or(WeightFormat::Default);
    if (moeParallel) *moeParallel = parseMoeParallel(valueOf(info, "moe_parallel")).value_or(MoeParallel::Tensor);
}

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
    addModelExtras(m, plan.moeParallel, info);
    return info;
}

}  // namespace tpscope::core
