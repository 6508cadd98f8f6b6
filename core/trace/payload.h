// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Per-kind event payload: what a collective moved and how, a GEMM's shape, a copy's size.
// Payloads repeat (every layer's all-reduce has the same op and bytes), so they are interned in a
// per-trace table and an event stores a 4-byte PayloadId (0 = none).

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "core/trace/event_kind.h"
#include "core/util/strong_id.h"

namespace tpscope::core {

using PayloadId = std::uint32_t;
inline constexpr PayloadId kNoPayload = 0;

struct CollectivePayload {
    CollectiveOp op = CollectiveOp::Unknown;
    CollectiveAlgo algo = CollectiveAlgo::Unknown;
    CollectiveProto proto = CollectiveProto::Unknown;
    Dtype dtype = Dtype::Unknown;
    std::uint32_t groupSize = 0;  // ranks in the communicator
    NameId communicator{};        // process group / communicator name ("" when unknown)
    std::uint64_t bytes = 0;      // message size per rank (nccl-tests "size")
    bool operator==(const CollectivePayload&) const = default;
};

struct GemmPayload {
    std::uint32_t m = 0, n = 0, k = 0;
    Dtype dtype = Dtype::Unknown;
    bool operator==(const GemmPayload&) const = default;
};

struct CopyPayload {
    CopyKind kind = CopyKind::Unknown;
    std::uint64_t bytes = 0;
    bool operator==(const CopyPayload&) const = default;
};

enum class PayloadKind : std::uint8_t { None = 0, Collective, Gemm, Copy };

struct Payload {
    PayloadKind kind = PayloadKind::None;
    CollectivePayload collective;
    GemmPayload gemm;
    CopyPayload copy;
    bool operator==(const Payload&) const = default;

    static Payload of(const CollectivePayload& c) {
        Payload p;
        p.kind = PayloadKind::Collective;
        p.collective = c;
        return p;
    }
    static Payload of(const GemmPayload& g) {
        Payload p;
        p.kind = PayloadKind::Gemm;
        p.gemm = g;
        return p;
    }
    static Payload of(const CopyPayload& c) {
        Payload p;
        p.kind = PayloadKind::Copy;
        p.copy = c;
        return p;
    }
};

class PayloadTable {
  public:
    PayloadTable();
    PayloadId intern(const Payload& payload);
    const Payload& get(PayloadId id) const { return m_payloads[id]; }
    std::size_t size() const { return m_payloads.size(); }
    const std::vector<Payload>& all() const { return m_payloads; }

  private:
    struct Hash {
        std::size_t operator()(const Payload& p) const noexcept;
    };
    std::vector<Payload> m_payloads;
    std::unordered_map<Payload, PayloadId, Hash> m_index;
};

}  // namespace tpscope::core
