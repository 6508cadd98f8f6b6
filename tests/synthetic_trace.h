// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// A deterministic, simulator-shaped decode trace for io tests, benchmarks and fuzz seeds: per rank a
// compute stream, an NCCL stream and a copy stream; per step and layer the Megatron TP op sequence
// (QKV GEMM, attention, O-proj GEMM, all-reduce, norm, gate/up GEMM, SiLU, down GEMM, all-reduce)
// with GEMM and collective payloads, an HtoD copy per step, and NVTX ranges step > layer > block.
// Ranks 4.. sit on a second host with a clock offset. Every field of the event model is exercised.

#include <cstdint>
#include <memory>
#include <string>

#include "core/trace/trace.h"

namespace tpscope::test {

struct SyntheticShape {
    int ranks = 2;
    int steps = 2;
    int layers = 4;
    std::uint64_t seed = 7;
};

inline std::shared_ptr<core::Trace> makeSyntheticTrace(const SyntheticShape& shape) {
    using namespace tpscope::core;
    auto trace = std::make_shared<Trace>();
    trace->origin = TraceOrigin::Simulated;
    trace->source = "synthetic " + std::to_string(shape.ranks) + "x h100 nvlink4";
    trace->metadata = {
        {"model", "llama3-70b"}, {"tp", std::to_string(shape.ranks)}, {"note", "quotes \" and , commas"}};
    std::uint64_t state = shape.seed * 0x9E3779B97F4A7C15ULL + 1;
    auto jitter = [&](std::int64_t range) {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        return static_cast<std::int64_t>(state % static_cast<std::uint64_t>(range));
    };
    const NameId qkv = trace->intern("sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_qkv");
    const NameId attn = trace->intern("flash_fwd_splitkv_kernel<Flash_fwd_kernel_traits<128, 64, 128>>");
    const NameId oproj = trace->intern("nvjet_hsh_128x64_64x4_1x2_h_bz_NNT");
    const NameId ar = trace->intern("ncclDevKernel_AllReduce_Sum_bf16_RING_LL");
    const NameId norm = trace->intern("rms_norm_kernel<c10::BFloat16>");
    const NameId silu = trace->intern("act_and_mul_kernel<silu>");
    const NameId copy = trace->intern("Memcpy HtoD (Pinned -> Device)");
    const NameId tp = trace->intern("tp_group \"0\"");
    const PayloadId arPayload =
        trace->intern(Payload::of(CollectivePayload{CollectiveOp::AllReduce, CollectiveAlgo::Ring, CollectiveProto::LL,
                                                    Dtype::Bf16, static_cast<std::uint32_t>(shape.ranks), tp, 16384}));
    const PayloadId qkvPayload =
        trace->intern(Payload::of(GemmPayload{1, 10240 / static_cast<std::uint32_t>(shape.ranks), 8192, Dtype::Bf16}));
    const PayloadId mlpPayload =
        trace->intern(Payload::of(GemmPayload{1, 57344 / static_cast<std::uint32_t>(shape.ranks), 8192, Dtype::Bf16}));
    const PayloadId copyPayload = trace->intern(Payload::of(CopyPayload{CopyKind::HostToDevice, 4096}));
    for (int r = 0; r < shape.ranks; ++r) {
        Rank& rank = trace->rank(RankId{static_cast<std::uint32_t>(r)});
        rank.host = r < 4 ? "node0" : "node1";
        rank.deviceIndex = r % 4;
        rank.deviceName = "NVIDIA H100 80GB HBM3";
        rank.clockOffsetNs = r < 4 ? 0 : -1234567;
        rank.stream(StreamId{7}, "compute");
        rank.stream(StreamId{20}, "nccl");
        rank.stream(StreamId{0xFFFFFFFF00000001ULL}, "copy");
        Stream& compute = rank.streams[0];  // references taken after the vector stops growing
        Stream& comm = rank.streams[1];
        Stream& copies = rank.streams[2];
        std::int64_t t = 1'700'000'000'000'000'000LL + r * 1500;
        std::uint32_t correlation = 100 + static_cast<std::uint32_t>(r);
        auto add = [&](Stream& s, NameId name, EventKind kind, std::int64_t durNs, PayloadId payload) {
            s.events.append(EventRecord{t, durNs, name, kind, correlation, payload});
            correlation += 3;
            t += durNs + 500 + jitter(700);
        };
        for (int step = 0; step < shape.steps; ++step) {
            const std::int64_t stepStart = t;
            add(copies, copy, EventKind::Memcpy, 2000, copyPayload);
            for (int layer = 0; layer < shape.layers; ++layer) {
                const std::int64_t layerStart = t;
                add(compute, norm, EventKind::Elementwise, 3000 + jitter(500), kNoPayload);
                add(compute, qkv, EventKind::Gemm, 21000 + jitter(2000), qkvPayload);
                add(compute, attn, EventKind::Attention, 15000 + jitter(3000), kNoPayload);
                add(compute, oproj, EventKind::Gemm, 9000 + jitter(1000), qkvPayload);
                const std::int64_t attnEnd = t;
                add(comm, ar, EventKind::Collective, 12000 + jitter(20000), arPayload);
                add(compute, norm, EventKind::Elementwise, 3000 + jitter(500), kNoPayload);
                add(compute, qkv, EventKind::Gemm, 60000 + jitter(4000), mlpPayload);
                add(compute, silu, EventKind::Elementwise, 4000 + jitter(500), kNoPayload);
                add(compute, oproj, EventKind::Gemm, 30000 + jitter(3000), mlpPayload);
                add(comm, ar, EventKind::Collective, 12000 + jitter(20000), arPayload);
                rank.ranges.push_back({layerStart, attnEnd, trace->intern("attention"), 2});
                rank.ranges.push_back({attnEnd, t, trace->intern("mlp"), 2});
                rank.ranges.push_back({layerStart, t, trace->intern("layer " + std::to_string(layer)), 1});
            }
            rank.ranges.push_back({stepStart, t, trace->intern("step " + std::to_string(step)), 0});
            t += 20000;
        }
    }
    trace->finalize();
    return trace;
}

}  // namespace tpscope::test
