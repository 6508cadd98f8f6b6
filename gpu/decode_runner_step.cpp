// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// DecodeRunner: one decode step as the plan's ops (eager, or replayed from the CUDA graph of
// decode_runner_graph.cpp), NVTX ranges and CUPTI op tags around them, and the watched wait for
// the step.

#include <nvtx3/nvToolsExt.h>

#include <chrono>
#include <climits>
#include <string>
#include <thread>

#include "gpu/cupti_decoder.h"
#include "gpu/decode_runner_impl.h"
#include "gpu/gpu_check.h"

namespace tpscope::gpu {

namespace {

constexpr float kRmsEps = 1e-5f;

// Pops what was pushed, also on an early return.
struct NvtxStack {
    int depth = 0;
    void push(const std::string& name) {
        nvtxRangePushA(name.c_str());
        ++depth;
    }
    void popTo(int keep) {
        for (; depth > keep; --depth) nvtxRangePop();
    }
    ~NvtxStack() { popTo(0); }
};

bool hasBlockRange(core::OpBlock b) {
    return b == core::OpBlock::Attention || b == core::OpBlock::Mlp;
}

}  // namespace

core::Result<std::int64_t> DecodeRunner::step(int index, bool annotate) {
    Impl& d = *m_impl;
    TPSCOPE_GPU_CHECK(cudaSetDevice(m_config.device));
    if (m_config.graph && d.graphExec == nullptr) TPSCOPE_TRY(captureGraph(index));
    TPSCOPE_GPU_CHECK(cudaEventRecord(d.stepStart, m_compute));
    {
        NvtxStack nvtx;
        if (annotate && m_config.nvtx) nvtx.push("step " + std::to_string(index));
        if (m_config.graph) {
            TPSCOPE_GPU_CHECK(cudaGraphLaunch(d.graphExec, m_compute));
        } else {
            TPSCOPE_TRY(enqueueStep(index, annotate, false));
        }
    }
    TPSCOPE_GPU_CHECK(cudaEventRecord(d.stepEnd, m_compute));
    TPSCOPE_TRY(waitForStep());
    float ms = 0;
    TPSCOPE_GPU_CHECK(cudaEventElapsedTime(&ms, d.stepStart, d.stepEnd));
    return static_cast<std::int64_t>(static_cast<double>(ms) * 1e6);
}

core::Status DecodeRunner::enqueueStep(int index, bool annotate, bool capturing) {
    NvtxStack nvtx;
    int layer = INT_MIN;
    core::OpBlock block = core::OpBlock::Prologue;
    m_skipOp = SIZE_MAX;
    const bool ranges = annotate && m_config.nvtx;
    for (std::size_t i = 0; i < m_plan.ops.size(); ++i) {
        const core::PlanOp& op = m_plan.ops[i];
        if (ranges && op.layer != layer) {
            nvtx.popTo(0);
            layer = op.layer;
            block = op.block;
            if (layer >= 0) {
                nvtx.push("layer " + std::to_string(layer));
                if (hasBlockRange(block)) nvtx.push(std::string(core::toString(block)));
            }
        } else if (ranges && op.block != block) {
            nvtx.popTo(layer >= 0 ? 1 : 0);
            block = op.block;
            if (layer >= 0 && hasBlockRange(block)) nvtx.push(std::string(core::toString(block)));
        }
        if (i == m_skipOp) continue;
        TPSCOPE_TRY(enqueueOp(i, index, annotate, capturing));
    }
    return core::Ok{};
}

core::Status DecodeRunner::launchTagged(std::size_t opIndex, int step, bool annotate, bool capturing,
                                        const std::function<core::Status()>& launch, int rows) {
    const RunnerHooks& hooks = m_config.hooks;
    const bool tag = annotate && hooks.pushOpTag && hooks.popOpTag;
    if (tag) {
        hooks.pushOpTag(encodeOpTag(static_cast<std::uint32_t>(step), static_cast<std::uint32_t>(opIndex),
                                    static_cast<std::uint32_t>(rows)));
    }
    const core::Status status = launch();
    if (tag) hooks.popOpTag();
    TPSCOPE_TRY(status);
    if (capturing && hooks.tagGraphNode) TPSCOPE_TRY(tagNewGraphNodes(opIndex, rows));
    return core::Ok{};
}

core::Status DecodeRunner::gemm(const void* weight, const void* in, void* out, int rows, int n, int k) {
    Impl& d = *m_impl;
    const float alpha = 1.0f, beta = 0.0f;
    // Row-major out[rows][n] = in[rows][k] x weight[n][k]^T, i.e. column-major out^T = weight^T x in^T.
    TPSCOPE_GPU_CHECK(cublasGemmEx(d.cublas, CUBLAS_OP_T, CUBLAS_OP_N, n, rows, k, &alpha, weight, d.cudaType, k, in,
                                   d.cudaType, k, &beta, out, d.cudaType, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    return core::Ok{};
}

core::Status DecodeRunner::allReduce(void* data, std::size_t count, cudaStream_t stream) {
    Impl& d = *m_impl;
    return ncclCall("ncclAllReduce",
                    [&] { return ncclAllReduce(data, data, count, d.ncclType, ncclSum, d.comm, stream); });
}

core::Status DecodeRunner::enqueueOp(std::size_t i, int step, bool annotate, bool capturing) {
    Impl& d = *m_impl;
    const core::PlanOp& op = m_plan.ops[i];
    const auto l = static_cast<std::size_t>(std::max(op.layer, 0));
    const auto run = [&](const std::function<core::Status()>& f) {
        return launchTagged(i, step, annotate, capturing, f);
    };
    const auto bh = static_cast<std::size_t>(d.batch) * static_cast<std::size_t>(d.hidden);
    // Collectives go to the comm stream (== compute unless overlap), joined back before the next op.
    const auto onComm = [&](const std::function<core::Status()>& f) -> core::Status {
        if (m_comm == m_compute) return f();
        cudaEvent_t fork = d.event(), join = d.event();
        TPSCOPE_GPU_CHECK(cudaEventRecord(fork, m_compute));
        TPSCOPE_GPU_CHECK(cudaStreamWaitEvent(m_comm, fork, 0));
        TPSCOPE_TRY(f());
        TPSCOPE_GPU_CHECK(cudaEventRecord(join, m_comm));
        TPSCOPE_GPU_CHECK(cudaStreamWaitEvent(m_compute, join, 0));
        return core::Ok{};
    };
    const auto norm = [&](const void* weight) {
        return run([&]() -> core::Status {
            TPSCOPE_GPU_CHECK(
                kernels::addRmsNorm(d.x, d.residual, weight, d.normed, d.batch, d.hidden, kRmsEps, d.type, m_compute));
            return core::Ok{};
        });
    };
    switch (op.kind) {
        case core::OpKind::Embedding:
            return run([&]() -> core::Status {
                TPSCOPE_GPU_CHECK(kernels::embedding(d.wEmbedding, d.tokens, d.x, d.residual, d.batch, d.hidden,
                                                     m_config.rank * d.vocab, d.vocab, d.type, m_compute));
                return core::Ok{};
            });
        case core::OpKind::InputNorm:
            return norm(d.wInputNorm[l]);
        case core::OpKind::PostAttnNorm:
            return norm(d.wPostNorm[l]);
        case core::OpKind::FinalNorm:
            return norm(d.wFinalNorm);
        case core::OpKind::QkvGemm:
            return run([&] { return gemm(d.wQkv[l], d.normed, d.qkv, d.batch, d.qkvOut, d.hidden); });
        case core::OpKind::GateUpGemm:
            return run([&] { return gemm(d.wGateUp[l], d.normed, d.gateUp, d.batch, 2 * d.ffn, d.hidden); });
        case core::OpKind::LmHeadGemm:
            return run([&] { return gemm(d.wLmHead, d.normed, d.logits, d.batch, d.vocab, d.hidden); });
        case core::OpKind::OProjGemm:
        case core::OpKind::DownGemm:
            return rowParallelWithAllReduce(i, step, annotate, capturing);
        case core::OpKind::Attention:
            return run([&]() -> core::Status {
                TPSCOPE_GPU_CHECK(kernels::decodeAttention(d.qkv, d.kCache[l], d.vCache[l], d.attn,
                                                           d.attentionWorkspace, d.attention, d.type, m_compute));
                return core::Ok{};
            });
        case core::OpKind::SiluMul:
            return run([&]() -> core::Status {
                TPSCOPE_GPU_CHECK(kernels::siluMul(d.gateUp, d.act, d.batch, d.ffn, d.type, m_compute));
                return core::Ok{};
            });
        case core::OpKind::AttnAllReduce:
        case core::OpKind::MlpAllReduce:
        case core::OpKind::EmbeddingAllReduce:
            return run([&] { return onComm([&] { return allReduce(d.x, bh, m_comm); }); });
        case core::OpKind::LogitsAllGather:
            return run([&] {
                return onComm([&]() -> core::Status {
                    const std::size_t count = static_cast<std::size_t>(d.batch) * static_cast<std::size_t>(d.vocab);
                    return ncclCall("ncclAllGather", [&] {
                        return ncclAllGather(d.logits, d.logitsAll, count, d.ncclType, d.comm, m_comm);
                    });
                });
            });
        case core::OpKind::MlaQUpGemm:
        case core::OpKind::MlaKvUpGemm:
        case core::OpKind::MoeRouter:
        case core::OpKind::MoeTopK:
        case core::OpKind::MoeGateUp:
        case core::OpKind::MoeSiluMul:
        case core::OpKind::MoeDown:
        case core::OpKind::MoeDispatch:
        case core::OpKind::MoeCombine:
        case core::OpKind::MoeAllGather:
            // capture refuses MoE and MLA models before a plan reaches the runner (gpu/capture.cpp).
            return core::makeError(
                core::ErrorCode::Unsupported,
                "the GPU runner decodes dense GQA models only; got " + std::string(core::toString(op.kind)),
                "DecodeRunner");
    }
    return core::makeError(core::ErrorCode::Internal, "unknown plan op", "DecodeRunner");
}

// O-proj / down GEMM and the all-reduce after it. With overlap and batch >= 2 the rows go in two
// halves: half A's all-reduce (comm stream) runs while half B's GEMM runs (compute stream).
core::Status DecodeRunner::rowParallelWithAllReduce(std::size_t g, int step, bool annotate, bool capturing) {
    Impl& d = *m_impl;
    const core::PlanOp& op = m_plan.ops[g];
    const auto l = static_cast<std::size_t>(op.layer);
    const bool oProj = op.kind == core::OpKind::OProjGemm;
    const void* weight = oProj ? d.wO[l] : d.wDown[l];
    const void* in = oProj ? d.attn : d.act;
    const int k = oProj ? d.attnOut : d.ffn;
    const bool fused = m_config.overlap && g + 1 < m_plan.ops.size() && m_plan.ops[g + 1].isCollective();
    if (!fused) {
        return launchTagged(g, step, annotate, capturing, [&] { return gemm(weight, in, d.x, d.batch, d.hidden, k); });
    }
    m_skipOp = g + 1;
    const int halves = d.batch >= 2 ? 2 : 1;
    int start = 0;
    for (int part = 0; part < halves; ++part) {
        const int rows = part + 1 == halves ? d.batch - start : d.batch / 2;
        void* out = d.offset(d.x, static_cast<std::size_t>(start) * static_cast<std::size_t>(d.hidden));
        const void* src =
            d.offset(const_cast<void*>(in), static_cast<std::size_t>(start) * static_cast<std::size_t>(k));
        // Each half carries its rows, so the decoder gives it half the op's bytes and FLOPs.
        const int tagRows = halves > 1 ? rows : 0;
        TPSCOPE_TRY(launchTagged(
            g, step, annotate, capturing, [&] { return gemm(weight, src, out, rows, d.hidden, k); }, tagRows));
        TPSCOPE_TRY(launchTagged(
            g + 1, step, annotate, capturing,
            [&]() -> core::Status {
                cudaEvent_t ready = d.event();
                TPSCOPE_GPU_CHECK(cudaEventRecord(ready, m_compute));
                TPSCOPE_GPU_CHECK(cudaStreamWaitEvent(m_comm, ready, 0));
                return allReduce(out, static_cast<std::size_t>(rows) * static_cast<std::size_t>(d.hidden), m_comm);
            },
            tagRows));
        start += rows;
    }
    cudaEvent_t done = d.event();
    TPSCOPE_GPU_CHECK(cudaEventRecord(done, m_comm));
    TPSCOPE_GPU_CHECK(cudaStreamWaitEvent(m_compute, done, 0));
    return core::Ok{};
}

core::Status DecodeRunner::waitForStep() {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(m_config.hangTimeoutMs);
    for (;;) {
        const cudaError_t state = cudaEventQuery(m_impl->stepEnd);
        if (state == cudaSuccess) return core::Ok{};
        if (state != cudaErrorNotReady) TPSCOPE_GPU_CHECK(state);
        if (m_impl->owned) {
            // NCCL's asynchronous error or another rank's failure: the owner (this thread) aborts.
            TPSCOPE_TRY(m_impl->owned->poll("decode step"));
        } else if (m_config.abort != nullptr && m_config.abort->load()) {
            return core::makeError(core::ErrorCode::Cancelled, "stopped because another rank failed", "decode step");
        }
        if (std::chrono::steady_clock::now() > deadline) {
            if (m_impl->owned) m_impl->owned->abort();
            return core::makeError(core::ErrorCode::DeviceError,
                                   "a decode step did not finish within " + std::to_string(m_config.hangTimeoutMs) +
                                       " ms (NCCL hang?); communicator aborted",
                                   "decode step");
        }
        std::this_thread::sleep_for(std::chrono::microseconds(20));
    }
}

}  // namespace tpscope::gpu
