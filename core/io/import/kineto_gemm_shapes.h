// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// GEMM shapes of a PyTorch profiler trace, from the launching CPU op (issue 27 §4: the model behind
// an imported trace that does not name it).
//
// Input: the "Input Dims" and "Input type" args of a CPU op the rules class as GEMM (aten::mm, addmm,
// linear, matmul, _scaled_mm, ...; recorded when the profiler ran with record_shapes=True), and the
// "External id" that the op's kernels carry. Mapping: the first two tensor arguments of rank >= 2 are
// the activation a[..., K] and the weight, either b[K, N] (mm, addmm, matmul, _scaled_mm) or w[N, K]
// (linear); M is the product of a's other dims. A batched second operand (bmm, attention matmuls),
// missing dims or no matching K give no shape. The kernel launched by the op gets a GemmPayload
// {M, N, K, dtype of the weight}, as tpscope's own exports carry in their `gemm m/n/k` args. Cost: one
// args lookup per GEMM-class op and one hash lookup per GEMM kernel while any shape is kept; other
// ops and traces recorded without shapes cost nothing.

#include <cstdint>
#include <string_view>
#include <unordered_map>

#include <simdjson.h>

#include "core/io/import/trace_part.h"
#include "core/trace/payload.h"

namespace tpscope::core {

class KinetoGemmShapes {
  public:
    // Keeps the op's GEMM shape under its External id when its Input Dims give one.
    void takeOp(std::string_view opName, simdjson::dom::object args, std::int64_t externalId);
    bool active() const { return !m_shapes.empty(); }
    // The payload of a GEMM kernel launched by the op with this External id; kNoPayload when none.
    PayloadId payloadFor(std::int64_t externalId, TracePart& part) const;

  private:
    std::unordered_map<std::int64_t, GemmPayload> m_shapes;
};

// The GEMM an op's Input Dims describe (m, n, k > 0), or nullopt; exposed for tests.
std::optional<GemmPayload> gemmFromInputDims(std::string_view opName, simdjson::dom::object args);

}  // namespace tpscope::core
