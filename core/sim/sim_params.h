// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Tunables of the simulated cluster that are not hardware presets. Every default says where its
// value comes from; docs/simulator.md lists them with the same sources.

#include <cstdint>
#include <optional>

#include "core/sim/defaults.h"
#include "core/sim/runtime_profile.h"
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
    // Dense GEMMs, norms and SiLU*mul take the per-op times fitted to measured kernels
    // (core/sim/op_time_fit.h; A100 and H100 measured, other GPUs derived) instead of the roofline
    // above. false: the roofline alone (the efficiencies above then matter for every op).
    bool fittedOpTimes = true;
    // The host that launches each rank's kernels: a runtime profile (resources/runtime_profiles.json,
    // each number with its source; core/sim/runtime_profile.h). `cudaGraphs` is the older switch and
    // the --cuda-graphs alias: when set it selects the cuda-graphs profile whatever `runtime` says.
    // The default is the one of core/sim/defaults.h (cuda-graphs), as for every command and the window.
    Runtime runtime = kDefaults.runtime;
    bool cudaGraphs = false;
    // A measured machine's host costs (calibrate --kernels, then simulate --kernel-fit) replace the
    // profile's numbers; stepHostNs (--step-gap-us) replaces only the host work between steps.
    std::optional<HostCosts> hostCosts;
    std::optional<double> stepHostNs;
    AllReduceEngine allReduceEngine = AllReduceEngine::Nccl;

    Runtime effectiveRuntime() const { return cudaGraphs ? Runtime::CudaGraphs : runtime; }
    void setRuntime(Runtime r) {
        runtime = r;
        cudaGraphs = r == Runtime::CudaGraphs;
    }
    HostCosts host() const {
        HostCosts c = hostCosts ? *hostCosts : builtinRuntimeProfile(effectiveRuntime()).costs;
        if (stepHostNs) c.stepHostNs = *stepHostNs;
        return c;
    }

    // Variability (all seeded): relative standard deviation of every kernel's duration, of each
    // rank's speed (drawn once per rank: clocks, thermal state, placement), and the mean of an
    // exponential extra delay added to each eager launch's host time (host scheduling noise).
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
