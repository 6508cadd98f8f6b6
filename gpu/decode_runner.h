// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// One GPU's share of the TP decode plan (DESIGN.md §3, §7): weights, KV cache and activations of
// its shard allocated and filled with random values on the device; the plan's ops executed in
// order with cuBLAS (cublasGemmEx, fp16/bf16 in, fp32 accumulate), the kernels of
// decode_kernels.h and NCCL (two all-reduces per layer, the embedding all-reduce, the logits
// all-gather); NVTX ranges "step N" > "layer i" > "attention"/"mlp" as the simulator names them.
//
// Modes: graph captures one step as a CUDA graph (stream capture, thread-local mode) and replays
// it per token; overlap puts the collectives on their own stream and, for batch >= 2, splits each
// row-parallel GEMM + all-reduce into two micro-batches so one half's all-reduce overlaps the
// other half's GEMM. The communicator is blocking (nccl_setup.h) and owned by the runner's thread
// (owned_comm.h): only that thread aborts it, between NCCL calls. Waiting for a step polls the
// stream, ncclCommGetAsyncError, the shared abort flag and a deadline, so no thread waits forever.
// Graph mode runs one eager step before capturing, so that NCCL sets up its connections outside
// the capture.
//
// Order: create() allocates (no NCCL call); connect() creates the communicator once every rank is
// known to have allocated; shutDown() finalizes it when every rank finished, else aborts it first.

#include <cuda_runtime_api.h>
#include <nccl.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "core/util/result.h"
#include "core/workload/decode_plan.h"

namespace tpscope::gpu {

// Attribution hooks for CUPTI; every member may be empty.
struct RunnerHooks {
    std::function<void(std::uint64_t tag)> pushOpTag;  // around each op's launches (eager steps)
    std::function<void()> popOpTag;
    // While capturing; rows: an overlap half's rows of the batch (0: the whole op).
    std::function<void(cudaGraphNode_t node, std::uint32_t opIndex, std::uint32_t rows)> tagGraphNode;
};

struct RunnerConfig {
    const core::DecodePlan* plan = nullptr;
    int device = 0;
    int rank = 0;  // global NCCL rank, 0 <= rank < plan->config.tp
    bool graph = false;
    bool overlap = false;
    // NVTX ranges on annotated steps. Off when nothing records them: NVTX binds its injection
    // library at its first call, once per process, so an early call without CUPTI would leave a
    // later capture in the same process without ranges.
    bool nvtx = true;
    int hangTimeoutMs = 120'000;
    const std::atomic<bool>* abort = nullptr;  // set when another rank failed
    RunnerHooks hooks;
};

class DecodeRunner {
  public:
    // Device memory, streams, weights, cuBLAS: no NCCL call.
    static core::Result<std::unique_ptr<DecodeRunner>> create(const RunnerConfig& config);
    // The communicator (tp >= 2). ncclId: NCCL_UNIQUE_ID_BYTES from process 0. Call only when every
    // rank of the communicator is about to call it too (a blocking init waits for all of them).
    core::Status connect(const std::vector<std::uint8_t>& ncclId);
    // Aborts the communicator first unless peersHealthy (every rank of every process finished);
    // waits for the streams with a deadline; destroys the CUDA graph; then finalizes the
    // communicator (tearDownRank, owned_comm.h). The destructor does shutDown(false).
    core::Status shutDown(bool peersHealthy);
    ~DecodeRunner();
    DecodeRunner(const DecodeRunner&) = delete;
    DecodeRunner& operator=(const DecodeRunner&) = delete;

    // Graph mode: runs one eager step and captures the step's graph now (else the first step() does).
    // Call before CUPTI collects, so that neither lands in the trace.
    core::Status prepareGraph();

    // Runs decode step `index` to completion; returns its GPU time (events around the step).
    // annotate: NVTX ranges and op tags (off for warm-up).
    core::Result<std::int64_t> step(int index, bool annotate);

    cudaStream_t computeStream() const { return m_compute; }
    cudaStream_t commStream() const { return m_comm; }

  private:
    explicit DecodeRunner(const RunnerConfig& config);
    struct Impl;

    core::Status allocate();
    core::Status computeShardSizes();
    core::Status checkDeviceMemory();
    core::Status deviceAlloc(std::size_t bytes, void** out);
    core::Status allocateArenas();
    void carveWeightsAndCache();
    core::Status allocateActivations();
    core::Status createStreamsAndEvents();
    core::Status fillOnDevice();
    core::Status createCublas();
    // One NCCL call under the watchdog; its failure aborts the communicator.
    core::Status ncclCall(const char* what, const std::function<ncclResult_t()>& call);
    core::Status synchronizeStreams(int timeoutMs);
    // Ends a running capture (dropping its partial graph) and destroys the step's graph exec and graph.
    void dropGraphs();
    core::Status enqueueStep(int index, bool annotate, bool capturing);
    core::Status enqueueOp(std::size_t opIndex, int step, bool annotate, bool capturing);
    // rows: an overlap half's rows of the batch, carried by its tag (0: the whole op).
    core::Status launchTagged(std::size_t opIndex, int step, bool annotate, bool capturing,
                              const std::function<core::Status()>& launch, int rows = 0);
    core::Status gemm(const void* weight, const void* in, void* out, int rows, int n, int k);
    core::Status allReduce(void* data, std::size_t count, cudaStream_t stream);
    core::Status rowParallelWithAllReduce(std::size_t gemmIndex, int step, bool annotate, bool capturing);
    core::Status tagNewGraphNodes(std::size_t opIndex, int rows);
    core::Status captureGraph(int index);
    core::Status waitForStep();

    RunnerConfig m_config;
    const core::DecodePlan& m_plan;
    std::unique_ptr<Impl> m_impl;
    cudaStream_t m_compute = nullptr;
    cudaStream_t m_comm = nullptr;    // == m_compute unless overlap
    std::size_t m_skipOp = SIZE_MAX;  // an all-reduce already issued with its GEMM (overlap)
};

// The NCCL unique id (NCCL_UNIQUE_ID_BYTES) that process 0 broadcasts.
core::Result<std::vector<std::uint8_t>> makeNcclUniqueId();

}  // namespace tpscope::gpu
