// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Measured all-reduce sweep on local GPUs (the `allreduce --measure` path): real NCCL
// all-reduces, one communicator per GPU from ncclCommInitAll driven by one thread with group
// calls, warm-up iterations, then repeated timed iterations; per size the median over iterations
// of the slowest GPU's time. Columns follow nccl-tests: algbw = size / time, busbw = algbw x
// 2 (n - 1) / n, so `calibrate` can fit a fabric from the user's own box. Sum, out of place
// (separate send and receive buffers, nccl-tests' default): in place, a one-GPU all-reduce launches
// nothing and would time 0; out of place it copies the buffer, a real (if trivial) time, and busbw
// is 0 by its definition. A size that still times 0 is an error, never an infinite algbw.

#include <cstdint>
#include <vector>

#include "core/trace/event_kind.h"
#include "core/util/result.h"

namespace tpscope::gpu {

struct MeasuredAllReduceOptions {
    int gpus = 2;
    std::vector<std::uint64_t> sizesBytes;  // per-rank buffer sizes (nccl-tests "size")
    core::Dtype dtype = core::Dtype::Fp32;
    int warmupIterations = 5;
    int iterations = 20;
    int hangTimeoutMs = 60'000;
};

struct MeasuredAllReduceRow {
    std::uint64_t bytes = 0;  // count x element size (the requested size rounded down to whole elements)
    std::uint64_t count = 0;
    core::Dtype dtype = core::Dtype::Fp32;
    double timeUs = 0;    // median over iterations
    double algbwGBs = 0;  // GB/s = 1e9 bytes/s
    double busbwGBs = 0;
};

core::Result<std::vector<MeasuredAllReduceRow>> runMeasuredAllReduce(const MeasuredAllReduceOptions& options);

// One row from the slowest GPU's time of each timed iteration (µs): the median and the bandwidths.
core::Result<MeasuredAllReduceRow> measuredRow(std::uint64_t count, core::Dtype dtype, int gpus,
                                               std::vector<double> timesUs);

}  // namespace tpscope::gpu
