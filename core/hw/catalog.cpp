// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/hw/catalog.h"

#include <simdjson.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "core/util/closest_name.h"
#include "core/util/json_fields.h"

namespace tpscope::core {

std::string_view embeddedResource(std::string_view name);  // generated from resources/*.json

namespace {

bool isKebabId(std::string_view id) {
    if (id.empty() || id.front() == '-' || id.back() == '-') return false;
    char prev = 0;
    for (const char c : id) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
        if (!ok || (c == '-' && prev == '-')) return false;
        prev = c;
    }
    return true;
}

template <typename T>
void upsert(std::vector<T>& items, T item) {
    auto it = std::find_if(items.begin(), items.end(), [&](const T& x) { return x.id == item.id; });
    if (it != items.end()) {
        *it = std::move(item);
    } else {
        items.push_back(std::move(item));
    }
}

template <typename T>
std::string knownIds(const std::vector<T>& items) {
    std::string out;
    for (const auto& item : items) out += (out.empty() ? "" : ", ") + item.id;
    return out;
}

template <typename T>
Result<T> findById(const std::vector<T>& items, std::string_view id, std::string_view what) {
    for (const auto& item : items) {
        if (item.id == id) return item;
    }
    std::vector<std::string> ids;
    for (const auto& item : items) ids.push_back(item.id);
    const std::string close = closestName(id, ids);
    return makeError(ErrorCode::NotFound, "unknown " + std::string(what) + " '" + std::string(id) + "'" +
                                              (close.empty() ? "" : " (did you mean " + close + "?)") +
                                              "; known: " + knownIds(items));
}

std::map<std::string, std::string> readSources(simdjson::dom::object obj) {
    std::map<std::string, std::string> sources;
    simdjson::dom::object src;
    if (obj["sources"].get_object().get(src) == simdjson::SUCCESS) {
        for (auto [key, value] : src) {
            std::string_view text;
            if (value.get_string().get(text) == simdjson::SUCCESS) sources.emplace(std::string(key), std::string(text));
        }
    }
    return sources;
}

Result<std::string> readId(simdjson::dom::object obj, const std::string& where) {
    auto id = json::string(obj, "id", where);
    if (!id) return id;
    if (!isKebabId(*id)) {
        return makeError(ErrorCode::InvalidArgument, "id '" + *id + "' must be lowercase kebab-case (e.g. my-gpu-80gb)",
                         where);
    }
    return id;
}

Result<std::int64_t> optionalCount(simdjson::dom::object obj, std::string_view field, const std::string& at) {
    const double v = json::optionalNumber(obj, field, 0);
    if (!(v >= 0) || v > 1e12 || v != static_cast<double>(static_cast<std::int64_t>(v))) {
        return makeError(ErrorCode::InvalidArgument, "'" + std::string(field) + "' must be a whole number >= 0", at);
    }
    return static_cast<std::int64_t>(v);
}

// "moe": {"experts", "experts_per_token", "expert_ffn", "shared_experts", "dense_layers", "routing_skew"}
Status parseMoe(simdjson::dom::object obj, const std::string& at, MoeDims& moe) {
    simdjson::dom::object o;
    if (obj["moe"].get_object().get(o) != simdjson::SUCCESS) return Ok{};
    const std::string where = at + " moe";
    TPSCOPE_TRY_ASSIGN(moe.experts, json::positiveInt(o, "experts", where));
    TPSCOPE_TRY_ASSIGN(moe.topK, json::positiveInt(o, "experts_per_token", where));
    TPSCOPE_TRY_ASSIGN(moe.expertFfn, json::positiveInt(o, "expert_ffn", where));
    TPSCOPE_TRY_ASSIGN(moe.sharedExperts, optionalCount(o, "shared_experts", where));
    TPSCOPE_TRY_ASSIGN(moe.denseLayers, optionalCount(o, "dense_layers", where));
    moe.routingSkew = json::optionalNumber(o, "routing_skew", 0);
    return Ok{};
}

// "attention": "gqa" | "mla"; "mla": {"q_lora_rank", "kv_lora_rank", "qk_nope_head_dim", "qk_rope_head_dim",
// "v_head_dim"}
Status parseAttention(simdjson::dom::object obj, const std::string& at, ModelSpec& m) {
    const std::string kind = json::optionalString(obj, "attention", "gqa");
    if (kind != "gqa" && kind != "mla") {
        return makeError(ErrorCode::InvalidArgument, "'attention' must be gqa or mla, got '" + kind + "'", at);
    }
    if (kind == "gqa") return Ok{};
    m.attention = AttentionKind::Mla;
    simdjson::dom::object o;
    if (obj["mla"].get_object().get(o) != simdjson::SUCCESS) {
        return makeError(ErrorCode::InvalidArgument, "attention 'mla' needs an 'mla' object with its ranks and dims",
                         at);
    }
    const std::string where = at + " mla";
    TPSCOPE_TRY_ASSIGN(m.mla.qLoraRank, optionalCount(o, "q_lora_rank", where));
    TPSCOPE_TRY_ASSIGN(m.mla.kvLoraRank, json::positiveInt(o, "kv_lora_rank", where));
    TPSCOPE_TRY_ASSIGN(m.mla.qkNopeDim, json::positiveInt(o, "qk_nope_head_dim", where));
    TPSCOPE_TRY_ASSIGN(m.mla.qkRopeDim, json::positiveInt(o, "qk_rope_head_dim", where));
    TPSCOPE_TRY_ASSIGN(m.mla.vHeadDim, json::positiveInt(o, "v_head_dim", where));
    m.headDim = m.mla.qkNopeDim + m.mla.qkRopeDim;
    return Ok{};
}

// "weights": {"attention": "bf16", "mlp": "fp8", "experts": "mxfp4"}; absent parts take the plan's dtype.
Status parseWeightFormats(simdjson::dom::object obj, const std::string& at, WeightFormats& formats) {
    simdjson::dom::object o;
    if (obj["weights"].get_object().get(o) != simdjson::SUCCESS) return Ok{};
    for (auto [key, target] : {std::pair{"attention", &formats.attention}, std::pair{"mlp", &formats.mlp},
                               std::pair{"experts", &formats.experts}}) {
        const std::string text = json::optionalString(o, key, "default");
        const auto f = parseWeightFormat(text);
        if (!f) {
            return makeError(ErrorCode::InvalidArgument,
                             "weights." + std::string(key) + " '" + text +
                                 "' is not one of default, fp32, fp16, bf16, fp8, mxfp4, nvfp4",
                             at);
        }
        *target = *f;
    }
    return Ok{};
}

Result<ModelSpec> parseModel(simdjson::dom::object obj, const std::string& where) {
    ModelSpec m;
    TPSCOPE_TRY_ASSIGN(m.id, readId(obj, where));
    const std::string at = where + " model '" + m.id + "'";
    m.name = json::optionalString(obj, "name", m.id);
    TPSCOPE_TRY_ASSIGN(m.hidden, json::positiveInt(obj, "hidden", at));
    TPSCOPE_TRY_ASSIGN(m.ffn, json::positiveInt(obj, "ffn", at));
    TPSCOPE_TRY_ASSIGN(m.heads, json::positiveInt(obj, "heads", at));
    TPSCOPE_TRY_ASSIGN(m.kvHeads, json::positiveInt(obj, "kv_heads", at));
    TPSCOPE_TRY_ASSIGN(m.layers, json::positiveInt(obj, "layers", at));
    TPSCOPE_TRY_ASSIGN(m.vocab, json::positiveInt(obj, "vocab", at));
    m.headDim = static_cast<std::int64_t>(json::optionalNumber(obj, "head_dim", 0));
    if (m.headDim == 0) {
        if (m.hidden % m.heads != 0) {
            return makeError(ErrorCode::InvalidArgument,
                             "no 'head_dim' given and hidden is not a multiple of heads to derive it", at);
        }
        m.headDim = m.hidden / m.heads;
    }
    TPSCOPE_TRY(parseAttention(obj, at, m));
    TPSCOPE_TRY(parseMoe(obj, at, m.moe));
    TPSCOPE_TRY(parseWeightFormats(obj, at, m.formats));
    m.source = json::optionalString(obj, "source");
    if (auto status = validateModel(m); !status) return makeError(status.error().code, status.error().message, at);
    return m;
}

Result<GpuSpec> parseGpu(simdjson::dom::object obj, const std::string& where) {
    GpuSpec g;
    TPSCOPE_TRY_ASSIGN(g.id, readId(obj, where));
    const std::string at = where + " gpu '" + g.id + "'";
    g.name = json::optionalString(obj, "name", g.id);
    double memory = 0;
    TPSCOPE_TRY_ASSIGN(memory, json::positiveNumber(obj, "memory_bytes", at));
    g.memoryBytes = static_cast<std::uint64_t>(memory);
    TPSCOPE_TRY_ASSIGN(g.hbmBytesPerSec, json::positiveNumber(obj, "hbm_bytes_per_sec", at));
    TPSCOPE_TRY_ASSIGN(g.fp16Flops, json::positiveNumber(obj, "fp16_flops", at));
    g.bf16Flops = json::optionalNumber(obj, "bf16_flops", g.fp16Flops);
    g.fp8Flops = json::optionalNumber(obj, "fp8_flops", 0);
    g.fp32Flops = json::optionalNumber(obj, "fp32_flops", 0);
    g.sms = static_cast<int>(json::optionalNumber(obj, "sms", 0));
    if (g.bf16Flops < 0 || g.fp8Flops < 0 || g.fp32Flops < 0 || g.sms < 0) {
        return makeError(ErrorCode::InvalidArgument, "FLOP/s and SM counts must not be negative", at);
    }
    g.sources = readSources(obj);
    return g;
}

// "protocols": {"ll": {"base_latency_ns", "hop_latency_ns", "bandwidth_fraction"}, "ll128": ..., "simple": ...}
Status parseProtocols(simdjson::dom::object obj, const std::string& at, FabricSpec& f) {
    simdjson::dom::object protocols;
    if (obj["protocols"].get_object().get(protocols) != simdjson::SUCCESS) return Ok{};
    for (auto [key, value] : protocols) {
        const auto proto = parseCollectiveProto(key);
        const int index = proto ? protocolIndex(*proto) : -1;
        simdjson::dom::object p;
        if (index < 0 || value.get_object().get(p) != simdjson::SUCCESS) {
            return makeError(ErrorCode::InvalidArgument,
                             "'protocols' holds objects keyed ll, ll128 or simple; got '" + std::string(key) + "'", at);
        }
        const std::string where = at + " protocol " + std::string(key);
        ProtocolSpec spec;
        TPSCOPE_TRY_ASSIGN(spec.baseLatencyNs, json::nonNegativeNumber(p, "base_latency_ns", where));
        TPSCOPE_TRY_ASSIGN(spec.hopLatencyNs, json::nonNegativeNumber(p, "hop_latency_ns", where));
        TPSCOPE_TRY_ASSIGN(spec.bandwidthFraction, json::nonNegativeNumber(p, "bandwidth_fraction", where));
        if (spec.bandwidthFraction > 1) {
            return makeError(ErrorCode::InvalidArgument, "bandwidth_fraction must lie in [0, 1]", where);
        }
        f.protocols[static_cast<std::size_t>(index)] = spec;
    }
    return Ok{};
}

// "algorithm_params": {"nvls": {"base_latency_ns", "hop_latency_ns", "busbw_bytes_per_sec"}}, each optional.
Status parseAlgorithmParams(simdjson::dom::object obj, const std::string& at, FabricSpec& f) {
    simdjson::dom::object params;
    if (obj["algorithm_params"].get_object().get(params) != simdjson::SUCCESS) return Ok{};
    for (auto [key, value] : params) {
        const auto algo = parseCollectiveAlgo(key);
        simdjson::dom::object p;
        if (!algo || value.get_object().get(p) != simdjson::SUCCESS) {
            return makeError(ErrorCode::InvalidArgument,
                             "'algorithm_params' holds objects keyed by algorithm; got '" + std::string(key) + "'", at);
        }
        AlgorithmSpec spec;
        spec.algo = *algo;
        spec.baseLatencyNs = json::optionalNumber(p, "base_latency_ns", 0);
        spec.hopLatencyNs = json::optionalNumber(p, "hop_latency_ns", 0);
        spec.busbwBytesPerSec = json::optionalNumber(p, "busbw_bytes_per_sec", 0);
        if (spec.baseLatencyNs < 0 || spec.hopLatencyNs < 0 || spec.busbwBytesPerSec < 0) {
            return makeError(ErrorCode::InvalidArgument, "algorithm parameters must not be negative",
                             at + " algorithm " + std::string(key));
        }
        f.algorithmParams.push_back(spec);
    }
    return Ok{};
}

Result<FabricSpec> parseFabric(simdjson::dom::object obj, const std::string& where) {
    FabricSpec f;
    TPSCOPE_TRY_ASSIGN(f.id, readId(obj, where));
    const std::string at = where + " fabric '" + f.id + "'";
    f.name = json::optionalString(obj, "name", f.id);
    const std::string scope = json::optionalString(obj, "scope", "intra-node");
    if (scope == "intra-node") {
        f.scope = FabricScope::IntraNode;
    } else if (scope == "inter-node") {
        f.scope = FabricScope::InterNode;
    } else {
        return makeError(ErrorCode::InvalidArgument, "scope must be 'intra-node' or 'inter-node', got '" + scope + "'",
                         at);
    }
    TPSCOPE_TRY_ASSIGN(f.linkBytesPerSec, json::positiveNumber(obj, "link_bytes_per_sec", at));
    TPSCOPE_TRY_ASSIGN(f.busbwBytesPerSec, json::positiveNumber(obj, "busbw_bytes_per_sec", at));
    TPSCOPE_TRY_ASSIGN(f.hopLatencyNs, json::nonNegativeNumber(obj, "hop_latency_ns", at));
    TPSCOPE_TRY_ASSIGN(f.baseLatencyNs, json::nonNegativeNumber(obj, "base_latency_ns", at));
    f.throughCpu = json::optionalBool(obj, "through_cpu", false);
    f.maxGpus = static_cast<int>(json::optionalNumber(obj, "max_gpus", 0));
    f.nicsPerNode = static_cast<int>(json::optionalNumber(obj, "nics_per_node", 0));
    if (f.maxGpus < 0 || f.nicsPerNode < 0) {
        return makeError(ErrorCode::InvalidArgument, "max_gpus and nics_per_node must not be negative", at);
    }
    simdjson::dom::array algos;
    if (obj["algorithms"].get_array().get(algos) == simdjson::SUCCESS) {
        for (auto a : algos) {
            std::string_view name;
            if (a.get_string().get(name) != simdjson::SUCCESS) continue;
            const auto algo = parseCollectiveAlgo(name);
            if (!algo) {
                return makeError(ErrorCode::InvalidArgument, "unknown algorithm '" + std::string(name) + "'", at);
            }
            f.algorithms.push_back(*algo);
        }
    }
    if (f.algorithms.empty()) f.algorithms.push_back(CollectiveAlgo::Ring);
    TPSCOPE_TRY(parseProtocols(obj, at, f));
    TPSCOPE_TRY(parseAlgorithmParams(obj, at, f));
    fillDefaultProtocols(f);
    f.sources = readSources(obj);
    return f;
}

template <typename T, typename Parse>
Status parseSection(simdjson::dom::object root, std::string_view key, const std::string& context, std::vector<T>& into,
                    Parse parse) {
    simdjson::dom::element section;
    if (root[key].get(section) != simdjson::SUCCESS) return Ok{};
    simdjson::dom::array items;
    if (section.get_array().get(items) != simdjson::SUCCESS) {
        return makeError(ErrorCode::ParseError, "'" + std::string(key) + "' must be an array", context);
    }
    std::vector<T> parsed;
    for (auto item : items) {
        simdjson::dom::object obj;
        if (item.get_object().get(obj) != simdjson::SUCCESS) {
            return makeError(ErrorCode::ParseError, "every entry of '" + std::string(key) + "' must be an object",
                             context);
        }
        auto entry = parse(obj, context);
        if (!entry) return entry.error();
        parsed.push_back(std::move(*entry));
    }
    for (auto& entry : parsed) upsert(into, std::move(entry));
    return Ok{};
}

}  // namespace

Result<Catalog> Catalog::builtin() {
    Catalog catalog;
    for (const char* file : {"models.json", "gpus.json", "fabrics.json"}) {
        if (auto status = catalog.addJson(embeddedResource(file), std::string("built-in ") + file); !status) {
            return status.error();
        }
    }
    return catalog;
}

Result<Catalog> Catalog::load(const std::vector<std::string>& extraFiles) {
    auto catalog = builtin();
    if (!catalog) return catalog;
    std::vector<std::string> files;
    if (const char* env = std::getenv("TPSCOPE_CATALOG"); env != nullptr && *env != '\0') {
        std::stringstream ss(env);
        for (std::string path; std::getline(ss, path, ':');) {
            if (!path.empty()) files.push_back(path);
        }
    }
    files.insert(files.end(), extraFiles.begin(), extraFiles.end());
    for (const auto& path : files) {
        if (auto status = catalog->addFile(path); !status) return status.error();
    }
    return catalog;
}

Status Catalog::addFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return makeError(ErrorCode::IoError, "cannot open catalog file", path);
    std::stringstream buffer;
    buffer << in.rdbuf();
    return addJson(buffer.str(), path);
}

Status Catalog::addJson(std::string_view text, const std::string& context) {
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    if (const auto err = parser.parse(text.data(), text.size()).get(root); err != simdjson::SUCCESS) {
        return makeError(ErrorCode::ParseError, std::string("not valid JSON: ") + simdjson::error_message(err),
                         context);
    }
    simdjson::dom::object obj;
    if (root.get_object().get(obj) != simdjson::SUCCESS) {
        return makeError(ErrorCode::WrongFormat, "expected a JSON object with 'models', 'gpus' or 'fabrics'", context);
    }
    if (obj["models"].error() && obj["gpus"].error() && obj["fabrics"].error()) {
        return makeError(ErrorCode::WrongFormat, "no 'models', 'gpus' or 'fabrics' array: not a tpscope catalog file",
                         context);
    }
    // Parse into copies so a bad file leaves the catalog unchanged.
    Catalog next = *this;
    if (auto s = parseSection(obj, "models", context, next.m_models, parseModel); !s) return s;
    if (auto s = parseSection(obj, "gpus", context, next.m_gpus, parseGpu); !s) return s;
    if (auto s = parseSection(obj, "fabrics", context, next.m_fabrics, parseFabric); !s) return s;
    *this = std::move(next);
    return Ok{};
}

Result<ModelSpec> Catalog::model(std::string_view id) const {
    return findById(m_models, id, "model");
}
Result<GpuSpec> Catalog::gpu(std::string_view id) const {
    return findById(m_gpus, id, "GPU");
}
Result<FabricSpec> Catalog::fabric(std::string_view id) const {
    return findById(m_fabrics, id, "fabric");
}

}  // namespace tpscope::core
