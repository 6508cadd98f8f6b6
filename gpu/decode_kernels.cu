// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "gpu/decode_kernels.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cfloat>

namespace tpscope::gpu::kernels {

namespace {

constexpr int kThreads = 256;
constexpr int kAttentionThreads = 256;
constexpr int kSharedLimitBytes = 227 * 1024;  // opt-in maximum on sm_90 (sm_80: 163 KiB, checked at run time)

__device__ __forceinline__ float toFloat(__half v) {
    return __half2float(v);
}
__device__ __forceinline__ float toFloat(__nv_bfloat16 v) {
    return __bfloat162float(v);
}
template <typename T>
__device__ __forceinline__ T fromFloat(float v);
template <>
__device__ __forceinline__ __half fromFloat<__half>(float v) {
    return __float2half(v);
}
template <>
__device__ __forceinline__ __nv_bfloat16 fromFloat<__nv_bfloat16>(float v) {
    return __float2bfloat16(v);
}

__device__ __forceinline__ std::uint64_t mix64(std::uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    return x ^ (x >> 33);
}

__device__ __forceinline__ float warpSum(float v) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

// Block-wide sum or max through `scratch` (blockDim.x floats); every thread gets the result.
template <bool kMax>
__device__ float blockReduce(float v, float* scratch) {
    scratch[threadIdx.x] = v;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) {
            const float other = scratch[threadIdx.x + s];
            scratch[threadIdx.x] = kMax ? fmaxf(scratch[threadIdx.x], other) : scratch[threadIdx.x] + other;
        }
        __syncthreads();
    }
    const float r = scratch[0];
    __syncthreads();
    return r;
}

template <typename T>
__global__ void fill_random_kernel(T* data, std::size_t count, std::uint64_t seed, float scale) {
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count; i += stride) {
        const std::uint64_t h = mix64(seed ^ (i * 0x9e3779b97f4a7c15ULL));
        const float u = static_cast<float>(h >> 40) * (1.0f / 16777216.0f);  // [0, 1)
        data[i] = fromFloat<T>((2.0f * u - 1.0f) * scale);
    }
}

template <typename T>
__global__ void tpscope_embedding_kernel(const T* table, const int* tokens, T* out, T* residual, int hidden,
                                         int vocabStart, int vocabRows) {
    const int b = blockIdx.x;
    const int local = tokens[b] - vocabStart;
    const bool mine = local >= 0 && local < vocabRows;
    for (int i = threadIdx.x; i < hidden; i += blockDim.x) {
        out[b * hidden + i] = mine ? table[static_cast<std::size_t>(local) * hidden + i] : fromFloat<T>(0.0f);
        residual[b * hidden + i] = fromFloat<T>(0.0f);
    }
}

template <typename T>
__global__ void add_rms_norm_kernel(const T* x, T* residual, const T* weight, T* out, int hidden, float eps) {
    __shared__ float scratch[kThreads];
    const std::size_t row = static_cast<std::size_t>(blockIdx.x) * hidden;
    float sumSq = 0.0f;
    for (int i = threadIdx.x; i < hidden; i += blockDim.x) {
        const float r = toFloat(x[row + i]) + toFloat(residual[row + i]);
        residual[row + i] = fromFloat<T>(r);
        sumSq += r * r;
    }
    const float scale = rsqrtf(blockReduce<false>(sumSq, scratch) / hidden + eps);
    for (int i = threadIdx.x; i < hidden; i += blockDim.x) {
        out[row + i] = fromFloat<T>(toFloat(residual[row + i]) * scale * toFloat(weight[i]));
    }
}

template <typename T>
__global__ void silu_mul_kernel(const T* gateUp, T* out, int batch, int ffn) {
    const std::size_t total = static_cast<std::size_t>(batch) * ffn;
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < total; i += stride) {
        const std::size_t b = i / ffn, j = i % ffn;
        const float g = toFloat(gateUp[b * 2 * ffn + j]);
        const float u = toFloat(gateUp[b * 2 * ffn + ffn + j]);
        out[i] = fromFloat<T>(g / (1.0f + __expf(-g)) * u);
    }
}

// One block per (query head, sequence). Scores for every position are kept in shared memory:
// warps compute q.k for a position each (lanes over the head dimension), then the softmax, then
// threads sum p x v with one thread per (dimension, position stripe).
template <typename T>
__global__ void decode_attention_kernel(const T* qkv, T* kCache, T* vCache, T* out, int heads, int kvHeads, int d,
                                        int ctx) {
    extern __shared__ float smem[];
    float* qs = smem;
    float* scores = qs + d;
    float* scratch = scores + ctx;
    const int h = blockIdx.x, b = blockIdx.y;
    const int group = heads / kvHeads, kvh = h / group;
    const std::size_t row = static_cast<std::size_t>(b) * (heads + 2 * kvHeads) * d;
    const T* q = qkv + row + static_cast<std::size_t>(h) * d;
    const T* kNew = qkv + row + static_cast<std::size_t>(heads + kvh) * d;
    const T* vNew = kNew + static_cast<std::size_t>(kvHeads) * d;
    const std::size_t base = (static_cast<std::size_t>(b) * kvHeads + kvh) * ctx * d;
    T* kRows = kCache + base;
    T* vRows = vCache + base;
    const float qScale = rsqrtf(static_cast<float>(d));
    for (int i = threadIdx.x; i < d; i += blockDim.x) {
        qs[i] = toFloat(q[i]) * qScale;
        if (h % group == 0) {  // one writer per kv head; readers take the new token from qkv
            kRows[static_cast<std::size_t>(ctx - 1) * d + i] = kNew[i];
            vRows[static_cast<std::size_t>(ctx - 1) * d + i] = vNew[i];
        }
    }
    __syncthreads();
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, warps = blockDim.x / 32;
    for (int p = warp; p < ctx; p += warps) {
        const T* k = p == ctx - 1 ? kNew : kRows + static_cast<std::size_t>(p) * d;
        float acc = 0.0f;
        for (int i = lane; i < d; i += 32) acc += qs[i] * toFloat(k[i]);
        acc = warpSum(acc);
        if (lane == 0) scores[p] = acc;
    }
    __syncthreads();
    float m = -FLT_MAX;
    for (int p = threadIdx.x; p < ctx; p += blockDim.x) m = fmaxf(m, scores[p]);
    m = blockReduce<true>(m, scratch);
    float sum = 0.0f;
    for (int p = threadIdx.x; p < ctx; p += blockDim.x) {
        const float e = __expf(scores[p] - m);
        scores[p] = e;
        sum += e;
    }
    sum = blockReduce<false>(sum, scratch);  // also orders the score writes before the reads below
    const int stripes = blockDim.x / d;
    const int dim = threadIdx.x % d, stripe = threadIdx.x / d;
    float acc = 0.0f;
    if (stripe < stripes) {
        for (int p = stripe; p < ctx; p += stripes) {
            const T* v = p == ctx - 1 ? vNew : vRows + static_cast<std::size_t>(p) * d;
            acc += scores[p] * toFloat(v[dim]);
        }
    }
    scratch[threadIdx.x] = acc;
    __syncthreads();
    if (threadIdx.x < d) {
        float total = 0.0f;
        for (int s = 0; s < stripes; ++s) total += scratch[s * d + threadIdx.x];
        out[static_cast<std::size_t>(b) * heads * d + static_cast<std::size_t>(h) * d + threadIdx.x] =
            fromFloat<T>(total / sum);
    }
}

// ---- split-KV flash decoding ----------------------------------------------------------------
constexpr int kSplitThreads = 128;  // 4 warps
constexpr int kMaxGroup = 8;        // query heads per kv head handled in registers
constexpr int kVec = 8;             // elements per 16-byte load
constexpr int kTargetCtas = 264;    // about two waves on an H200's 132 SMs
constexpr int kMinChunk = 64;       // positions per split at least

template <typename T>
__device__ __forceinline__ void loadVec(const T* p, float (&out)[kVec]) {
    const uint4 raw = *reinterpret_cast<const uint4*>(p);
    const T* e = reinterpret_cast<const T*>(&raw);
#pragma unroll
    for (int i = 0; i < kVec; ++i) out[i] = toFloat(e[i]);
}

// One CTA per (kv head, sequence, split). A row of K (or V) is d / 8 lanes wide, so a warp reads
// 32 / (d / 8) positions at once; each such lane group keeps, for every query head of the group,
// the running max m, the running sum l and its 8 dimensions of the weighted values. The lane groups
// are merged in shared memory and the split's (m, l, values) go to `partial`.
template <typename T>
__global__ void decode_attention_split_kernel(const T* qkv, T* kCache, T* vCache, float* partial, int heads,
                                              int kvHeads, int d, int ctx, int splits, int chunk) {
    extern __shared__ float smem[];
    const int kvh = blockIdx.x, b = blockIdx.y, split = blockIdx.z;
    const int group = heads / kvHeads;
    const int lanesPerRow = d / kVec, rowsPerWarp = 32 / lanesPerRow;
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int sub = lane / lanesPerRow, subLane = lane % lanesPerRow;
    const int subgroups = (blockDim.x / 32) * rowsPerWarp;
    const int sg = warp * rowsPerWarp + sub;
    const int stride = d + 2;       // values, then m and l
    float* qs = smem;               // [group][d], scaled by 1 / sqrt(d)
    float* merge = qs + group * d;  // [subgroups][group][stride]

    const std::size_t row = static_cast<std::size_t>(b) * (heads + 2 * kvHeads) * d;
    const T* kNew = qkv + row + static_cast<std::size_t>(heads + kvh) * d;
    const T* vNew = kNew + static_cast<std::size_t>(kvHeads) * d;
    const std::size_t base = (static_cast<std::size_t>(b) * kvHeads + kvh) * ctx * d;
    T* kRows = kCache + base;
    T* vRows = vCache + base;
    const int p0 = split * chunk, p1 = min(ctx, p0 + chunk);
    const float qScale = rsqrtf(static_cast<float>(d));
    for (int i = threadIdx.x; i < group * d; i += blockDim.x) {
        const int h = kvh * group + i / d;
        qs[i] = toFloat(qkv[row + static_cast<std::size_t>(h) * d + i % d]) * qScale;
    }
    if (p0 <= ctx - 1 && ctx - 1 < p1) {  // the split holding the new token is its cache slot's one writer
        for (int i = threadIdx.x; i < d; i += blockDim.x) {
            kRows[static_cast<std::size_t>(ctx - 1) * d + i] = kNew[i];
            vRows[static_cast<std::size_t>(ctx - 1) * d + i] = vNew[i];
        }
    }
    __syncthreads();

    float m[kMaxGroup], l[kMaxGroup], acc[kMaxGroup][kVec];
#pragma unroll
    for (int h = 0; h < kMaxGroup; ++h) {
        m[h] = -FLT_MAX;
        l[h] = 0.0f;
#pragma unroll
        for (int i = 0; i < kVec; ++i) acc[h][i] = 0.0f;
    }
    const int dim0 = subLane * kVec;
    // The loop bound is the same for the whole warp, so the shuffles below see every lane.
    for (int first = p0 + warp * rowsPerWarp; first < p1; first += subgroups) {
        const int p = first + sub;
        const bool valid = p < p1;
        float kv[kVec], vv[kVec];
        if (valid) {
            const T* k = p == ctx - 1 ? kNew : kRows + static_cast<std::size_t>(p) * d;
            const T* v = p == ctx - 1 ? vNew : vRows + static_cast<std::size_t>(p) * d;
            loadVec(k + dim0, kv);
            loadVec(v + dim0, vv);
        } else {
#pragma unroll
            for (int i = 0; i < kVec; ++i) kv[i] = vv[i] = 0.0f;
        }
#pragma unroll
        for (int h = 0; h < kMaxGroup; ++h) {
            if (h < group) {
                float s = 0.0f;
#pragma unroll
                for (int i = 0; i < kVec; ++i) s += qs[h * d + dim0 + i] * kv[i];
                for (int off = lanesPerRow / 2; off > 0; off >>= 1) s += __shfl_xor_sync(0xffffffffu, s, off);
                if (valid) {
                    const float mNew = fmaxf(m[h], s);
                    const float keep = __expf(m[h] - mNew), w = __expf(s - mNew);
                    l[h] = l[h] * keep + w;
#pragma unroll
                    for (int i = 0; i < kVec; ++i) acc[h][i] = acc[h][i] * keep + w * vv[i];
                    m[h] = mNew;
                }
            }
        }
    }
#pragma unroll
    for (int h = 0; h < kMaxGroup; ++h) {
        if (h < group) {
            float* slot = merge + (static_cast<std::size_t>(sg) * group + h) * stride;
#pragma unroll
            for (int i = 0; i < kVec; ++i) slot[dim0 + i] = acc[h][i];
            if (subLane == 0) {
                slot[d] = m[h];
                slot[d + 1] = l[h];
            }
        }
    }
    __syncthreads();
    for (int idx = threadIdx.x; idx < group * d; idx += blockDim.x) {
        const int h = idx / d, dim = idx % d;
        float big = -FLT_MAX;
        for (int g = 0; g < subgroups; ++g) big = fmaxf(big, merge[(g * group + h) * stride + d]);
        float value = 0.0f, sum = 0.0f;
        for (int g = 0; g < subgroups; ++g) {
            const float* slot = merge + (g * group + h) * stride;
            const float w = __expf(slot[d] - big);
            value += w * slot[dim];
            sum += w * slot[d + 1];
        }
        float* out = partial + ((static_cast<std::size_t>(b) * heads + kvh * group + h) * splits + split) * stride;
        out[dim] = value;
        if (dim == 0) {
            out[d] = big;
            out[d + 1] = sum;
        }
    }
}

// One CTA per (query head, sequence), one thread per dimension: the splits' partial results merged.
template <typename T>
__global__ void decode_attention_combine_kernel(const float* partial, T* out, int heads, int d, int splits) {
    const int h = blockIdx.x, b = blockIdx.y, dim = threadIdx.x;
    const int stride = d + 2;
    const float* first = partial + (static_cast<std::size_t>(b) * heads + h) * splits * stride;
    float big = -FLT_MAX;
    for (int s = 0; s < splits; ++s) big = fmaxf(big, first[s * stride + d]);
    float value = 0.0f, sum = 0.0f;
    for (int s = 0; s < splits; ++s) {
        const float w = __expf(first[s * stride + d] - big);
        value += w * first[s * stride + dim];
        sum += w * first[s * stride + d + 1];
    }
    if (dim < d) out[(static_cast<std::size_t>(b) * heads + h) * d + dim] = fromFloat<T>(value / sum);
}

std::size_t splitSharedBytes(const AttentionShape& s) {
    const int group = s.heads / s.kvHeads;
    const int subgroups = (kSplitThreads / 32) * (32 / (s.headDim / kVec));
    return sizeof(float) * (static_cast<std::size_t>(group) * s.headDim +
                            static_cast<std::size_t>(subgroups) * group * (s.headDim + 2));
}

int splitChunk(const AttentionShape& s, int splits) {
    return (s.contextLen + splits - 1) / splits;
}

std::size_t attentionSharedBytes(const AttentionShape& s) {
    return sizeof(float) * (static_cast<std::size_t>(s.headDim) + s.contextLen + kAttentionThreads);
}

int gridFor(std::size_t count) {
    const std::size_t blocks = (count + kThreads - 1) / kThreads;
    return static_cast<int>(blocks < 65536 ? (blocks == 0 ? 1 : blocks) : 65536);
}

template <typename F>
cudaError_t dispatch(ElementType type, F&& launch) {
    if (type == ElementType::Bf16) {
        launch(__nv_bfloat16{});
    } else {
        launch(__half{});
    }
    return cudaGetLastError();
}

}  // namespace

cudaError_t fillRandom(void* data, std::size_t count, ElementType type, std::uint64_t seed, float scale,
                       cudaStream_t stream) {
    return dispatch(type, [&](auto tag) {
        using T = decltype(tag);
        fill_random_kernel<T><<<gridFor(count), kThreads, 0, stream>>>(static_cast<T*>(data), count, seed, scale);
    });
}

cudaError_t embedding(const void* table, const int* tokens, void* out, void* residual, int batch, int hidden,
                      int vocabStart, int vocabRows, ElementType type, cudaStream_t stream) {
    return dispatch(type, [&](auto tag) {
        using T = decltype(tag);
        tpscope_embedding_kernel<T><<<batch, kThreads, 0, stream>>>(static_cast<const T*>(table), tokens,
                                                                    static_cast<T*>(out), static_cast<T*>(residual),
                                                                    hidden, vocabStart, vocabRows);
    });
}

cudaError_t addRmsNorm(const void* x, void* residual, const void* weight, void* out, int batch, int hidden, float eps,
                       ElementType type, cudaStream_t stream) {
    return dispatch(type, [&](auto tag) {
        using T = decltype(tag);
        add_rms_norm_kernel<T><<<batch, kThreads, 0, stream>>>(static_cast<const T*>(x), static_cast<T*>(residual),
                                                               static_cast<const T*>(weight), static_cast<T*>(out),
                                                               hidden, eps);
    });
}

cudaError_t siluMul(const void* gateUp, void* out, int batch, int ffn, ElementType type, cudaStream_t stream) {
    return dispatch(type, [&](auto tag) {
        using T = decltype(tag);
        silu_mul_kernel<T><<<gridFor(static_cast<std::size_t>(batch) * ffn), kThreads, 0, stream>>>(
            static_cast<const T*>(gateUp), static_cast<T*>(out), batch, ffn);
    });
}

bool splitKvSupported(const AttentionShape& s) {
    const int d = s.headDim;
    // 16-byte rows in lane groups that tile a warp (d = 64, 128 or 256; 8 .. 32 too), all query
    // heads of a kv head in registers, the merge in the default 48 KiB of shared memory.
    const bool rows = d >= kVec && d <= 256 && d % kVec == 0 && 32 % (d / kVec) == 0;
    return rows && s.kvHeads > 0 && s.heads % s.kvHeads == 0 && s.heads / s.kvHeads <= kMaxGroup && s.contextLen >= 1 &&
           splitSharedBytes(s) <= 48 * 1024;
}

int decodeAttentionSplits(const AttentionShape& s) {
    if (!splitKvSupported(s)) return 0;
    const int ctas = s.kvHeads * s.batch;
    const int wanted = (kTargetCtas + ctas - 1) / ctas;
    const int most = (s.contextLen + kMinChunk - 1) / kMinChunk;
    const int splits = wanted < most ? wanted : most;
    // Every split holds at least one position: ceil(ctx / chunk) splits of ceil(ctx / splits).
    const int chunk = splitChunk(s, splits < 1 ? 1 : splits);
    return (s.contextLen + chunk - 1) / chunk;
}

std::size_t decodeAttentionWorkspaceBytes(const AttentionShape& s) {
    const int splits = decodeAttentionSplits(s);
    if (splits == 0) return 0;
    return sizeof(float) * static_cast<std::size_t>(s.batch) * s.heads * splits * (s.headDim + 2);
}

int decodeAttentionMaxContext(const AttentionShape& s) {
    if (splitKvSupported(s)) return 1 << 30;
    return static_cast<int>(kSharedLimitBytes / sizeof(float)) - s.headDim - kAttentionThreads;
}

cudaError_t prepareDecodeAttention(const AttentionShape& shape, ElementType type) {
    if (splitKvSupported(shape)) return cudaSuccess;  // the default shared memory suffices
    const int bytes = static_cast<int>(attentionSharedBytes(shape));
    if (type == ElementType::Bf16) {
        return cudaFuncSetAttribute(decode_attention_kernel<__nv_bfloat16>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    bytes);
    }
    return cudaFuncSetAttribute(decode_attention_kernel<__half>, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
}

cudaError_t decodeAttention(const void* qkv, void* kCache, void* vCache, void* out, void* workspace,
                            const AttentionShape& s, ElementType type, cudaStream_t stream) {
    const int splits = decodeAttentionSplits(s);
    if (splits == 0) return decodeAttentionReference(qkv, kCache, vCache, out, s, type, stream);
    if (workspace == nullptr) return cudaErrorInvalidValue;
    const int chunk = splitChunk(s, splits);
    return dispatch(type, [&](auto tag) {
        using T = decltype(tag);
        auto* partial = static_cast<float*>(workspace);
        const dim3 grid(static_cast<unsigned>(s.kvHeads), static_cast<unsigned>(s.batch),
                        static_cast<unsigned>(splits));
        decode_attention_split_kernel<T><<<grid, kSplitThreads, splitSharedBytes(s), stream>>>(
            static_cast<const T*>(qkv), static_cast<T*>(kCache), static_cast<T*>(vCache), partial, s.heads, s.kvHeads,
            s.headDim, s.contextLen, splits, chunk);
        const dim3 combine(static_cast<unsigned>(s.heads), static_cast<unsigned>(s.batch));
        decode_attention_combine_kernel<T>
            <<<combine, s.headDim, 0, stream>>>(partial, static_cast<T*>(out), s.heads, s.headDim, splits);
    });
}

cudaError_t decodeAttentionReference(const void* qkv, void* kCache, void* vCache, void* out, const AttentionShape& s,
                                     ElementType type, cudaStream_t stream) {
    if (s.headDim > kAttentionThreads || s.heads % s.kvHeads != 0) return cudaErrorInvalidValue;
    return dispatch(type, [&](auto tag) {
        using T = decltype(tag);
        const dim3 grid(static_cast<unsigned>(s.heads), static_cast<unsigned>(s.batch));
        decode_attention_kernel<T><<<grid, kAttentionThreads, attentionSharedBytes(s), stream>>>(
            static_cast<const T*>(qkv), static_cast<T*>(kCache), static_cast<T*>(vCache), static_cast<T*>(out), s.heads,
            s.kvHeads, s.headDim, s.contextLen);
    });
}

}  // namespace tpscope::gpu::kernels
