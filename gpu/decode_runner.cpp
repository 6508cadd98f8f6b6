// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// DecodeRunner set-up and teardown: shard sizes, memory check, arenas carved into per-layer
// weights and KV cache, activations, streams and events, weights filled on the device, cuBLAS, and
// the blocking NCCL communicator owned by the runner's thread (owned_comm.h).

#include <algorithm>
#include <chrono>
#include <cstring>
#include <thread>

#include "core/util/units.h"
#include "gpu/cublas_loader.h"
#include "gpu/decode_runner_impl.h"
#include "gpu/gpu_check.h"
#include "gpu/nccl_loader.h"
#include "gpu/nccl_setup.h"

namespace tpscope::gpu {

namespace {

constexpr float kWeightScale = 0.05f;  // keeps activations finite through the layers
constexpr int kForkJoinEvents = 8;

}  // namespace

core::Result<std::vector<std::uint8_t>> makeNcclUniqueId() {
    prepareNcclEnvironment();
    ncclUniqueId id{};
    if (const ncclResult_t got = ncclGetUniqueId(&id); got != ncclSuccess) {
        TPSCOPE_TRY(loadNccl());  // a missing library says so, rather than "system error"
        TPSCOPE_GPU_CHECK(got);
    }
    return std::vector<std::uint8_t>(reinterpret_cast<const std::uint8_t*>(id.internal),
                                     reinterpret_cast<const std::uint8_t*>(id.internal) + NCCL_UNIQUE_ID_BYTES);
}

DecodeRunner::DecodeRunner(const RunnerConfig& config)
    : m_config(config), m_plan(*config.plan), m_impl(std::make_unique<Impl>()) {}

core::Result<std::unique_ptr<DecodeRunner>> DecodeRunner::create(const RunnerConfig& config) {
    if (config.plan == nullptr) return core::makeError(core::ErrorCode::Internal, "no plan", "DecodeRunner");
    std::unique_ptr<DecodeRunner> r(new DecodeRunner(config));
    TPSCOPE_GPU_CHECK(cudaSetDevice(config.device));
    TPSCOPE_TRY(r->allocate());
    return r;
}

core::Status DecodeRunner::allocate() {
    TPSCOPE_TRY(computeShardSizes());
    TPSCOPE_TRY(checkDeviceMemory());
    TPSCOPE_TRY(allocateArenas());
    carveWeightsAndCache();
    TPSCOPE_TRY(allocateActivations());
    TPSCOPE_TRY(createStreamsAndEvents());
    TPSCOPE_TRY(fillOnDevice());
    return createCublas();
}

core::Status DecodeRunner::computeShardSizes() {
    Impl& d = *m_impl;
    const core::PlanConfig& c = m_plan.config;
    const core::ShardDims& s = m_plan.shard;
    const bool bf16 = c.dtype == core::Dtype::Bf16;
    d.type = bf16 ? kernels::ElementType::Bf16 : kernels::ElementType::Fp16;
    d.cudaType = bf16 ? CUDA_R_16BF : CUDA_R_16F;
    d.ncclType = bf16 ? ncclBfloat16 : ncclFloat16;
    d.batch = c.batch;
    d.hidden = static_cast<int>(c.model.hidden);
    d.qkvOut = static_cast<int>((s.headsPerRank + 2 * s.kvHeadsPerRank) * c.model.headDim);
    d.attnOut = static_cast<int>(s.headsPerRank * c.model.headDim);
    d.ffn = static_cast<int>(s.ffnPerRank);
    d.vocab = static_cast<int>(s.vocabPerRank);
    d.layers = static_cast<int>(c.model.layers);
    d.attention = {c.batch, static_cast<int>(s.headsPerRank), static_cast<int>(s.kvHeadsPerRank),
                   static_cast<int>(c.model.headDim), c.contextLen};
    if (d.attention.headDim > 256 || c.contextLen > kernels::decodeAttentionMaxContext(d.attention)) {
        return core::makeError(core::ErrorCode::Unsupported,
                               "the decode attention kernel handles head_dim <= 256 and context <= " +
                                   std::to_string(kernels::decodeAttentionMaxContext(d.attention)),
                               "--context");
    }
    d.attentionWorkspaceBytes = kernels::decodeAttentionWorkspaceBytes(d.attention);
    const auto h = static_cast<std::size_t>(d.hidden);
    const auto qkv = static_cast<std::size_t>(d.qkvOut), attn = static_cast<std::size_t>(d.attnOut);
    const auto ffn = static_cast<std::size_t>(d.ffn), vocab = static_cast<std::size_t>(d.vocab);
    const std::size_t perLayer = qkv * h + h * attn + 2 * ffn * h + h * ffn + 2 * h;
    d.weightElems = static_cast<std::size_t>(d.layers) * perLayer + 2 * vocab * h + h;
    d.kvPerLayer = static_cast<std::size_t>(c.batch) * static_cast<std::size_t>(s.kvHeadsPerRank) *
                   static_cast<std::size_t>(c.contextLen) * static_cast<std::size_t>(c.model.headDim);
    d.kvElems = 2 * static_cast<std::size_t>(d.layers) * d.kvPerLayer;
    d.actElems = static_cast<std::size_t>(c.batch) *
                 (3 * h + qkv + attn + 3 * ffn + vocab * (1 + static_cast<std::size_t>(c.tp)));
    return core::Ok{};
}

core::Status DecodeRunner::checkDeviceMemory() {
    const Impl& d = *m_impl;
    std::size_t freeBytes = 0, totalBytes = 0;
    TPSCOPE_GPU_CHECK(cudaMemGetInfo(&freeBytes, &totalBytes));
    const std::size_t need = (d.weightElems + d.kvElems + d.actElems) * d.elementBytes() + d.workspaceBytes +
                             d.attentionWorkspaceBytes +
                             static_cast<std::size_t>(deviceHeadroomBytes(m_plan.config.tp));
    if (need <= freeBytes) return core::Ok{};
    return core::makeError(
        core::ErrorCode::DoesNotFit,
        "rank " + std::to_string(m_config.rank) + " needs " + core::formatBytes(static_cast<double>(need)) +
            " (weights, KV cache, activations, workspace and NCCL) but GPU " + std::to_string(m_config.device) +
            " has " + core::formatBytes(static_cast<double>(freeBytes)) +
            " free; use a higher --tp or a smaller --batch/--context",
        "capture");
}

core::Status DecodeRunner::deviceAlloc(std::size_t bytes, void** out) {
    TPSCOPE_GPU_CHECK(cudaMalloc(out, std::max<std::size_t>(bytes, 256)));
    m_impl->allocations.push_back(*out);
    return core::Ok{};
}

core::Status DecodeRunner::allocateArenas() {
    Impl& d = *m_impl;
    void* p = nullptr;
    TPSCOPE_TRY(deviceAlloc(d.weightElems * d.elementBytes(), &p));
    d.weights = static_cast<std::byte*>(p);
    TPSCOPE_TRY(deviceAlloc(d.kvElems * d.elementBytes(), &p));
    d.kvCache = static_cast<std::byte*>(p);
    return deviceAlloc(d.workspaceBytes, &d.workspace);
}

// Per-layer weights in the order a Linear layer stores them, then embedding, LM head, final norm.
void DecodeRunner::carveWeightsAndCache() {
    Impl& d = *m_impl;
    const auto h = static_cast<std::size_t>(d.hidden);
    std::size_t at = 0;
    const auto take = [&](std::size_t elems) {
        void* q = d.offset(d.weights, at);
        at += elems;
        return q;
    };
    for (int l = 0; l < d.layers; ++l) {
        const auto layer = static_cast<std::size_t>(l);
        d.wQkv.push_back(take(static_cast<std::size_t>(d.qkvOut) * h));
        d.wO.push_back(take(h * static_cast<std::size_t>(d.attnOut)));
        d.wGateUp.push_back(take(2 * static_cast<std::size_t>(d.ffn) * h));
        d.wDown.push_back(take(h * static_cast<std::size_t>(d.ffn)));
        d.wInputNorm.push_back(take(h));
        d.wPostNorm.push_back(take(h));
        d.kCache.push_back(d.offset(d.kvCache, 2 * layer * d.kvPerLayer));
        d.vCache.push_back(d.offset(d.kvCache, (2 * layer + 1) * d.kvPerLayer));
    }
    d.wEmbedding = take(static_cast<std::size_t>(d.vocab) * h);
    d.wLmHead = take(static_cast<std::size_t>(d.vocab) * h);
    d.wFinalNorm = take(h);
}

core::Status DecodeRunner::allocateActivations() {
    Impl& d = *m_impl;
    const auto b = static_cast<std::size_t>(d.batch), h = static_cast<std::size_t>(d.hidden);
    const std::size_t e = d.elementBytes();
    for (void** act : {&d.x, &d.residual, &d.normed}) TPSCOPE_TRY(deviceAlloc(b * h * e, act));
    TPSCOPE_TRY(deviceAlloc(b * static_cast<std::size_t>(d.qkvOut) * e, &d.qkv));
    TPSCOPE_TRY(deviceAlloc(b * static_cast<std::size_t>(d.attnOut) * e, &d.attn));
    TPSCOPE_TRY(deviceAlloc(b * 2 * static_cast<std::size_t>(d.ffn) * e, &d.gateUp));
    TPSCOPE_TRY(deviceAlloc(b * static_cast<std::size_t>(d.ffn) * e, &d.act));
    TPSCOPE_TRY(deviceAlloc(b * static_cast<std::size_t>(d.vocab) * e, &d.logits));
    const auto tp = static_cast<std::size_t>(m_plan.config.tp);
    TPSCOPE_TRY(deviceAlloc(b * static_cast<std::size_t>(d.vocab) * tp * e, &d.logitsAll));
    void* tokens = nullptr;
    TPSCOPE_TRY(deviceAlloc(b * sizeof(int), &tokens));
    d.tokens = static_cast<int*>(tokens);
    if (d.attentionWorkspaceBytes > 0) TPSCOPE_TRY(deviceAlloc(d.attentionWorkspaceBytes, &d.attentionWorkspace));
    return core::Ok{};
}

core::Status DecodeRunner::createStreamsAndEvents() {
    Impl& d = *m_impl;
    TPSCOPE_GPU_CHECK(cudaStreamCreateWithFlags(&m_compute, cudaStreamNonBlocking));
    m_comm = m_compute;
    if (m_config.overlap) TPSCOPE_GPU_CHECK(cudaStreamCreateWithFlags(&m_comm, cudaStreamNonBlocking));
    TPSCOPE_GPU_CHECK(cudaEventCreate(&d.stepStart));
    TPSCOPE_GPU_CHECK(cudaEventCreate(&d.stepEnd));
    for (int i = 0; i < kForkJoinEvents; ++i) {
        cudaEvent_t e = nullptr;
        TPSCOPE_GPU_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
        d.forkJoin.push_back(e);
    }
    return core::Ok{};
}

// Random weights and cache, filled on the device (no downloads); distinct seeds per rank.
core::Status DecodeRunner::fillOnDevice() {
    Impl& d = *m_impl;
    const std::uint64_t seed = 0x7470736370ULL + static_cast<std::uint64_t>(m_config.rank);
    TPSCOPE_GPU_CHECK(kernels::fillRandom(d.weights, d.weightElems, d.type, seed, kWeightScale, m_compute));
    TPSCOPE_GPU_CHECK(kernels::fillRandom(d.kvCache, d.kvElems, d.type, seed + 1, 1.0f, m_compute));
    const auto b = static_cast<std::size_t>(d.batch);
    std::vector<int> hostTokens(b);
    for (std::size_t i = 0; i < b; ++i) {
        hostTokens[i] = static_cast<int>((i * 7919 + 17) % static_cast<std::size_t>(m_plan.config.model.vocab));
    }
    TPSCOPE_GPU_CHECK(cudaMemcpyAsync(d.tokens, hostTokens.data(), b * sizeof(int), cudaMemcpyHostToDevice, m_compute));
    TPSCOPE_GPU_CHECK(kernels::prepareDecodeAttention(d.attention, d.type));
    TPSCOPE_GPU_CHECK(cudaStreamSynchronize(m_compute));
    return core::Ok{};
}

core::Status DecodeRunner::createCublas() {
    Impl& d = *m_impl;
    TPSCOPE_TRY(loadCublas());
    TPSCOPE_GPU_CHECK(cublasCreate(&d.cublas));
    TPSCOPE_GPU_CHECK(cublasSetStream(d.cublas, m_compute));
    // An explicit workspace: cuBLAS must not allocate while a CUDA graph is being captured.
    TPSCOPE_GPU_CHECK(cublasSetWorkspace(d.cublas, d.workspace, d.workspaceBytes));
    return core::Ok{};
}

core::Status DecodeRunner::connect(const std::vector<std::uint8_t>& ncclId) {
    const int tp = m_plan.config.tp;
    if (tp <= 1) return core::Ok{};  // one rank: no communicator, no NCCL call at all
    if (ncclId.size() != NCCL_UNIQUE_ID_BYTES) {
        return core::makeError(core::ErrorCode::Internal, "NCCL unique id has the wrong size", "DecodeRunner");
    }
    TPSCOPE_GPU_CHECK(cudaSetDevice(m_config.device));
    ncclUniqueId id{};
    std::memcpy(id.internal, ncclId.data(), NCCL_UNIQUE_ID_BYTES);
    Impl& d = *m_impl;
    const int rank = m_config.rank;
    // The graphs go before finalize and abort: NCCL waits for every graph holding its plans.
    CommCalls calls = ncclCommCalls(&d.comm, tp, id, rank, [this] { dropGraphs(); });
    d.owned = std::make_unique<OwnedComm>(
        "rank " + std::to_string(rank) + " (GPU " + std::to_string(m_config.device) + ")", std::move(calls),
        std::chrono::milliseconds(m_config.hangTimeoutMs), m_config.abort);
    return d.owned->init();
}

core::Status DecodeRunner::ncclCall(const char* what, const std::function<ncclResult_t()>& call) {
    if (!m_impl->owned) return core::makeError(core::ErrorCode::Internal, "no communicator (connect())", what);
    return m_impl->owned->call(what, call);
}

// Polls instead of cudaStreamSynchronize: after a peer failed, a collective's kernel may never end.
core::Status DecodeRunner::synchronizeStreams(int timeoutMs) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
    for (cudaStream_t s : {m_compute, m_comm}) {
        if (s == nullptr) continue;
        for (;;) {
            const cudaError_t state = cudaStreamQuery(s);
            if (state == cudaSuccess) break;
            if (state != cudaErrorNotReady) TPSCOPE_GPU_CHECK(state);
            if (std::chrono::steady_clock::now() > deadline) {
                return core::makeError(core::ErrorCode::DeviceError,
                                       "GPU " + std::to_string(m_config.device) + " still busy " +
                                           std::to_string(timeoutMs) + " ms into the teardown",
                                       "DecodeRunner teardown");
            }
            std::this_thread::sleep_for(std::chrono::microseconds(50));
        }
    }
    return core::Ok{};
}

// Ends a capture still running on the compute stream (an NCCL call failed inside it) and destroys
// its partial graph, then the step's graph exec and graph: NCCL attached the plans of the captured
// collectives to them, and its finalize and abort wait until they are gone (owned_comm.h). A graph
// exec still running is freed by CUDA when the launch completes.
void DecodeRunner::dropGraphs() {
    Impl& d = *m_impl;
    cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
    if (m_compute != nullptr && cudaStreamIsCapturing(m_compute, &capture) == cudaSuccess &&
        capture != cudaStreamCaptureStatusNone) {
        cudaGraph_t partial = nullptr;
        (void)cudaStreamEndCapture(m_compute, &partial);  // an invalidated capture ends with an error
        if (partial != nullptr) cudaGraphDestroy(partial);
    }
    if (d.graphExec != nullptr) cudaGraphExecDestroy(d.graphExec);
    if (d.graph != nullptr) cudaGraphDestroy(d.graph);
    d.graphExec = nullptr;
    d.graph = nullptr;
}

core::Status DecodeRunner::shutDown(bool peersHealthy) {
    Impl& d = *m_impl;
    if (d.shutDown) return core::Ok{};
    d.shutDown = true;
    cudaSetDevice(m_config.device);
    // Abort first when anything failed; the streams with a deadline; the graphs; then finalize.
    core::Status synced = core::Ok{};
    core::Status down = tearDownRank(
        d.owned.get(), peersHealthy,
        [&] {
            synced = synchronizeStreams(m_config.hangTimeoutMs);
            return synced;
        },
        [this] { dropGraphs(); });
    d.drained = synced.ok();
    return down;
}

DecodeRunner::~DecodeRunner() {
    Impl& d = *m_impl;
    if (!d.shutDown) (void)shutDown(false);
    const bool idle = d.drained;
    d.owned.reset();
    // Memory a kernel may still use is leaked rather than freed under it (the streams never drained).
    if (!idle) return;
    dropGraphs();  // a no-op after shutDown
    if (d.cublas != nullptr) cublasDestroy(d.cublas);
    for (cudaEvent_t e : d.forkJoin) cudaEventDestroy(e);
    if (d.stepStart != nullptr) cudaEventDestroy(d.stepStart);
    if (d.stepEnd != nullptr) cudaEventDestroy(d.stepEnd);
    if (m_comm != nullptr && m_comm != m_compute) cudaStreamDestroy(m_comm);
    if (m_compute != nullptr) cudaStreamDestroy(m_compute);
    for (void* p : d.allocations) cudaFree(p);
}

}  // namespace tpscope::gpu
