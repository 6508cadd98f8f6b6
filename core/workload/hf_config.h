// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// A Hugging Face `config.json`, as users download it with a checkpoint, read into a ModelSpec
// (issue 44 §5; `--model-config FILE`), so a model the catalog lacks needs no preset.
//
// Families (by `model_type`): llama, mistral, qwen2, qwen3 (dense GQA); mixtral, qwen3_moe, gpt_oss
// (MoE); deepseek_v3 (MoE + MLA). Fields read: num_hidden_layers, hidden_size, intermediate_size,
// num_attention_heads, num_key_value_heads (default: the heads), head_dim (default hidden / heads),
// vocab_size, tie_word_embeddings, torch_dtype; MoE num_local_experts / num_experts / n_routed_experts,
// num_experts_per_tok, moe_intermediate_size, n_shared_experts, first_k_dense_replace; MLA q_lora_rank,
// kv_lora_rank, qk_nope_head_dim, qk_rope_head_dim, v_head_dim; quantization_config.quant_method (fp8:
// every part fp8, DeepSeek-V3's block-scaled fp8; mxfp4: the experts, gpt-oss's); layer_types and
// sliding_window (ModelSpec's attentionPattern and slidingWindow). Every other field is ignored. A
// missing required field, a value of the wrong type, or a feature the plan does not model (Qwen's
// use_sliding_window, a layer kind other than full or sliding attention, MoE on some layers only,
// another quantisation) is one error naming the field.
// Tied embeddings are read: the plan streams the LM head either way; the memory estimate counts the
// table twice (said in the model's source). O(file size); files over 1 MiB are refused.

#include <string>
#include <string_view>

#include "core/util/result.h"
#include "core/workload/model.h"

namespace tpscope::core {

// `source` names the file in messages and becomes the model's id ("config:<file name>").
Result<ModelSpec> modelFromHfConfig(std::string_view json, const std::string& source);
Result<ModelSpec> loadHfConfig(const std::string& path);

}  // namespace tpscope::core
