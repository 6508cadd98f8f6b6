// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// The decode kernels against a CPU reference on small shapes (needs a CUDA device).

#include <cuda_fp16.h>

#include <cmath>
#include <vector>

#include "core/workload/model.h"
#include "gpu/decode_kernels.h"
#include "gpu_test_support.h"

namespace tpscope::gpu {
namespace {

using kernels::ElementType;

struct DeviceHalf {
    explicit DeviceHalf(const std::vector<float>& host) : n(host.size()) {
        std::vector<__half> h(n);
        for (std::size_t i = 0; i < n; ++i) h[i] = __float2half(host[i]);
        EXPECT_EQ(cudaMalloc(&ptr, n * sizeof(__half)), cudaSuccess);
        EXPECT_EQ(cudaMemcpy(ptr, h.data(), n * sizeof(__half), cudaMemcpyHostToDevice), cudaSuccess);
    }
    ~DeviceHalf() { cudaFree(ptr); }
    std::vector<float> read() const {
        std::vector<__half> h(n);
        EXPECT_EQ(cudaMemcpy(h.data(), ptr, n * sizeof(__half), cudaMemcpyDeviceToHost), cudaSuccess);
        std::vector<float> out(n);
        for (std::size_t i = 0; i < n; ++i) out[i] = __half2float(h[i]);
        return out;
    }
    void* ptr = nullptr;
    std::size_t n;
};

std::vector<float> ramp(std::size_t n, float scale) {
    std::vector<float> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = scale * std::sin(0.37f * static_cast<float>(i) + 0.1f);
    return v;
}

TEST(DecodeKernels, AddRmsNormMatchesTheFormula) {
    TPSCOPE_REQUIRE_CUDA_DEVICE(1);
    const int batch = 3, hidden = 300;
    const auto x = ramp(batch * hidden, 1.0f), res = ramp(batch * hidden, 0.5f), w = ramp(hidden, 2.0f);
    DeviceHalf dx(x), dres(res), dw(w), dout(std::vector<float>(x.size()));
    ASSERT_EQ(kernels::addRmsNorm(dx.ptr, dres.ptr, dw.ptr, dout.ptr, batch, hidden, 1e-5f, ElementType::Fp16, nullptr),
              cudaSuccess);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    const auto out = dout.read(), newRes = dres.read();
    for (int b = 0; b < batch; ++b) {
        double sumSq = 0;
        for (int i = 0; i < hidden; ++i) {
            const double r = x[b * hidden + i] + res[b * hidden + i];
            sumSq += r * r;
        }
        const double scale = 1.0 / std::sqrt(sumSq / hidden + 1e-5);
        for (int i = 0; i < hidden; ++i) {
            const double r = x[b * hidden + i] + res[b * hidden + i];
            EXPECT_NEAR(newRes[b * hidden + i], r, 2e-3 * (1 + std::fabs(r)));
            EXPECT_NEAR(out[b * hidden + i], r * scale * w[i], 1e-2 * (1 + std::fabs(r * scale * w[i])));
        }
    }
}

TEST(DecodeKernels, SiluMulMultipliesSiluOfGateByUp) {
    TPSCOPE_REQUIRE_CUDA_DEVICE(1);
    const int batch = 2, ffn = 100;
    const auto gu = ramp(batch * 2 * ffn, 3.0f);
    DeviceHalf dgu(gu), dout(std::vector<float>(batch * ffn));
    ASSERT_EQ(kernels::siluMul(dgu.ptr, dout.ptr, batch, ffn, ElementType::Fp16, nullptr), cudaSuccess);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    const auto out = dout.read();
    for (int b = 0; b < batch; ++b) {
        for (int j = 0; j < ffn; ++j) {
            const double g = gu[b * 2 * ffn + j], u = gu[b * 2 * ffn + ffn + j];
            const double expected = g / (1 + std::exp(-g)) * u;
            EXPECT_NEAR(out[b * ffn + j], expected, 1e-2 * (1 + std::fabs(expected)));
        }
    }
}

// Both attention paths against a CPU reference: the split-KV path (several splits at the longer
// contexts) and the reference kernel. The split-KV kernels were written without a GPU: this test is
// their first check.
void checkAttention(const kernels::AttentionShape& s, bool splitKv) {
    const int d = s.headDim, rowLen = (s.heads + 2 * s.kvHeads) * d;
    const auto qkv = ramp(static_cast<std::size_t>(s.batch) * rowLen, 1.0f);
    const std::size_t cacheLen = static_cast<std::size_t>(s.batch) * s.kvHeads * s.contextLen * d;
    const auto k = ramp(cacheLen, 0.8f), v = ramp(cacheLen, 1.2f);
    DeviceHalf dqkv(qkv), dk(k), dv(v), dout(std::vector<float>(static_cast<std::size_t>(s.batch) * s.heads * d));
    void* workspace = nullptr;
    const std::size_t workspaceBytes = kernels::decodeAttentionWorkspaceBytes(s);
    if (splitKv) {
        ASSERT_TRUE(kernels::splitKvSupported(s));
        ASSERT_GT(workspaceBytes, 0u);
        ASSERT_EQ(cudaMalloc(&workspace, workspaceBytes), cudaSuccess);
        ASSERT_EQ(
            kernels::decodeAttention(dqkv.ptr, dk.ptr, dv.ptr, dout.ptr, workspace, s, ElementType::Fp16, nullptr),
            cudaSuccess);
    } else {
        ASSERT_EQ(kernels::prepareDecodeAttention(s, ElementType::Fp16), cudaSuccess);
        ASSERT_EQ(kernels::decodeAttentionReference(dqkv.ptr, dk.ptr, dv.ptr, dout.ptr, s, ElementType::Fp16, nullptr),
                  cudaSuccess);
    }
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    cudaFree(workspace);
    const auto out = dout.read(), kAfter = dk.read();
    const int group = s.heads / s.kvHeads;
    for (int b = 0; b < s.batch; ++b) {
        for (int h = 0; h < s.heads; ++h) {
            const int kvh = h / group;
            const std::size_t base = (static_cast<std::size_t>(b) * s.kvHeads + kvh) * s.contextLen * d;
            const float* q = &qkv[static_cast<std::size_t>(b) * rowLen + h * d];
            const float* kNew = &qkv[static_cast<std::size_t>(b) * rowLen + (s.heads + kvh) * d];
            const float* vNew = kNew + s.kvHeads * d;
            std::vector<double> p(s.contextLen);
            double m = -1e300, sum = 0;
            for (int t = 0; t < s.contextLen; ++t) {
                const float* kr = t == s.contextLen - 1 ? kNew : &k[base + static_cast<std::size_t>(t) * d];
                double dot = 0;
                for (int i = 0; i < d; ++i) dot += q[i] * kr[i];
                p[t] = dot / std::sqrt(static_cast<double>(d));
                m = std::max(m, p[t]);
            }
            for (double& x : p) sum += (x = std::exp(x - m));
            for (int i = 0; i < d; ++i) {
                double o = 0;
                for (int t = 0; t < s.contextLen; ++t) {
                    const float* vr = t == s.contextLen - 1 ? vNew : &v[base + static_cast<std::size_t>(t) * d];
                    o += p[t] / sum * vr[i];
                }
                ASSERT_NEAR(out[(static_cast<std::size_t>(b) * s.heads + h) * d + i], o, 2e-2)
                    << (splitKv ? "split-KV " : "reference ") << b << " " << h << " " << i;
            }
            // The new token's key was appended to the last cache slot.
            EXPECT_NEAR(kAfter[base + static_cast<std::size_t>(s.contextLen - 1) * d + 5], kNew[5], 2e-3);
        }
    }
}

TEST(DecodeKernels, DecodeAttentionIsSoftmaxWeightedValuesWithTheNewTokenLast) {
    TPSCOPE_REQUIRE_CUDA_DEVICE(1);
    checkAttention({2, 4, 2, 64, 37}, false);
    checkAttention({2, 4, 2, 64, 37}, true);
    checkAttention({1, 8, 2, 128, 1000}, true);  // llama3-8b's group of 4 at TP 4: several splits
    checkAttention({3, 8, 1, 128, 257}, true);   // a group of 8, a context that does not divide
    checkAttention({1, 2, 2, 256, 130}, true);   // d = 256: one row per warp
    EXPECT_GT(kernels::decodeAttentionSplits({1, 8, 2, 128, 1000}), 1);
}

// listDevices against the CUDA runtime asked directly: the same count, every device described; or,
// where the runtime has none, the one "no CUDA device" error.
TEST(DeviceQuery, AgreesWithTheCudaRuntime) {
    int count = 0;
    const cudaError_t err = cudaGetDeviceCount(&count);
    auto devices = listDevices();
    if (err != cudaSuccess || count == 0) {
        ASSERT_FALSE(devices.ok()) << "the runtime reports no device, listDevices found " << devices->size();
        EXPECT_EQ(devices.error().message.rfind("no CUDA device", 0), 0u) << devices.error().message;
        return;
    }
    ASSERT_TRUE(devices.ok()) << devices.error().describe();
    ASSERT_EQ(static_cast<int>(devices->size()), count);
    for (int i = 0; i < count; ++i) {
        const DeviceInfo& d = (*devices)[static_cast<std::size_t>(i)];
        cudaDeviceProp prop{};
        ASSERT_EQ(cudaGetDeviceProperties(&prop, i), cudaSuccess);
        EXPECT_EQ(d.index, i);
        EXPECT_EQ(d.name, prop.name);
        EXPECT_FALSE(d.name.empty());
        EXPECT_EQ(d.memoryBytes, prop.totalGlobalMem);
        EXPECT_GT(d.memoryBytes, 0u);
        EXPECT_GT(d.smCount, 0);
        EXPECT_EQ(d.computeMajor, prop.major);
    }
}

}  // namespace
}  // namespace tpscope::gpu
