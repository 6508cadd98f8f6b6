// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Measured all-reduce sweep on local GPUs (the `allreduce --measure` path): real NCCL
// all-reduces, one blocking communicator per GPU (blockingCommConfig, whatever NCCL_COMM_BLOCKING
// says), each created, driven and torn down by a thread of its own (OwnedComm, as the capture's
// ranks): one thread per GPU, as nccl-tests runs one process or thread per GPU. One thread
// launching every GPU's all-reduce in turn measured the host's launch rate at small sizes (8 KiB
// on 8 GPUs: 8 launches per all-reduce on one core).
//
// Timing is nccl-tests' method: per sample, every GPU's thread starts together (a barrier), records
// one start event, launches K = iterations all-reduces back to back and one end event; the
// sample's time is the slowest GPU's elapsed / K, and a size's time is the median of kSamples
// samples. Back to back, the GPU queues the launches, so a thread's launch cost is paid once per
// sample, not once per all-reduce. Columns follow nccl-tests: algbw = size / time, busbw = algbw x
// 2 (n - 1) / n, so `calibrate` can fit a fabric from the user's own box. Sum, out of place
// (separate send and receive buffers, nccl-tests' default): in place, a one-GPU all-reduce launches
// nothing and would time 0; out of place it copies the buffer, a real (if trivial) time, and busbw
// is 0 by its definition. A size that still times 0 is an error, never an infinite algbw.

#include <cstdint>
#include <functional>
#include <vector>

#include "core/trace/event_kind.h"
#include "core/util/result.h"
#include "gpu/phase_barrier.h"

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

// One GPU's side of the timing loop, called on that GPU's own thread; behind functions so the method
// is tested on a fake clock.
struct AllReduceTimingCalls {
    std::function<core::Status()> recordStart;        // the start event on this GPU's stream
    std::function<core::Status()> launch;             // one all-reduce on this GPU
    std::function<core::Status()> recordEnd;          // the end event
    std::function<core::Status()> wait;               // until the end event completed (NCCL errors, deadline)
    std::function<core::Result<double>()> elapsedMs;  // start -> end
};

// On one GPU's thread: `warmup` all-reduces, then `samples` samples of k back to back, each starting
// once every GPU's thread reached it (barrier: every thread calls this with the same counts). Returns
// this GPU's elapsed ms per sample. A failure breaks the barrier, so the other threads stop too.
core::Result<std::vector<double>> timeOneGpu(const AllReduceTimingCalls& calls, int warmup, int k, int samples,
                                             PhaseBarrier& barrier);

// Per sample, the slowest GPU's elapsed ms / k, in µs (elapsedMs[gpu][sample]).
std::vector<double> slowestPerSampleUs(const std::vector<std::vector<double>>& elapsedMs, int k);

// One row from the slowest GPU's time of each timed iteration (µs): the median and the bandwidths.
core::Result<MeasuredAllReduceRow> measuredRow(std::uint64_t count, core::Dtype dtype, int gpus,
                                               std::vector<double> timesUs);

}  // namespace tpscope::gpu
