// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The small CUDA kernels of a decode step (the GEMMs are cuBLAS, the collectives NCCL): weight and
// KV-cache fill, embedding gather, fused residual-add + RMSNorm, SiLU(gate) * up, and decode
// attention of one new token per sequence over the KV cache. fp16 or bf16 storage, fp32 math.
// Each function launches on the given stream and returns the launch error.
// Kernel names contain "embedding", "rms_norm", "silu_mul", "decode_attention" so that the
// kernel classifier files them as the simulator does.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace tpscope::gpu::kernels {

enum class ElementType { Fp16, Bf16 };
inline std::size_t elementBytes(ElementType) {
    return 2;
}

// Uniform values in [-scale, scale] from a counter hash: reproducible, no RNG state.
cudaError_t fillRandom(void* data, std::size_t count, ElementType type, std::uint64_t seed, float scale,
                       cudaStream_t stream);

// out[b] = row tokens[b] - vocabStart of this rank's table slice, or zeros when another rank
// holds it (vocab-parallel; the all-reduce that follows sums the slices); residual[b] = 0.
cudaError_t embedding(const void* table, const int* tokens, void* out, void* residual, int batch, int hidden,
                      int vocabStart, int vocabRows, ElementType type, cudaStream_t stream);

// residual += x; out = residual / rms(residual) * weight, per row.
cudaError_t addRmsNorm(const void* x, void* residual, const void* weight, void* out, int batch, int hidden, float eps,
                       ElementType type, cudaStream_t stream);

// gateUp rows are [gate (ffn) | up (ffn)]; out = silu(gate) * up.
cudaError_t siluMul(const void* gateUp, void* out, int batch, int ffn, ElementType type, cudaStream_t stream);

struct AttentionShape {
    int batch = 1;
    int heads = 1;    // query heads on this rank
    int kvHeads = 1;  // key/value heads on this rank (a divisor of heads)
    int headDim = 128;
    int contextLen = 1024;  // positions attended, the new token's included (written to the last slot)
};
// Decode attention is split-KV flash decoding where the shape allows (splitKvSupported): a grid of
// kv heads x sequences x splits of the context, each CTA handling every query head of its kv head
// over its share of positions with 16-byte loads and an online softmax, then a combine kernel that
// merges the splits' (max, sum, weighted values). It moves the KV cache at memory speed instead of
// one round trip per position. Other shapes use the reference kernel: one CTA per (query head,
// sequence), scores in shared memory (hence a context limit), one position per warp at a time.
// NOTE: the split-KV kernels were compile-checked only (no GPU where they were written); the gpu
// test DecodeKernels.* holds both paths against a CPU reference.
bool splitKvSupported(const AttentionShape& shape);
// Splits of the context and the float workspace the split path needs (0 when it is not used).
int decodeAttentionSplits(const AttentionShape& shape);
std::size_t decodeAttentionWorkspaceBytes(const AttentionShape& shape);
// The longest context decode attention supports: unbounded on the split path, else the reference
// kernel's (its scores live in shared memory).
int decodeAttentionMaxContext(const AttentionShape& shape);
// Once per process before capture: allows the shared memory the reference kernel needs.
cudaError_t prepareDecodeAttention(const AttentionShape& shape, ElementType type);
// qkv rows are [q (heads x d) | k (kvHeads x d) | v (kvHeads x d)]; caches are
// [batch][kvHeads][contextLen][d]; out rows are heads x d. workspace: decodeAttentionWorkspaceBytes,
// 16-byte aligned (may be null when that is 0).
cudaError_t decodeAttention(const void* qkv, void* kCache, void* vCache, void* out, void* workspace,
                            const AttentionShape& shape, ElementType type, cudaStream_t stream);
// The reference kernel alone (tests hold the split path against it and against the CPU).
cudaError_t decodeAttentionReference(const void* qkv, void* kCache, void* vCache, void* out,
                                     const AttentionShape& shape, ElementType type, cudaStream_t stream);

}  // namespace tpscope::gpu::kernels
