// DecodeRunner set-up and teardown: memory check, shard buffers filled on the device, cuBLAS,
// and the NCCL communicator (non-blocking init, polled with a deadline).

#include <algorithm>
#include <chrono>
#include <cstring>
#include <thread>

#include "core/util/units.h"
#include "gpu/decode_runner_impl.h"
#include "gpu/gpu_check.h"

namespace tpscope::gpu {

namespace {

constexpr float kWeightScale = 0.05f;  // keeps activations finite through the layers
constexpr int kForkJoinEvents = 8;

}  // namespace

core::Result<std::vector<std::uint8_t>> makeNcclUniqueId() {
    ncclUniqueId id{};
    TPSCOPE_GPU_CHECK(ncclGetUniqueId(&id));
    return std::vector<std::uint8_t>(reinterpret_cast<const std::uint8_t*>(id.internal),
                                     reinterpret_cast<const std::uint8_t*>(id.internal) + NCCL_UNIQUE_ID_BYTES);
}

DecodeRunner::DecodeRunner(const RunnerConfig& config)
    : m_config(config), m_plan(*config.plan), m_impl(std::make_unique<Impl>()) {}

core::Result<std::unique_ptr<DecodeRunner>> DecodeRunner::create(const RunnerConfig& config,
                                                                 const std::vector<std::uint8_t>& ncclId) {
    if (config.plan == nullptr) return core::makeError(core::ErrorCode::Internal, "no plan", "DecodeRunner");
    std::unique_ptr<DecodeRunner> r(new DecodeRunner(config));
    TPSCOPE_GPU_CHECK(cudaSetDevice(config.device));
    TPSCOPE_TRY(r->allocate());
    TPSCOPE_TRY(r->initNccl(ncclId));
    return r;
}

core::Status DecodeRunner::allocate() {
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
    if (d.attention.headDim > 256 || c.contextLen > kernels::decodeAttentionMaxContext(d.attention.headDim)) {
        return core::makeError(core::ErrorCode::Unsupported,
                               "the decode attention kernel handles head_dim <= 256 and context <= " +
                                   std::to_string(kernels::decodeAttentionMaxContext(d.attention.headDim)),
                               "--context");
    }

    const auto h = static_cast<std::size_t>(d.hidden);
    const std::size_t perLayer = static_cast<std::size_t>(d.qkvOut) * h + h * static_cast<std::size_t>(d.attnOut) +
                                 2 * static_cast<std::size_t>(d.ffn) * h + h * static_cast<std::size_t>(d.ffn) + 2 * h;
    const std::size_t weightElems =
        static_cast<std::size_t>(d.layers) * perLayer + 2 * static_cast<std::size_t>(d.vocab) * h + h;
    const std::size_t kvPerLayer = static_cast<std::size_t>(c.batch) * static_cast<std::size_t>(s.kvHeadsPerRank) *
                                   static_cast<std::size_t>(c.contextLen) * static_cast<std::size_t>(c.model.headDim);
    const std::size_t kvElems = 2 * static_cast<std::size_t>(d.layers) * kvPerLayer;
    const auto b = static_cast<std::size_t>(c.batch);
    const std::size_t actElems = b * (3 * h + static_cast<std::size_t>(d.qkvOut) + static_cast<std::size_t>(d.attnOut) +
                                      3 * static_cast<std::size_t>(d.ffn) +
                                      static_cast<std::size_t>(d.vocab) * (1 + static_cast<std::size_t>(c.tp)));

    std::size_t freeBytes = 0, totalBytes = 0;
    TPSCOPE_GPU_CHECK(cudaMemGetInfo(&freeBytes, &totalBytes));
    const std::size_t need = (weightElems + kvElems + actElems) * d.elementBytes() + d.workspaceBytes + (512u << 20);
    if (need > freeBytes) {
        return core::makeError(
            core::ErrorCode::DoesNotFit,
            "rank " + std::to_string(m_config.rank) + " needs " + core::formatBytes(static_cast<double>(need)) +
                " (weights, KV cache, activations, workspace and NCCL) but GPU " + std::to_string(m_config.device) +
                " has " + core::formatBytes(static_cast<double>(freeBytes)) +
                " free; use a higher --tp or a smaller --batch/--context",
            "capture");
    }
    const auto alloc = [&d](std::size_t bytes, void** out) -> core::Status {
        TPSCOPE_GPU_CHECK(cudaMalloc(out, std::max<std::size_t>(bytes, 256)));
        d.allocations.push_back(*out);
        return core::Ok{};
    };
    void* p = nullptr;
    TPSCOPE_TRY(alloc(weightElems * d.elementBytes(), &p));
    d.weights = static_cast<std::byte*>(p);
    TPSCOPE_TRY(alloc(kvElems * d.elementBytes(), &p));
    d.kvCache = static_cast<std::byte*>(p);
    TPSCOPE_TRY(alloc(d.workspaceBytes, &d.workspace));

    std::size_t at = 0;
    const auto take = [&](std::size_t elems) {
        void* q = d.offset(d.weights, at);
        at += elems;
        return q;
    };
    for (int l = 0; l < d.layers; ++l) {
        d.wQkv.push_back(take(static_cast<std::size_t>(d.qkvOut) * h));
        d.wO.push_back(take(h * static_cast<std::size_t>(d.attnOut)));
        d.wGateUp.push_back(take(2 * static_cast<std::size_t>(d.ffn) * h));
        d.wDown.push_back(take(h * static_cast<std::size_t>(d.ffn)));
        d.wInputNorm.push_back(take(h));
        d.wPostNorm.push_back(take(h));
        d.kCache.push_back(d.offset(d.kvCache, (2 * static_cast<std::size_t>(l)) * kvPerLayer));
        d.vCache.push_back(d.offset(d.kvCache, (2 * static_cast<std::size_t>(l) + 1) * kvPerLayer));
    }
    d.wEmbedding = take(static_cast<std::size_t>(d.vocab) * h);
    d.wLmHead = take(static_cast<std::size_t>(d.vocab) * h);
    d.wFinalNorm = take(h);

    for (void** act : {&d.x, &d.residual, &d.normed}) TPSCOPE_TRY(alloc(b * h * d.elementBytes(), act));
    TPSCOPE_TRY(alloc(b * static_cast<std::size_t>(d.qkvOut) * d.elementBytes(), &d.qkv));
    TPSCOPE_TRY(alloc(b * static_cast<std::size_t>(d.attnOut) * d.elementBytes(), &d.attn));
    TPSCOPE_TRY(alloc(b * 2 * static_cast<std::size_t>(d.ffn) * d.elementBytes(), &d.gateUp));
    TPSCOPE_TRY(alloc(b * static_cast<std::size_t>(d.ffn) * d.elementBytes(), &d.act));
    TPSCOPE_TRY(alloc(b * static_cast<std::size_t>(d.vocab) * d.elementBytes(), &d.logits));
    TPSCOPE_TRY(
        alloc(b * static_cast<std::size_t>(d.vocab) * static_cast<std::size_t>(c.tp) * d.elementBytes(), &d.logitsAll));
    void* tokens = nullptr;
    TPSCOPE_TRY(alloc(b * sizeof(int), &tokens));
    d.tokens = static_cast<int*>(tokens);

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

    // Random weights and cache, filled on the device (no downloads); distinct seeds per rank.
    const std::uint64_t seed = 0x7470736370ULL + static_cast<std::uint64_t>(m_config.rank);
    TPSCOPE_GPU_CHECK(kernels::fillRandom(d.weights, weightElems, d.type, seed, kWeightScale, m_compute));
    TPSCOPE_GPU_CHECK(kernels::fillRandom(d.kvCache, kvElems, d.type, seed + 1, 1.0f, m_compute));
    std::vector<int> hostTokens(b);
    for (std::size_t i = 0; i < b; ++i)
        hostTokens[i] = static_cast<int>((i * 7919 + 17) % static_cast<std::size_t>(c.model.vocab));
    TPSCOPE_GPU_CHECK(cudaMemcpyAsync(d.tokens, hostTokens.data(), b * sizeof(int), cudaMemcpyHostToDevice, m_compute));
    TPSCOPE_GPU_CHECK(kernels::prepareDecodeAttention(d.attention, d.type));
    TPSCOPE_GPU_CHECK(cudaStreamSynchronize(m_compute));

    TPSCOPE_GPU_CHECK(cublasCreate(&d.cublas));
    TPSCOPE_GPU_CHECK(cublasSetStream(d.cublas, m_compute));
    // An explicit workspace: cuBLAS must not allocate while a CUDA graph is being captured.
    TPSCOPE_GPU_CHECK(cublasSetWorkspace(d.cublas, d.workspace, d.workspaceBytes));
    return core::Ok{};
}

core::Status DecodeRunner::initNccl(const std::vector<std::uint8_t>& ncclId) {
    const int tp = m_plan.config.tp;
    if (tp <= 1) return core::Ok{};
    if (ncclId.size() != NCCL_UNIQUE_ID_BYTES) {
        return core::makeError(core::ErrorCode::Internal, "NCCL unique id has the wrong size", "DecodeRunner");
    }
    ncclUniqueId id{};
    std::memcpy(id.internal, ncclId.data(), NCCL_UNIQUE_ID_BYTES);
    ncclConfig_t config = NCCL_CONFIG_INITIALIZER;
    config.blocking = 0;  // so a missing rank becomes a timeout, not a hang
    TPSCOPE_GPU_CHECK(ncclCommInitRankConfig(&m_impl->comm, tp, id, m_config.rank, &config));
    return waitNccl("ncclCommInitRankConfig");
}

core::Status DecodeRunner::waitNccl(const char* what) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(m_config.hangTimeoutMs);
    for (;;) {
        ncclResult_t state = ncclSuccess;
        TPSCOPE_GPU_CHECK(ncclCommGetAsyncError(m_impl->comm, &state));
        if (state == ncclSuccess) return core::Ok{};
        if (state != ncclInProgress) {
            abortComm();
            return gpuError(*failureText(state), what, __FILE__, __LINE__);
        }
        if (m_config.abort != nullptr && m_config.abort->load()) {
            abortComm();
            return core::makeError(core::ErrorCode::Cancelled, "stopped because another rank failed", what);
        }
        if (std::chrono::steady_clock::now() > deadline) {
            abortComm();
            return core::makeError(core::ErrorCode::DeviceError,
                                   "NCCL did not finish within " + std::to_string(m_config.hangTimeoutMs) +
                                       " ms (a rank missing or hung?); communicator aborted",
                                   what);
        }
        std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
}

void DecodeRunner::abortComm() {
    if (m_impl->comm != nullptr && !m_impl->commFailed) {
        ncclCommAbort(m_impl->comm);
        m_impl->commFailed = true;
    }
}

DecodeRunner::~DecodeRunner() {
    Impl& d = *m_impl;
    cudaSetDevice(m_config.device);
    if (m_compute != nullptr) cudaStreamSynchronize(m_compute);
    if (m_comm != nullptr && m_comm != m_compute) cudaStreamSynchronize(m_comm);
    if (d.graphExec != nullptr) cudaGraphExecDestroy(d.graphExec);
    if (d.graph != nullptr) cudaGraphDestroy(d.graph);
    if (d.comm != nullptr && !d.commFailed) {
        ncclCommFinalize(d.comm);  // non-blocking communicator: wait for it before destroying
        ncclResult_t state = ncclInProgress;
        for (int i = 0; i < 100000 && state == ncclInProgress; ++i) {
            if (ncclCommGetAsyncError(d.comm, &state) != ncclSuccess) break;
            if (state == ncclInProgress) std::this_thread::sleep_for(std::chrono::microseconds(100));
        }
        ncclCommDestroy(d.comm);
    }
    if (d.cublas != nullptr) cublasDestroy(d.cublas);
    for (cudaEvent_t e : d.forkJoin) cudaEventDestroy(e);
    if (d.stepStart != nullptr) cudaEventDestroy(d.stepStart);
    if (d.stepEnd != nullptr) cudaEventDestroy(d.stepEnd);
    if (m_comm != nullptr && m_comm != m_compute) cudaStreamDestroy(m_comm);
    if (m_compute != nullptr) cudaStreamDestroy(m_compute);
    for (void* p : d.allocations) cudaFree(p);
}

}  // namespace tpscope::gpu
