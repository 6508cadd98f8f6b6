// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// GEMM and attention shapes of a PyTorch profiler trace, from the launching CPU op (issue 27 §4: the
// model behind an imported trace that does not name it).
//
// Input: the "Input Dims" and "Input type" args of a CPU op the rules class as GEMM (aten::mm, addmm,
// linear, matmul, _scaled_mm, ...; recorded when the profiler ran with record_shapes=True), and the
// "External id" that the op's kernels carry. Mapping: the first two tensor arguments of rank >= 2 are
// the activation a[..., K] and the weight, either b[K, N] (mm, addmm, matmul, _scaled_mm) or w[N, K]
// (linear); M is the product of a's other dims. A batched second operand (bmm, attention matmuls),
// missing dims or no matching K give no shape. The kernel launched by the op gets a GemmPayload
// {M, N, K, dtype of the weight}, as tpscope's own exports carry in their `gemm m/n/k` args.
// The first attention op with shapes (aten SDPA: q, k, v as [B, H, S, D]; _flash_attention_forward and
// _efficient_attention_forward: [B, S, H, D]) gives the trace's metadata attention_heads,
// attention_kv_heads and attention_head_dim (q's H, k's H, q's D). Cost: one args lookup per GEMM-class
// op, one per attention op until one had shapes, and one hash lookup per GEMM kernel while any shape
// is kept; other ops and traces recorded without shapes cost nothing.

#include <cstdint>
#include <optional>
#include <string_view>
#include <unordered_map>

#include <simdjson.h>

#include "core/io/import/trace_part.h"
#include "core/trace/payload.h"

namespace tpscope::core {

class KinetoGemmShapes {
  public:
    // A CPU op of this class (the rules' cpu_op class): a GEMM op's shape is kept under its External
    // id; the first attention op's heads go into the part's metadata.
    void takeOp(EventKind opClass, std::string_view opName, simdjson::dom::object args, std::int64_t externalId,
                TracePart& part);
    bool active() const { return !m_shapes.empty(); }
    // The payload of a GEMM kernel launched by the op with this External id; kNoPayload when none.
    PayloadId payloadFor(std::int64_t externalId, TracePart& part) const;

  private:
    std::unordered_map<std::int64_t, GemmPayload> m_shapes;
    bool m_attentionSeen = false;
};

// The GEMM an op's Input Dims describe (m, n, k > 0), or nullopt; exposed for tests.
std::optional<GemmPayload> gemmFromInputDims(std::string_view opName, simdjson::dom::object args);

struct AttentionShape {
    std::int64_t heads = 0;
    std::int64_t kvHeads = 0;
    std::int64_t headDim = 0;
};
// Heads of an attention op's q and k (layout by the op's name, see above), or nullopt.
std::optional<AttentionShape> attentionFromInputDims(std::string_view opName, simdjson::dom::object args);

}  // namespace tpscope::core
