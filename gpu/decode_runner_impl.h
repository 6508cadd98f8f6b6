// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// DecodeRunner's device state, shared by decode_runner.cpp (set-up, teardown) and
// decode_runner_step.cpp (ops, graphs, waiting). Not part of the gpu module's interface.

#include <cublas_v2.h>
#include <nccl.h>

#include <atomic>
#include <cstddef>
#include <memory>
#include <unordered_set>
#include <vector>

#include "gpu/decode_kernels.h"
#include "gpu/decode_runner.h"
#include "gpu/owned_comm.h"

namespace tpscope::gpu {

struct DecodeRunner::Impl {
    kernels::ElementType type = kernels::ElementType::Fp16;
    cudaDataType_t cudaType = CUDA_R_16F;
    ncclDataType_t ncclType = ncclFloat16;

    // Shard dimensions (elements).
    int batch = 1, hidden = 0, qkvOut = 0, attnOut = 0, ffn = 0, vocab = 0, layers = 0;
    kernels::AttentionShape attention;

    cublasHandle_t cublas = nullptr;
    // Blocking communicator (nccl_setup.h), aborted only by its owning thread (owned_comm.h).
    ncclComm_t comm = nullptr;
    std::unique_ptr<OwnedComm> owned;
    bool shutDown = false;
    bool drained = false;  // the streams were idle at the teardown: memory may be freed

    // Element counts of the shard's arenas.
    std::size_t weightElems = 0, kvElems = 0, kvPerLayer = 0, actElems = 0;

    // Device memory: one arena for the weights, one for the KV cache, one for activations.
    std::vector<void*> allocations;
    std::byte* weights = nullptr;
    std::byte* kvCache = nullptr;
    void* workspace = nullptr;
    std::size_t workspaceBytes = 32u << 20;
    void* attentionWorkspace = nullptr;  // split-KV attention's partial results (decode_kernels.h)
    std::size_t attentionWorkspaceBytes = 0;

    // Per layer weights (row-major [out][in], as a Linear layer stores them).
    std::vector<void*> wQkv, wO, wGateUp, wDown, wInputNorm, wPostNorm;
    std::vector<void*> kCache, vCache;
    void* wEmbedding = nullptr;
    void* wLmHead = nullptr;
    void* wFinalNorm = nullptr;

    // Activations.
    int* tokens = nullptr;
    void* x = nullptr;         // hidden state, [batch][hidden]
    void* residual = nullptr;  // residual stream
    void* normed = nullptr;
    void* qkv = nullptr;
    void* attn = nullptr;
    void* gateUp = nullptr;
    void* act = nullptr;
    void* logits = nullptr;     // this rank's vocab slice
    void* logitsAll = nullptr;  // gathered, [tp][batch][vocab slice]

    cudaEvent_t stepStart = nullptr, stepEnd = nullptr;
    std::vector<cudaEvent_t> forkJoin;  // overlap: compute -> comm -> compute dependencies
    std::size_t nextEvent = 0;

    cudaGraph_t graph = nullptr;
    cudaGraphExec_t graphExec = nullptr;
    std::unordered_set<cudaGraphNode_t> taggedNodes;  // nodes already given to an op (graph_node_tags.h)

    std::size_t elementBytes() const { return 2; }
    void* offset(void* base, std::size_t elements) const {
        return static_cast<std::byte*>(base) + elements * elementBytes();
    }
    cudaEvent_t event() { return forkJoin[nextEvent++ % forkJoin.size()]; }
};

}  // namespace tpscope::gpu
