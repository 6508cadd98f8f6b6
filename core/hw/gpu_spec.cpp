// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/hw/gpu_spec.h"

#include <algorithm>
#include <array>

namespace tpscope::core {

double GpuSpec::peakFlops(Dtype dtype) const {
    switch (dtype) {
        case Dtype::Fp16:
            return fp16Flops;
        case Dtype::Bf16:
            return bf16Flops;
        case Dtype::Fp8:
            return fp8Flops;
        case Dtype::Fp32:
            return fp32Flops;
        default:
            return 0;
    }
}

double GpuSpec::rooflineCrossover(Dtype dtype) const {
    return hbmBytesPerSec > 0 ? peakFlops(dtype) / hbmBytesPerSec : 0;
}

int protocolIndex(CollectiveProto proto) {
    switch (proto) {
        case CollectiveProto::LL:
            return 0;
        case CollectiveProto::LL128:
            return 1;
        case CollectiveProto::Simple:
            return 2;
        default:
            return -1;
    }
}

CollectiveProto protocolAt(int index) {
    static constexpr std::array<CollectiveProto, kProtocolCount> kOrder{CollectiveProto::LL, CollectiveProto::LL128,
                                                                        CollectiveProto::Simple};
    return index >= 0 && index < kProtocolCount ? kOrder[static_cast<std::size_t>(index)] : CollectiveProto::Unknown;
}

const AlgorithmSpec* FabricSpec::algorithmSpec(CollectiveAlgo algo) const {
    for (const auto& a : algorithmParams) {
        if (a.algo == algo) return &a;
    }
    return nullptr;
}

void fillDefaultProtocols(FabricSpec& f) {
    const double base = f.baseLatencyNs;
    const double hop = f.hopLatencyNs;
    auto& ll = f.protocols[0];
    auto& ll128 = f.protocols[1];
    auto& simple = f.protocols[2];
    if (ll.bandwidthFraction <= 0) ll = ProtocolSpec{base, hop, 0.5};
    if (ll128.bandwidthFraction <= 0 && !f.throughCpu) ll128 = ProtocolSpec{base, 3 * hop, 120.0 / 128.0};
    if (simple.bandwidthFraction <= 0) simple = ProtocolSpec{1.3 * base, 8 * hop, 1.0};
}

bool FabricSpec::supports(CollectiveAlgo algo) const {
    return std::find(algorithms.begin(), algorithms.end(), algo) != algorithms.end();
}

}  // namespace tpscope::core
