// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Measured all-reduce sweep on local GPUs (the `allreduce --measure` path): real NCCL
// all-reduces, one blocking communicator per GPU (blockingCommConfig, whatever NCCL_COMM_BLOCKING
// says) created in one group and driven by one thread with group calls.
//
// Timing is nccl-tests' method: per sample, one start event on every GPU, K = iterations
// all-reduces back to back, one end event; the sample's time is the slowest GPU's elapsed / K, and
// a size's time is the median of kSamples samples. Back to back, the GPUs queue the launches, so the
// host's launch skew between GPUs (one thread launches all of them) is paid once per sample, not
// once per all-reduce: timing each all-reduce between its own events made small messages on 8 GPUs
// 2-3x too slow, and `calibrate` then fitted the skew. Columns follow nccl-tests: algbw = size / time, busbw = algbw x
// 2 (n - 1) / n, so `calibrate` can fit a fabric from the user's own box. Sum, out of place
// (separate send and receive buffers, nccl-tests' default): in place, a one-GPU all-reduce launches
// nothing and would time 0; out of place it copies the buffer, a real (if trivial) time, and busbw
// is 0 by its definition. A size that still times 0 is an error, never an infinite algbw.

#include <cstdint>
#include <functional>
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

inline constexpr int kAllReduceSamples = 5;

// The GPU side of the timing loop, behind functions so the method is tested on a fake clock.
struct AllReduceTimingCalls {
    std::function<core::Status()> recordStarts;  // a start event on every GPU's stream
    std::function<core::Status()> launchAll;     // one all-reduce on every GPU (one group call)
    std::function<core::Status()> recordEnds;
    std::function<core::Status()> waitAll;                         // until every end event completed
    std::function<core::Result<std::vector<double>>()> elapsedMs;  // per GPU, start -> end
};

// warmup all-reduces, then `samples` samples of k back-to-back all-reduces: per sample the slowest
// GPU's elapsed time / k, in µs.
core::Result<std::vector<double>> timeBackToBack(const AllReduceTimingCalls& calls, int warmup, int k, int samples);

// One row from the slowest GPU's time of each timed iteration (µs): the median and the bandwidths.
core::Result<MeasuredAllReduceRow> measuredRow(std::uint64_t count, core::Dtype dtype, int gpus,
                                               std::vector<double> timesUs);

}  // namespace tpscope::gpu
