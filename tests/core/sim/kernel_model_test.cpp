// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include <gtest/gtest.h>

#include "core/analysis/exposed_comm.h"
#include "core/sim/kernel_model.h"
#include "core/trace/kernel_classifier.h"
#include "sim_test_support.h"

namespace tpscope::test {
namespace {

using core::EventKind;

TEST(KernelModel, DecodeGemmIsMemoryBoundAndCostsBytesOverEffectiveBandwidthPlusOverhead) {
    auto plan = core::buildDecodePlan({*catalog().model("llama3-70b"), 8, 1, 1024, core::Dtype::Fp16});
    ASSERT_TRUE(plan);
    const auto gpu = *catalog().gpu("h100-sxm");
    core::sim::SimParams p;
    p.fittedOpTimes = false;  // the roofline alone (op_time_fit_test.cpp covers the fit)
    for (const auto& op : plan->ops) {
        if (op.kind != core::OpKind::GateUpGemm) continue;
        const auto c = core::sim::kernelCost(op, gpu, core::Dtype::Fp16, p);
        EXPECT_TRUE(c.memoryBound());
        const auto bytes = static_cast<double>(op.bytesRead + op.bytesWritten);
        EXPECT_DOUBLE_EQ(c.memoryNs, bytes / (gpu.hbmBytesPerSec * p.gemm.memory) * 1e9);
        EXPECT_DOUBLE_EQ(c.computeNs, op.flops / (gpu.fp16Flops * p.gemm.compute) * 1e9);
        EXPECT_DOUBLE_EQ(c.timeNs(), c.memoryNs + p.kernelOverheadNs);
        return;
    }
    FAIL() << "no gate/up GEMM in the plan";
}

TEST(KernelModel, LargeBatchGemmTurnsComputeBound) {
    auto plan = core::buildDecodePlan({*catalog().model("llama3-8b"), 1, 4096, 16, core::Dtype::Fp16});
    ASSERT_TRUE(plan);
    for (const auto& op : plan->ops) {
        if (op.kind != core::OpKind::GateUpGemm) continue;
        const auto gpu = *catalog().gpu("h100-sxm");  // a copy: gpu() returns by value
        core::sim::SimParams p;
        p.fittedOpTimes = false;  // the roofline alone
        const auto c = core::sim::kernelCost(op, gpu, core::Dtype::Fp16, p);
        // Roofline by hand: 2*m*n*k flops over the achieved FLOP rate vs bytes over the achieved HBM rate.
        const double computeNs = op.flops / (gpu.fp16Flops * p.gemm.compute) * 1e9;
        const double memoryNs =
            static_cast<double>(op.bytesRead + op.bytesWritten) / (gpu.hbmBytesPerSec * p.gemm.memory) * 1e9;
        EXPECT_GT(computeNs, memoryNs);
        EXPECT_FALSE(c.memoryBound());
        EXPECT_DOUBLE_EQ(c.timeNs(), computeNs + p.kernelOverheadNs);
        return;
    }
    FAIL() << "no gate/up GEMM in the plan";
}

TEST(KernelModel, ArchitectureComesFromThePreset) {
    EXPECT_EQ(core::sim::gpuArch(*catalog().gpu("h100-sxm")), core::sim::GpuArch::Hopper);
    EXPECT_EQ(core::sim::gpuArch(*catalog().gpu("h200-sxm")), core::sim::GpuArch::Hopper);
    EXPECT_EQ(core::sim::gpuArch(*catalog().gpu("a100-sxm")), core::sim::GpuArch::Ampere);
    EXPECT_EQ(core::sim::gpuArch(*catalog().gpu("b200")), core::sim::GpuArch::Blackwell);
    EXPECT_EQ(core::sim::gpuArch(*catalog().gpu("l40s")), core::sim::GpuArch::Ada);
}

TEST(KernelModel, NcclNamesDecodeBackToTheChosenAlgorithmProtocolAndDtype) {
    using core::CollectiveAlgo;
    using core::CollectiveProto;
    for (const auto algo : {CollectiveAlgo::Ring, CollectiveAlgo::Tree, CollectiveAlgo::Nvls}) {
        for (const auto proto : {CollectiveProto::LL, CollectiveProto::LL128, CollectiveProto::Simple}) {
            for (const auto dtype : {core::Dtype::Fp16, core::Dtype::Bf16, core::Dtype::Fp32}) {
                const auto name = core::sim::collectiveKernelName(core::CollectiveOp::AllReduce, algo, proto, dtype);
                const auto cls = core::KernelClassifier::builtin().classify(name);
                EXPECT_EQ(cls.kind, EventKind::Collective) << name;
                EXPECT_EQ(cls.collective.op, core::CollectiveOp::AllReduce) << name;
                EXPECT_EQ(cls.collective.algo, algo) << name;
                EXPECT_EQ(cls.collective.proto, proto) << name;
                EXPECT_EQ(cls.collective.dtype, dtype) << name;
            }
        }
    }
    const auto oneShot = core::sim::collectiveKernelName(core::CollectiveOp::AllReduce, CollectiveAlgo::OneShot,
                                                         CollectiveProto::Unknown, core::Dtype::Fp16);
    const auto cls = core::KernelClassifier::builtin().classify(oneShot);
    EXPECT_EQ(cls.kind, EventKind::Collective) << oneShot;
    EXPECT_EQ(cls.collective.algo, CollectiveAlgo::OneShot) << oneShot;
}

core::EventRecord event(std::int64_t start, std::int64_t dur, EventKind kind) {
    return core::EventRecord{start, dur, core::NameId{}, kind, 0, core::kNoPayload};
}

TEST(SimSummary, ExposedCommIsCollectiveTimeWithoutAnyComputeKernel) {
    core::Rank rank;
    auto& compute = rank.stream(core::StreamId{7}, "compute").events;
    compute.append(event(0, 100, EventKind::Gemm));
    compute.append(event(150, 100, EventKind::Elementwise));
    compute.finalize();
    auto& nccl = rank.stream(core::StreamId{13}, "nccl").events;
    nccl.append(event(50, 150, EventKind::Collective));  // [50, 200): 100..150 uncovered
    nccl.append(event(180, 40, EventKind::Collective));  // [180, 220): overlaps the first, all covered
    nccl.append(event(300, 10, EventKind::Collective));  // alone
    nccl.finalize();
    const auto s = core::analysis::summarizeComm(rank);
    EXPECT_DOUBLE_EQ(s.commNs, (220 - 50) + 10);
    EXPECT_DOUBLE_EQ(s.exposedNs, 50 + 10);
}

}  // namespace
}  // namespace tpscope::test
