// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Lower bound of the time the decode step's collectives spend moving bytes on a fabric:
// wire bytes per GPU / bandwidth, per call and per step (no latency, no synchronisation: the floor
// a real NCCL call can only approach). Two bandwidths: the fabric's theoretical link bandwidth per
// GPU per direction (a hard floor) and its measured large-message bus bandwidth (what a ring
// reaches, the nccl-tests busbw).

#include <cstdint>

#include "core/hw/gpu_spec.h"
#include "core/workload/decode_plan.h"

namespace tpscope::core {

struct AllReduceBound {
    std::uint64_t messageBytes = 0;
    std::uint64_t wireBytesPerGpu = 0;
    int layerAllreducesPerStep = 0;
    std::uint64_t wireBytesPerStepPerGpu = 0;  // every collective in the step
    double perCallAtLinkNs = 0;
    double perCallAtBusbwNs = 0;
    double perStepAtLinkNs = 0;  // all collectives of one step
    double perStepAtBusbwNs = 0;
    double perTokenAtLinkNs = 0;  // per step / batch
    double perTokenAtBusbwNs = 0;
    double layerAllreducesAtBusbwNs = 0;  // 2 x layers calls only (the seed article's column)
};

double transferTimeNs(std::uint64_t bytes, double bytesPerSec);
AllReduceBound allReduceBound(const DecodePlan& plan, const FabricSpec& fabric);

}  // namespace tpscope::core
