// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/io/import/kineto_gemm_shapes.h"

#include <array>
#include <limits>
#include <string>
#include <vector>

#include "core/io/import/kineto_fields.h"

namespace tpscope::core {

namespace {

struct Operand {
    std::vector<std::int64_t> dims;
    std::size_t position = 0;
};

// The first two tensor arguments of rank >= 2, in argument order (addmm's bias and scalars skipped).
std::vector<Operand> matrixOperands(simdjson::dom::array inputDims) {
    std::vector<Operand> out;
    std::size_t position = 0;
    for (const auto arg : inputDims) {
        simdjson::dom::array shape;
        if (arg.get_array().get(shape) == simdjson::SUCCESS && shape.size() >= 2) {
            Operand o;
            o.position = position;
            for (const auto d : shape) {
                std::int64_t v = 0;
                if (d.get_int64().get(v) != simdjson::SUCCESS || v <= 0) return {};
                o.dims.push_back(v);
            }
            out.push_back(std::move(o));
            if (out.size() == 2) break;
        }
        ++position;
    }
    return out;
}

}  // namespace

std::optional<GemmPayload> gemmFromInputDims(std::string_view opName, simdjson::dom::object args) {
    simdjson::dom::array inputDims;
    if (args["Input Dims"].get_array().get(inputDims) != simdjson::SUCCESS) return std::nullopt;
    const auto ops = matrixOperands(inputDims);
    if (ops.size() != 2 || ops[1].dims.size() != 2) return std::nullopt;  // batched weights: not a weight GEMM
    const auto& a = ops[0].dims;
    const auto& b = ops[1].dims;
    const std::int64_t k = a.back();
    std::int64_t n = 0;
    if (b[0] == k) {
        n = b[1];  // b[K, N]
    } else if (b[1] == k && opName.find("linear") != std::string_view::npos) {
        n = b[0];  // linear's weight w[N, K]
    } else {
        return std::nullopt;
    }
    std::int64_t m = 1;
    for (std::size_t i = 0; i + 1 < a.size(); ++i) m *= a[i];
    constexpr std::int64_t kMax = std::numeric_limits<std::uint32_t>::max();
    if (m <= 0 || m > kMax || n > kMax || k > kMax) return std::nullopt;
    GemmPayload g{static_cast<std::uint32_t>(m), static_cast<std::uint32_t>(n), static_cast<std::uint32_t>(k),
                  Dtype::Unknown};
    simdjson::dom::array types;
    if (args["Input type"].get_array().get(types) == simdjson::SUCCESS && ops[1].position < types.size()) {
        std::string_view type;
        if (types.at(ops[1].position).get_string().get(type) == simdjson::SUCCESS) {
            g.dtype = kineto::parseTorchDtype(type);
        }
    }
    return g;
}

std::optional<AttentionShape> attentionFromInputDims(std::string_view opName, simdjson::dom::object args) {
    const auto has = [&](std::string_view s) { return opName.find(s) != std::string_view::npos; };
    std::size_t headAxis = 0;
    if (has("_flash_attention_forward") || has("_efficient_attention_forward")) {
        headAxis = 2;  // [B, S, H, D]
    } else if (has("scaled_dot_product")) {
        headAxis = 1;  // [B, H, S, D]
    } else {
        return std::nullopt;
    }
    simdjson::dom::array inputDims;
    if (args["Input Dims"].get_array().get(inputDims) != simdjson::SUCCESS) return std::nullopt;
    std::array<std::array<std::int64_t, 4>, 2> qk{};  // q's and k's dims
    for (std::size_t t = 0; t < qk.size(); ++t) {
        simdjson::dom::array shape;
        if (inputDims.at(t).get_array().get(shape) != simdjson::SUCCESS || shape.size() != 4) return std::nullopt;
        std::size_t i = 0;
        for (const auto d : shape) {
            std::int64_t v = 0;
            if (d.get_int64().get(v) != simdjson::SUCCESS || v <= 0) return std::nullopt;
            qk[t][i++] = v;
        }
    }
    const auto& q = qk[0];
    const auto& k = qk[1];
    const AttentionShape a{q[headAxis], k[headAxis], q[3]};
    if (a.kvHeads > a.heads || a.heads % a.kvHeads != 0) return std::nullopt;
    return a;
}

void KinetoGemmShapes::takeOp(EventKind opClass, std::string_view opName, simdjson::dom::object args,
                              std::int64_t externalId, TracePart& part) {
    if (opClass == EventKind::Gemm) {
        if (externalId < 0) return;
        if (const auto g = gemmFromInputDims(opName, args)) m_shapes.insert_or_assign(externalId, *g);
    } else if (opClass == EventKind::Attention && !m_attentionSeen) {
        if (const auto a = attentionFromInputDims(opName, args)) {
            m_attentionSeen = true;
            part.setMetadata("attention_heads", std::to_string(a->heads));
            part.setMetadata("attention_kv_heads", std::to_string(a->kvHeads));
            part.setMetadata("attention_head_dim", std::to_string(a->headDim));
        }
    }
}

PayloadId KinetoGemmShapes::payloadFor(std::int64_t externalId, TracePart& part) const {
    const auto it = m_shapes.find(externalId);
    return it == m_shapes.end() ? kNoPayload : part.payloads.intern(Payload::of(it->second));
}

}  // namespace tpscope::core
