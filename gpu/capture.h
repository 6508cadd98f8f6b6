// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// A capture: the decode plan run on this machine's GPUs (or, under mpirun/srun, on every
// process's GPUs), recorded by CUPTI and merged onto one timeline on process 0 (DESIGN.md §7).
//
// Launch: one process drives all tp GPUs of its host, or N processes split them (tp a multiple
// of N, each driving tp/N consecutive local GPUs from its local rank). Process 0 makes the NCCL
// unique id and broadcasts it over MPI; each process records its ranks with global ids; process 0
// estimates per-host clock offsets, gathers the traces and merges them. A process that fails
// still sends what it captured, with its error, so the merged trace records the failure.
//
// cpuTest replaces the GPU work with synthetic events (no CUDA call at all), so the launch,
// id exchange, clock offsets and merge run in CI under `mpirun -np 2`. Its trace has the origin
// Synthetic: its durations are made up, never measured.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/trace/trace.h"
#include "core/util/result.h"
#include "core/util/task_control.h"
#include "core/workload/decode_plan.h"
#include "core/workload/model.h"

namespace tpscope::gpu {

struct CaptureOptions {
    core::ModelSpec model;
    int tp = 1;
    int batch = 1;
    int tokens = 16;      // measured decode steps
    int warmupSteps = 3;  // run before recording starts, not in the trace
    int contextLen = 1024;
    core::Dtype dtype = core::Dtype::Fp16;
    bool graph = false;    // capture one decode step as a CUDA graph, replay it per token
    bool overlap = false;  // all-reduces on their own stream
    bool collect = true;   // CUPTI on; off times the steps only (to measure CUPTI's overhead)
    std::size_t cuptiBufferBytes = 8u << 20;
    std::size_t cuptiMaxBytes = 2ull << 30;  // stop handing CUPTI buffers beyond this (records are then dropped)
    int hangTimeoutMs = 120'000;             // an NCCL call or step that does not finish -> abort
    bool cpuTest = false;
    std::int64_t cpuTestSkewNs = 0;      // cpu test: process p's clock runs p x this ahead
    bool cpuTestHostPerProcess = false;  // cpu test: each process claims its own host name
    int cpuTestFailProcess = -1;         // cpu test: this process fails; the others must hear of it (LaunchLink)
    core::TaskControl control;           // progress: decode steps done / tokens; cancel: checked before each step
};

struct CaptureReport {
    core::Trace trace;         // merged; only where writesOutput
    bool writesOutput = true;  // false on MPI processes other than 0
    int processes = 1;
    int processRank = 0;
    std::vector<std::int64_t> stepNs;             // measured step wall times of this process's first GPU
    std::string failure;                          // non-empty: failed partway; trace holds what was captured
    std::vector<std::int64_t> clockOffsetsNs;     // per process, on process 0
    std::uint64_t bytesPerStepPerGpu = 0;         // plan: bytes read + written by one GPU per step
    std::uint64_t weightBytesPerGpu = 0;          // plan: all weights one GPU holds
    std::uint64_t streamedWeightBytesPerGpu = 0;  // plan: the weights a step reads
    std::uint64_t kvCacheBytesPerGpu = 0;         // plan: the KV cache, which a decode step reads all of
    // The HBM floor's numerator: what a step must read from HBM, the streamed weights and the KV cache.
    std::uint64_t hbmFloorBytesPerGpu() const { return streamedWeightBytesPerGpu + kvCacheBytesPerGpu; }
    // What the device check holds the trace against (gpu/README.md's first-run checklist).
    int planOpsPerStep = 0;          // a plan op launches one kernel or more (split-KV attention: two)
    int planCollectivesPerStep = 0;  // two all-reduces per layer, the embedding all-reduce, the logits all-gather
    int layers = 0;
};

core::Result<CaptureReport> runCapture(const CaptureOptions& options);

// Local GPUs of one process and the global rank of the first.
struct LocalRanks {
    std::vector<int> devices;
    int firstRank = 0;
    int tp = 1;
};

// One process's part: its ranks' trace, step times, and the error that stopped it (if any).
struct LocalCapture {
    core::Trace trace;
    std::vector<std::int64_t> stepNs;
    std::string error;
};

// Which local GPUs a process drives: all tp of them alone, or tp / processes from its local rank
// (from 0 when the launcher made only that many visible to it, e.g. srun --gpus-per-task).
core::Result<LocalRanks> assignLocalGpus(int tp, int processes, int processRank, int localRank, int visibleDevices);

// The id process 0 broadcasts: empty at TP 1 (no NCCL call at all), random bytes for the cpu
// test, else the NCCL unique id.
core::Result<std::vector<std::uint8_t>> makeLaunchId(const CaptureOptions& options);

// How one process's capture reaches the other processes of its launch (MPI); empty members: alone.
struct LaunchLink {
    std::function<bool(bool)> everyone;     // AND over the processes; every process calls it at the same points
    std::function<void()> announceFailure;  // tells every other process at once (idempotent)
    std::function<bool()> peerFailed;       // polled while the GPUs run: another process announced a failure
};

// The GPU path (decode_runner + cupti_session). ncclId: NCCL_UNIQUE_ID_BYTES from process 0.
LocalCapture captureLocalGpus(const CaptureOptions& options, const core::DecodePlan& plan, const LocalRanks& ranks,
                              const std::vector<std::uint8_t>& ncclId, const LaunchLink& link = {});
// The cpu-test path: events a run would produce, timed from startNs with fixed synthetic durations.
LocalCapture synthesizeLocalRanks(const core::DecodePlan& plan, const LocalRanks& ranks, int steps,
                                  std::int64_t startNs);

}  // namespace tpscope::gpu
