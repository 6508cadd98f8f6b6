// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/trace/kernel_classifier.h"

#include <simdjson.h>

#include <fstream>
#include <optional>
#include <sstream>

namespace tpscope::core {

std::string_view embeddedResource(std::string_view name);

namespace {

std::vector<std::string> stringList(simdjson::dom::object obj, std::string_view key) {
    std::vector<std::string> out;
    simdjson::dom::array arr;
    if (obj[key].get_array().get(arr) != simdjson::SUCCESS) return out;
    for (auto e : arr) {
        std::string_view s;
        if (e.get_string().get(s) == simdjson::SUCCESS && !s.empty()) out.emplace_back(s);
    }
    return out;
}

// Splits "AllReduce_Sum_f16_RING_LL" on '_' (stopping at '(' of an old-style signature).
std::vector<std::string_view> tokens(std::string_view s) {
    if (const auto paren = s.find('('); paren != std::string_view::npos) s = s.substr(0, paren);
    std::vector<std::string_view> out;
    std::size_t pos = 0;
    while (pos <= s.size()) {
        const std::size_t next = s.find('_', pos);
        const std::size_t end = next == std::string_view::npos ? s.size() : next;
        if (end > pos) out.push_back(s.substr(pos, end - pos));
        if (next == std::string_view::npos) break;
        pos = next + 1;
    }
    return out;
}

std::optional<Dtype> ncclDtype(std::string_view t) {
    if (t == "f16" || t == "half") return Dtype::Fp16;
    if (t == "bf16" || t == "bfloat16") return Dtype::Bf16;  // NCCL < 2.19 writes __nv_bfloat16
    if (t == "f32" || t == "float") return Dtype::Fp32;
    if (t == "f64" || t == "double") return Dtype::Fp64;
    if (t == "i8" || t == "int8" || t == "u8" || t == "uint8") return Dtype::Int8;
    if (t == "i32" || t == "int32" || t == "u32" || t == "uint32") return Dtype::Int32;
    if (t == "i64" || t == "int64" || t == "u64" || t == "uint64") return Dtype::Int64;
    if (t == "f8e4m3" || t == "f8e5m2" || t == "fp8") return Dtype::Fp8;
    return std::nullopt;
}

}  // namespace

CollectivePayload parseNcclKernelName(std::string_view name) {
    CollectivePayload p;
    for (const std::string_view prefix : {"ncclDevKernel_", "ncclKernel_"}) {
        if (name.substr(0, prefix.size()) == prefix) {
            name.remove_prefix(prefix.size());
            break;
        }
    }
    const auto parts = tokens(name);
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const auto t = parts[i];
        if (p.op == CollectiveOp::Unknown) {
            if (const auto op = parseCollectiveOp(t)) {
                p.op = *op;
                continue;
            }
        }
        if (const auto algo = parseCollectiveAlgo(t); algo && p.algo == CollectiveAlgo::Unknown) {
            p.algo = *algo;
            // NCCL >= 2.19 spells NVLSTree as two tokens: ..._NVLS_TREE_SIMPLE.
            if (*algo == CollectiveAlgo::Nvls && i + 1 < parts.size() &&
                parseCollectiveAlgo(parts[i + 1]) == CollectiveAlgo::Tree) {
                p.algo = CollectiveAlgo::NvlsTree;
                ++i;
            }
        } else if (const auto proto = parseCollectiveProto(t); proto && p.proto == CollectiveProto::Unknown) {
            p.proto = *proto;
        } else if (const auto dtype = ncclDtype(t); dtype && p.dtype == Dtype::Unknown) {
            p.dtype = *dtype;
        }
    }
    return p;
}

bool KernelClassifier::Rule::matches(std::string_view name) const {
    bool hit = false;
    for (const auto& p : prefixes) hit = hit || name.substr(0, p.size()) == p;
    for (const auto& c : contains) hit = hit || name.find(c) != std::string_view::npos;
    if (!hit) return false;
    for (const auto& e : except) {
        if (name.find(e) != std::string_view::npos) return false;
    }
    return true;
}

Result<KernelClassifier::RuleSets> KernelClassifier::parseRules(std::string_view text, const std::string& context) {
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    if (const auto err = parser.parse(text.data(), text.size()).get(root); err != simdjson::SUCCESS) {
        return makeError(ErrorCode::ParseError, std::string("not valid JSON: ") + simdjson::error_message(err),
                         context);
    }
    simdjson::dom::array names;
    if (root["rules"].get_array().get(names) != simdjson::SUCCESS) {
        return makeError(ErrorCode::WrongFormat, "expected an object with a 'rules' array", context);
    }
    auto parseArray = [&](simdjson::dom::array rules, const std::string& what) -> Result<std::vector<Rule>> {
        std::vector<Rule> out;
        std::size_t index = 0;
        for (auto item : rules) {
            std::string where = context;
            where += ' ';
            where += what;
            where += ' ';
            where += std::to_string(index++);
            simdjson::dom::object obj;
            if (item.get_object().get(obj) != simdjson::SUCCESS) {
                return makeError(ErrorCode::ParseError, "a rule must be an object", where);
            }
            std::string_view kindText;
            if (obj["kind"].get_string().get(kindText) != simdjson::SUCCESS) {
                return makeError(ErrorCode::ParseError, "missing 'kind'", where);
            }
            Rule rule;
            const auto kind = parseEventKind(kindText);
            if (!kind) {
                return makeError(ErrorCode::InvalidArgument, "unknown kind '" + std::string(kindText) + "'", where);
            }
            rule.kind = *kind;
            rule.prefixes = stringList(obj, "prefix");
            rule.contains = stringList(obj, "contains");
            rule.except = stringList(obj, "except");
            if (rule.prefixes.empty() && rule.contains.empty()) {
                return makeError(ErrorCode::InvalidArgument, "a rule needs 'prefix' or 'contains' patterns", where);
            }
            std::string_view s;
            if (obj["op"].get_string().get(s) == simdjson::SUCCESS) {
                rule.op = parseCollectiveOp(s).value_or(CollectiveOp::Unknown);
            }
            if (obj["algo"].get_string().get(s) == simdjson::SUCCESS) {
                rule.algo = parseCollectiveAlgo(s).value_or(CollectiveAlgo::Unknown);
            }
            out.push_back(std::move(rule));
        }
        return out;
    };
    RuleSets sets;
    TPSCOPE_TRY_ASSIGN(sets.names, parseArray(names, "rule"));
    simdjson::dom::element opRules;
    if (root["cpu_op_rules"].get(opRules) == simdjson::SUCCESS) {
        simdjson::dom::array ops;
        if (opRules.get_array().get(ops) != simdjson::SUCCESS) {
            return makeError(ErrorCode::WrongFormat, "'cpu_op_rules' must be an array", context);
        }
        TPSCOPE_TRY_ASSIGN(sets.ops, parseArray(ops, "cpu_op rule"));
    }
    return sets;
}

const KernelClassifier& KernelClassifier::builtin() {
    static const KernelClassifier instance = [] {
        auto c = fromJson(embeddedResource("kernel_rules.json"), "built-in kernel_rules.json");
        return c ? std::move(*c) : KernelClassifier{};
    }();
    return instance;
}

Result<KernelClassifier> KernelClassifier::fromJson(std::string_view text, const std::string& context) {
    RuleSets sets;
    TPSCOPE_TRY_ASSIGN(sets, parseRules(text, context));
    KernelClassifier c;
    c.m_rules = std::move(sets.names);
    c.m_opRules = std::move(sets.ops);
    return c;
}

Status KernelClassifier::addRulesJson(std::string_view text, const std::string& context) {
    RuleSets sets;
    TPSCOPE_TRY_ASSIGN(sets, parseRules(text, context));
    m_rules.insert(m_rules.begin(), sets.names.begin(), sets.names.end());
    m_opRules.insert(m_opRules.begin(), sets.ops.begin(), sets.ops.end());
    return Ok{};
}

Status KernelClassifier::addRulesFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return makeError(ErrorCode::IoError, "cannot open kernel rules file", path);
    std::stringstream buffer;
    buffer << in.rdbuf();
    return addRulesJson(buffer.str(), path);
}

KernelClass KernelClassifier::classify(std::string_view kernelName) const {
    KernelClass result;
    for (const auto& rule : m_rules) {
        if (!rule.matches(kernelName)) continue;
        result.kind = rule.kind;
        if (rule.kind == EventKind::Collective) {
            result.collective = parseNcclKernelName(kernelName);
            if (rule.op != CollectiveOp::Unknown) result.collective.op = rule.op;
            if (rule.algo != CollectiveAlgo::Unknown) result.collective.algo = rule.algo;
        }
        return result;
    }
    return result;
}

std::optional<EventKind> KernelClassifier::classifyCpuOp(std::string_view opName) const {
    for (const auto& rule : m_opRules) {
        if (rule.matches(opName)) return rule.kind;
    }
    return std::nullopt;
}

EventKind kernelClassWithOp(EventKind nameKind, EventKind opKind) {
    switch (nameKind) {
        case EventKind::Collective:
        case EventKind::Memcpy:
        case EventKind::Memset:
            return nameKind;
        default:
            return opKind;
    }
}

}  // namespace tpscope::core
