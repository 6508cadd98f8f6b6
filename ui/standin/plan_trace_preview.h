#pragma once
// STAND-IN for core::sim until the simulator is merged: replace the call in services_default.cpp
// with the simulator's sweep API and delete this file.
//
// Input: a RunRequest (model, TP, batch, steps, GPU, fabric). Mapping: core::buildDecodePlan gives
// the ops of one step; every rank runs them in order on a "compute" stream. A compute op lasts
// max(FLOPs / peak, bytes / HBM bandwidth) (never under 2 us, the size of a real small kernel),
// with a launch gap between kernels (smaller under CUDA graphs) and a few percent of seeded
// per-rank jitter. A collective runs on an "nccl" stream: each rank's kernel starts when that rank
// arrives and every rank finishes at the last arrival + base latency + 2 (n-1) hop latencies +
// wire bytes / bus bandwidth, so early ranks show the wait. NVTX ranges step > layer > block.
// A configuration whose weights and KV cache do not fit the GPU fails with DoesNotFit, as the
// real run would. Overlap is recorded in the metadata but not modelled. Complexity O(steps · ops · tp).

#include <memory>

#include "core/trace/trace.h"
#include "core/util/result.h"
#include "ui/services.h"

namespace tpscope::ui {

core::Result<std::shared_ptr<const core::Trace>> previewDecodeTrace(const RunRequest& request,
                                                                    const ProgressFn& progress,
                                                                    const CancelFlag& cancel);

}  // namespace tpscope::ui
