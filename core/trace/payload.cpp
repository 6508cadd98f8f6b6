// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/trace/payload.h"

namespace tpscope::core {

PayloadTable::PayloadTable() {
    m_payloads.emplace_back();
}  // id 0: no payload

PayloadId PayloadTable::intern(const Payload& payload) {
    if (payload.kind == PayloadKind::None) return kNoPayload;
    if (const auto it = m_index.find(payload); it != m_index.end()) return it->second;
    const auto id = static_cast<PayloadId>(m_payloads.size());
    m_payloads.push_back(payload);
    m_index.emplace(payload, id);
    return id;
}

std::size_t PayloadTable::Hash::operator()(const Payload& p) const noexcept {
    auto mix = [](std::size_t h, std::uint64_t v) { return h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2)); };
    std::size_t h = static_cast<std::size_t>(p.kind);
    h = mix(h, static_cast<std::uint64_t>(p.collective.op) | (static_cast<std::uint64_t>(p.collective.algo) << 8) |
                   (static_cast<std::uint64_t>(p.collective.proto) << 16) |
                   (static_cast<std::uint64_t>(p.collective.dtype) << 24));
    h = mix(h, p.collective.bytes);
    h = mix(h, (static_cast<std::uint64_t>(p.collective.groupSize) << 32) | p.collective.communicator.value);
    h = mix(h, (static_cast<std::uint64_t>(p.gemm.m) << 32) | p.gemm.n);
    h = mix(h, (static_cast<std::uint64_t>(p.gemm.k) << 8) | static_cast<std::uint64_t>(p.gemm.dtype));
    h = mix(h, p.copy.bytes ^ static_cast<std::uint64_t>(p.copy.kind));
    return h;
}

}  // namespace tpscope::core
