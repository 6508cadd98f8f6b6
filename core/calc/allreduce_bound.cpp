// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/calc/allreduce_bound.h"

namespace tpscope::core {

double transferTimeNs(std::uint64_t bytes, double bytesPerSec) {
    return bytesPerSec > 0 ? static_cast<double>(bytes) / bytesPerSec * 1e9 : 0.0;
}

AllReduceBound allReduceBound(const DecodePlan& plan, const FabricSpec& fabric) {
    AllReduceBound b;
    b.messageBytes = plan.allreduceMessageBytes;
    b.wireBytesPerGpu = plan.allreduceWireBytesPerGpu;
    b.layerAllreducesPerStep = plan.layerAllreducesPerStep;
    b.wireBytesPerStepPerGpu = plan.wireBytesPerStepPerGpu;
    b.perCallAtLinkNs = transferTimeNs(b.wireBytesPerGpu, fabric.linkBytesPerSec);
    b.perCallAtBusbwNs = transferTimeNs(b.wireBytesPerGpu, fabric.busbwBytesPerSec);
    b.perStepAtLinkNs = transferTimeNs(b.wireBytesPerStepPerGpu, fabric.linkBytesPerSec);
    b.perStepAtBusbwNs = transferTimeNs(b.wireBytesPerStepPerGpu, fabric.busbwBytesPerSec);
    const double batch = plan.config.batch;
    b.perTokenAtLinkNs = b.perStepAtLinkNs / batch;
    b.perTokenAtBusbwNs = b.perStepAtBusbwNs / batch;
    b.layerAllreducesAtBusbwNs = transferTimeNs(plan.layerWireBytesPerStepPerGpu, fabric.busbwBytesPerSec);
    return b;
}

}  // namespace tpscope::core
