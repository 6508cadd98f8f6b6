// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/workload/hf_config.h"

#include <simdjson.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <vector>

namespace tpscope::core {

namespace {

constexpr std::uintmax_t kMaxConfigBytes = 1U << 20U;
constexpr std::array<std::string_view, 8> kFamilies{"llama",   "mistral",   "qwen2",   "qwen3",
                                                    "mixtral", "qwen3_moe", "gpt_oss", "deepseek_v3"};

// Reads the fields of one config object, collecting every missing or malformed one so that a user
// fixes them all at once.
class ConfigReader {
  public:
    ConfigReader(simdjson::dom::object obj, std::string source) : m_obj(obj), m_source(std::move(source)) {}

    // A required positive integer; 0 when missing or malformed (recorded).
    std::int64_t required(std::string_view field) {
        const auto v = optional(field);
        if (!v) {
            if (!has(field)) m_missing.emplace_back(field);
            return 0;
        }
        return *v;
    }

    // An optional integer >= 0; nullopt when absent or null; malformed values are recorded.
    std::optional<std::int64_t> optional(std::string_view field) {
        simdjson::dom::element e;
        if (m_obj[field].get(e) != simdjson::SUCCESS || e.is_null()) return std::nullopt;
        std::int64_t v = 0;
        if (e.get_int64().get(v) != simdjson::SUCCESS) {
            double d = 0;
            if (e.get_double().get(d) == simdjson::SUCCESS && d == static_cast<double>(static_cast<std::int64_t>(d))) {
                v = static_cast<std::int64_t>(d);
            } else {
                m_bad.push_back(std::string(field) + " (not an integer)");
                return std::nullopt;
            }
        }
        if (v < 0) {
            m_bad.push_back(std::string(field) + " (negative)");
            return std::nullopt;
        }
        return v;
    }

    bool has(std::string_view field) const {
        simdjson::dom::element e;
        return m_obj[field].get(e) == simdjson::SUCCESS && !e.is_null();
    }

    std::string text(std::string_view field) const {
        std::string_view s;
        return m_obj[field].get_string().get(s) == simdjson::SUCCESS ? std::string(s) : std::string();
    }

    bool flag(std::string_view field, bool fallback) const {
        bool b = fallback;
        return m_obj[field].get_bool().get(b) == simdjson::SUCCESS ? b : fallback;
    }

    simdjson::dom::object object() const { return m_obj; }

    // One error listing every missing and malformed field, or Ok.
    Status verdict() const {
        std::string message;
        auto list = [](const std::vector<std::string>& v) {
            std::string out;
            for (const auto& s : v) out += (out.empty() ? "" : ", ") + s;
            return out;
        };
        if (!m_missing.empty()) message = "missing field(s): " + list(m_missing);
        if (!m_bad.empty()) message += (message.empty() ? "" : "; ") + std::string("bad field(s): ") + list(m_bad);
        if (message.empty()) return Ok{};
        return makeError(ErrorCode::ParseError, message, m_source);
    }

  private:
    simdjson::dom::object m_obj;
    std::string m_source;
    std::vector<std::string> m_missing;
    std::vector<std::string> m_bad;
};

Error unsupported(const std::string& source, const std::string& message) {
    return makeError(ErrorCode::Unsupported, message, source);
}

// Sliding-window layers: `layer_types` (gpt-oss, Gemma 3: "sliding_attention" / "full_attention" per
// layer) becomes ModelSpec's attentionPattern; a bare `sliding_window` (Mistral v0.1) slides on every
// layer. Qwen2's use_sliding_window applies from max_window_layers on, a split the pattern does not
// hold, so it is refused rather than read as full attention.
Status readAttentionWindow(ConfigReader& r, const std::string& type, const std::string& source, ModelSpec& m) {
    const bool qwen = type == "qwen2" || type == "qwen3" || type == "qwen3_moe";
    if (qwen) {
        if (!r.flag("use_sliding_window", false)) return Ok{};
        return unsupported(source,
                           "'use_sliding_window': Qwen's sliding window from max_window_layers on is not "
                           "supported; remove the field to model full attention on every layer");
    }
    std::vector<LayerAttention> pattern;
    simdjson::dom::array layerTypes;
    if (r.object()["layer_types"].get_array().get(layerTypes) == simdjson::SUCCESS) {
        for (simdjson::dom::element e : layerTypes) {
            std::string_view s;
            if (e.get_string().get(s) != simdjson::SUCCESS) {
                return unsupported(source, "'layer_types': every entry must be a string");
            }
            if (s == "full_attention") {
                pattern.push_back(LayerAttention::Full);
            } else if (s == "sliding_attention") {
                pattern.push_back(LayerAttention::Sliding);
            } else {
                return unsupported(source, "'layer_types': layer kind '" + std::string(s) +
                                               "' is not supported (full_attention, sliding_attention)");
            }
        }
        if (static_cast<std::int64_t>(pattern.size()) != m.layers) {
            return unsupported(source, "'layer_types' lists " + std::to_string(pattern.size()) +
                                           " layers, num_hidden_layers says " + std::to_string(m.layers));
        }
    } else if (r.has("sliding_window")) {
        pattern = {LayerAttention::Sliding};
    }
    const bool slides = std::find(pattern.begin(), pattern.end(), LayerAttention::Sliding) != pattern.end();
    if (!slides) return Ok{};
    const auto window = r.optional("sliding_window");
    if (!window || *window <= 0) {
        return unsupported(source, "'sliding_window': sliding layers need a positive window (tokens)");
    }
    m.attentionPattern = std::move(pattern);
    m.slidingWindow = *window;
    return Ok{};
}

Status readQuantization(const ConfigReader& r, const std::string& source, ModelSpec& m) {
    simdjson::dom::object q;
    if (r.object()["quantization_config"].get_object().get(q) != simdjson::SUCCESS) return Ok{};
    std::string_view method;
    if (q["quant_method"].get_string().get(method) != simdjson::SUCCESS) {
        return unsupported(source, "'quantization_config' without a 'quant_method'");
    }
    if (method == "fp8") {
        m.formats = {WeightFormat::Fp8, WeightFormat::Fp8, WeightFormat::Fp8};
        return Ok{};
    }
    if (method == "mxfp4") {
        // gpt-oss: the routed experts in MXFP4; attention, router, embeddings and LM head stay bf16.
        m.formats = {WeightFormat::Bf16, WeightFormat::Bf16, WeightFormat::Mxfp4};
        return Ok{};
    }
    return unsupported(source, "'quantization_config.quant_method' '" + std::string(method) +
                                   "' is not supported (fp8 or mxfp4; run unquantised configs with --weights)");
}

Status readTorchDtype(const ConfigReader& r, const std::string& source) {
    const std::string dtype = r.text("torch_dtype").empty() ? r.text("dtype") : r.text("torch_dtype");
    if (dtype.empty() || dtype == "bfloat16" || dtype == "float16" || dtype == "float32") return Ok{};
    return unsupported(source, "'torch_dtype' '" + dtype + "' is not supported (bfloat16, float16 or float32)");
}

Status readMoe(ConfigReader& r, const std::string& type, const std::string& source, ModelSpec& m) {
    if (type == "mixtral" || type == "gpt_oss") {
        m.moe.experts = r.required("num_local_experts");
        m.moe.topK = r.required("num_experts_per_tok");
        m.moe.expertFfn = m.ffn;  // both families' experts are intermediate_size wide
    } else if (type == "qwen3_moe") {
        m.moe.experts = r.required("num_experts");
        m.moe.topK = r.required("num_experts_per_tok");
        m.moe.expertFfn = r.required("moe_intermediate_size");
        simdjson::dom::array mlpOnly;
        const bool denseLayers =
            r.object()["mlp_only_layers"].get_array().get(mlpOnly) == simdjson::SUCCESS && mlpOnly.size() > 0;
        if (r.optional("decoder_sparse_step").value_or(1) != 1 || denseLayers) {
            return unsupported(source,
                               "'decoder_sparse_step' / 'mlp_only_layers': MoE on some layers only is not "
                               "supported (tpscope's MoE layers follow leading dense layers)");
        }
    } else if (type == "deepseek_v3") {
        m.moe.experts = r.required("n_routed_experts");
        m.moe.topK = r.required("num_experts_per_tok");
        m.moe.expertFfn = r.required("moe_intermediate_size");
        m.moe.sharedExperts = r.optional("n_shared_experts").value_or(0);
        m.moe.denseLayers = r.optional("first_k_dense_replace").value_or(0);
        if (r.optional("moe_layer_freq").value_or(1) != 1) {
            return unsupported(source,
                               "'moe_layer_freq' other than 1 is not supported (MoE on every layer after "
                               "the first_k_dense_replace dense ones)");
        }
        m.attention = AttentionKind::Mla;
        m.mla.qLoraRank = r.optional("q_lora_rank").value_or(0);
        m.mla.kvLoraRank = r.required("kv_lora_rank");
        m.mla.qkNopeDim = r.required("qk_nope_head_dim");
        m.mla.qkRopeDim = r.required("qk_rope_head_dim");
        m.mla.vHeadDim = r.required("v_head_dim");
        m.headDim = m.mla.qkNopeDim + m.mla.qkRopeDim;
    }
    return Ok{};
}

}  // namespace

Result<ModelSpec> modelFromHfConfig(std::string_view json, const std::string& source) {
    simdjson::dom::parser parser;
    simdjson::dom::element doc;
    simdjson::dom::object obj;
    if (parser.parse(json.data(), json.size()).get(doc) != simdjson::SUCCESS ||
        doc.get_object().get(obj) != simdjson::SUCCESS) {
        return makeError(ErrorCode::ParseError, "not a JSON object (a Hugging Face config.json)", source);
    }
    ConfigReader r(obj, source);
    const std::string type = r.text("model_type");
    if (type.empty()) return makeError(ErrorCode::ParseError, "missing field(s): model_type", source);
    if (std::find(kFamilies.begin(), kFamilies.end(), type) == kFamilies.end()) {
        std::string list;
        for (const auto f : kFamilies) list += (list.empty() ? "" : ", ") + std::string(f);
        return unsupported(source, "'model_type' '" + type + "' is not supported (" + list + ")");
    }
    ModelSpec m;
    const std::string file = std::filesystem::path(source).filename().string();
    m.id = "config:" + file;
    m.name = r.text("_name_or_path").empty() ? type + " (" + file + ")" : r.text("_name_or_path");
    m.hidden = r.required("hidden_size");
    m.ffn = r.required("intermediate_size");
    m.heads = r.required("num_attention_heads");
    m.layers = r.required("num_hidden_layers");
    m.vocab = r.required("vocab_size");
    m.kvHeads = r.optional("num_key_value_heads").value_or(m.heads);
    m.headDim = r.optional("head_dim").value_or(m.heads > 0 ? m.hidden / m.heads : 0);
    TPSCOPE_TRY(readMoe(r, type, source, m));
    TPSCOPE_TRY(r.verdict());
    TPSCOPE_TRY(readAttentionWindow(r, type, source, m));
    TPSCOPE_TRY(readTorchDtype(r, source));
    TPSCOPE_TRY(readQuantization(r, source, m));
    m.source = "Hugging Face config.json (" + source + ", model_type " + type + ")";
    if (r.flag("tie_word_embeddings", false)) {
        m.source += "; tied embeddings: the LM head reads the embedding table, counted twice in memory";
    }
    if (auto status = validateModel(m); !status) return makeError(status.error().code, status.error().message, source);
    return m;
}

Result<ModelSpec> loadHfConfig(const std::string& path) {
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    if (ec) return makeError(ErrorCode::NotFound, "cannot read the file: " + ec.message(), path);
    if (size > kMaxConfigBytes) {
        return makeError(ErrorCode::WrongFormat, "over 1 MiB: not a Hugging Face config.json", path);
    }
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (!in && !in.eof()) return makeError(ErrorCode::IoError, "cannot read the file", path);
    return modelFromHfConfig(text.str(), path);
}

}  // namespace tpscope::core
