// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Tunables of the simulated cluster that are not hardware presets. Every default says where its
// value comes from; docs/simulator.md lists them with the same sources.

#include <cstdint>

#include "core/trace/event_kind.h"

namespace tpscope::core::sim {

// Who runs the all-reduces (core/sim/allreduce_engine.h has each engine's dispatch rule).
enum class AllReduceEngine : std::uint8_t { Nccl, VllmCustomAr, TrtLlm, SymmMem };

// Fraction of a GPU's peak FLOP/s and HBM bandwidth a kernel class reaches (roofline efficiency).
struct KernelEfficiency {
    double compute = 1.0;
    double memory = 1.0;
};

struct SimParams {
    // Decode GEMMs are thin (m = batch): they stream the weight matrix once. cuBLAS GEMV-like
    // kernels reach 80-90 % of HBM bandwidth on large weights (STREAM-copy class); 0.80 is the
    // conservative end. Compute efficiency 0.70: dense fp16 cuBLAS GEMMs at large m reach
    // 60-80 % of the datasheet tensor peak.
    KernelEfficiency gemm{0.70, 0.80};
    // Split-KV flash decoding reads the KV cache in tiles with a combine pass: ~0.6 of HBM bandwidth.
    KernelEfficiency attention{0.50, 0.60};
    // Norms and activations touch a few KiB to MiB: far from the bandwidth asymptote.
    KernelEfficiency elementwise{0.25, 0.50};
    KernelEfficiency other{0.25, 0.40};
    // Fixed time of any kernel, however small: the shortest kernels in the public TraceLens H100
    // trace (traces/public/tracelens-h100-qwen: 1-element rsqrt/add kernels) last 1.5-1.6 us.
    double kernelOverheadNs = 1500;
    // Gap between consecutive kernels of one stream: median 1.73 us (p10 0.96 us) between kernels on
    // the compute stream of the same TraceLens H100 trace (eager PyTorch, launch-bound decode).
    double launchGapNs = 1700;
    // CUDA-graph replay: the host no longer launches each kernel, so the gap between two kernels is
    // the GPU front end scheduling the next graph node, and the host's launch jitter disappears.
    // Serving engines (vLLM, SGLang, TRT-LLM) decode this way. 600 ns per node: a replayed chain of
    // no-op kernels costs ~0.58 us per node (ahrefs/ocannl#488, RTX 5070 Ti, CUDA 13), NVIDIA's
    // "Getting Started with CUDA Graphs" blog measures ~0.5 us per node over the kernel (3.4 us per
    // 2.9 us kernel, V100), and a graph-captured 1 KiB NCCL all-reduce repeats every ~0.5 us on H800
    // (NVIDIA/nccl#1984). No public Hopper trace of a decode graph gave the 1-2 us the issue quoted.
    bool cudaGraphs = false;
    double graphNodeGapNs = 600;
    AllReduceEngine allReduceEngine = AllReduceEngine::Nccl;
    // Host work between two decode steps (sampling, scheduler, detokenisation, input preparation),
    // during which the GPUs idle. Order of vLLM's per-step CPU overhead without async output
    // processing; an assumption, set it to 0 to see GPU time only.
    double stepGapNs = 20000;

    // Variability (all seeded): relative standard deviation of every kernel's duration, of each
    // rank's speed (drawn once per rank: clocks, thermal state, placement), and the mean of an
    // exponential extra delay added to each launch gap (host scheduling noise).
    double jitter = 0.03;
    double loadImbalance = 0.01;
    double launchJitterNs = 300;
    std::uint64_t seed = 1;

    // Async overlap: collectives on a second stream and the batch split in two halves that pipeline
    // (half B computes while half A's all-reduce runs). While a collective moves bytes it takes
    // HBM bandwidth: each byte on the wire is read from HBM, reduced against a local read and
    // written back (~3 HBM bytes per wire byte), so a memory-bound kernel that overlaps the
    // transfer runs slower by that share of the GPU's bandwidth.
    bool overlap = false;
    double ncclHbmBytesPerWireByte = 3.0;

    // The efficiencies of a kernel class; kinds without their own (collectives, copies) use `other`.
    const KernelEfficiency& efficiency(EventKind kind) const {
        switch (kind) {
            case EventKind::Gemm:
                return gemm;
            case EventKind::Attention:
                return attention;
            case EventKind::Elementwise:
                return elementwise;
            default:
                return other;
        }
    }
    KernelEfficiency& efficiency(EventKind kind) {
        return const_cast<KernelEfficiency&>(static_cast<const SimParams&>(*this).efficiency(kind));
    }

    // Every source of variability off: step time is then the plain sum of modelled times.
    static SimParams deterministic() {
        SimParams p;
        p.jitter = 0;
        p.loadImbalance = 0;
        p.launchJitterNs = 0;
        return p;
    }
};

}  // namespace tpscope::core::sim
