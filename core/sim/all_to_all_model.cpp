// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/sim/all_to_all_model.h"

#include <algorithm>

namespace tpscope::core::sim {

CollectiveEstimate allToAll(const CollectiveModel& model, std::uint64_t bytesPerRank) {
    CollectiveEstimate e;
    const int n = model.ranks();
    if (n <= 1) return e;
    // Direct peer sends, not an NCCL algorithm or protocol: both stay unknown in the payload.
    const auto bytes = static_cast<double>(bytesPerRank);
    const int g = std::min(model.gpusPerNode(), n);
    const auto& intra = model.intra();
    const double intraWire = bytes * static_cast<double>(g - 1) / n;
    const double intraBw = intra.busbwBytesPerSec * kAllToAllShareOfBusbw;
    double ns = intraBw > 0 ? intraWire / intraBw * 1e9 : 0;
    e.latencyNs = intra.baseLatencyNs + intra.hopLatencyNs;
    if (model.nodes() > 1 && model.inter()) {
        const auto& net = *model.inter();
        const double netWire = bytes * static_cast<double>(n - g) / n;
        // A node's GPUs share its ports (0: one per GPU, rail-optimised).
        const int ports = net.nicsPerNode > 0 ? std::min(net.nicsPerNode, g) : g;
        const double perGpu = net.busbwBytesPerSec * ports / g;
        const double netNs = perGpu > 0 ? netWire / perGpu * 1e9 : 0;
        ns = std::max(ns, netNs);
        e.latencyNs = std::max(e.latencyNs, net.baseLatencyNs + net.hopLatencyNs);
    }
    e.bandwidthNs = ns;
    return e;
}

}  // namespace tpscope::core::sim
