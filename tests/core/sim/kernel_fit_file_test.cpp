// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// A kernel fit (the JSON of `calibrate --from-trace T --kernels --json`) read back into the
// simulator: what it changes, by how much, and the errors of a bad or mismatched file.

#include "core/sim/kernel_fit_file.h"

#include <filesystem>
#include <fstream>
#include <vector>

#include "core/util/units.h"
#include "sim_test_support.h"

namespace tpscope::test {
namespace {

using core::EventKind;
using core::sim::KernelFit;

std::string fitJson(const std::string& gpu, double gemmCompute, double gemmMemory, double launchGapNs) {
    // Shaped as calibrate --kernels --json writes it, including the fields the reader ignores.
    return R"({"trace": "t.json", "model": "llama3-8b", "gpu": ")" + gpu +
           R"(", "tp": 2, "batch": 1, "measured_step_ns": 1, "predicted_step_ns": 1, "launch_gap_ns": )" +
           core::formatShortest(launchGapNs) + R"(, "classes": [{"kind": "gemm", "measured_ns_per_step": 1,
           "model_ns_per_step": 1, "scale": 0.5, "compute_efficiency": )" +
           core::formatShortest(gemmCompute) + R"(, "memory_efficiency": )" + core::formatShortest(gemmMemory) +
           R"(}], "predictions": [], "notes": []})";
}

// Durations of one kind of kernel on rank 0, in trace order.
std::vector<std::int64_t> durations(const core::Trace& t, EventKind kind) {
    std::vector<std::int64_t> out;
    for (const auto& s : t.ranks.front().streams) {
        for (std::size_t i = 0; i < s.events.size(); ++i) {
            if (s.events.kind(i) == kind) out.push_back(s.events.durNs(i));
        }
    }
    return out;
}

TEST(KernelFitFile, HalvedGemmEfficienciesDoubleEachGemmsRooflineTimeAndLeaveTheRestAlone) {
    auto c = simConfig("llama3-8b", "h100-sxm", "nvlink4", 2, 1);
    c.plan.model = smallModel();
    c.params = core::sim::SimParams::deterministic();
    // The efficiencies scale the roofline; a fit file turns the built-in per-op times off, so the
    // comparison starts from the roofline too.
    c.params.fittedOpTimes = false;
    // Graph replay: no host time per launch, so the step follows the kernels the fit slows down.
    c.params.setRuntime(core::sim::Runtime::CudaGraphs);
    const core::sim::SimParams base = c.params;
    // Half of each starting efficiency: a kernel's time is max(F / (peak e_c), B / (bw e_m)) +
    // overhead, so with both halved its roofline part (time - overhead) doubles exactly.
    auto fit = core::sim::parseKernelFit(
        fitJson("h100-sxm", base.gemm.compute / 2, base.gemm.memory / 2, base.host().deviceGapNs), "fit.json");
    ASSERT_TRUE(fit) << fit.error().describe();
    auto fitted = c;
    ASSERT_TRUE(core::sim::applyKernelFit(*fit, "h100-sxm", fitted.params));
    EXPECT_DOUBLE_EQ(fitted.params.gemm.compute, base.gemm.compute / 2);
    EXPECT_DOUBLE_EQ(fitted.params.gemm.memory, base.gemm.memory / 2);
    EXPECT_DOUBLE_EQ(fitted.params.attention.memory, base.attention.memory) << "a class the file omits is kept";

    auto before = core::sim::simulate(c);
    auto after = core::sim::simulate(fitted);
    ASSERT_TRUE(before && after);
    const auto gemmBefore = durations(*before->trace, EventKind::Gemm);
    const auto gemmAfter = durations(*after->trace, EventKind::Gemm);
    ASSERT_EQ(gemmBefore.size(), gemmAfter.size());
    ASSERT_FALSE(gemmBefore.empty());
    const double overhead = base.kernelOverheadNs;
    for (std::size_t i = 0; i < gemmBefore.size(); ++i) {
        const double expected = overhead + 2.0 * (static_cast<double>(gemmBefore[i]) - overhead);
        EXPECT_GT(gemmAfter[i], gemmBefore[i]) << "GEMM " << i;
        // Start and end are each rounded to 1 ns, so a duration carries up to 1 ns of rounding.
        EXPECT_NEAR(static_cast<double>(gemmAfter[i]), expected, 3.0) << "GEMM " << i;
    }
    for (const EventKind kind : {EventKind::Attention, EventKind::Elementwise}) {
        const auto a = durations(*after->trace, kind);
        const auto b = durations(*before->trace, kind);
        ASSERT_EQ(a.size(), b.size());
        ASSERT_FALSE(a.empty());
        for (std::size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], b[i], 1) << core::toString(kind) << " " << i;
    }
    EXPECT_GT(after->stats.meanStepNs, before->stats.meanStepNs);
}

TEST(KernelFitFile, TheLaunchGapBecomesTheDeviceGapOfEitherRuntime) {
    auto fit = core::sim::parseKernelFit(fitJson("a100-sxm", 0.5, 0.5, 4321), "fit.json");
    ASSERT_TRUE(fit) << fit.error().describe();
    for (const auto runtime : core::sim::kRuntimes) {
        core::sim::SimParams p;
        p.setRuntime(runtime);
        ASSERT_TRUE(core::sim::applyKernelFit(*fit, "a100-sxm", p));
        EXPECT_DOUBLE_EQ(p.host().deviceGapNs, 4321) << core::sim::toString(runtime);
        // A fit written before the host timeline has no host time per launch: none is invented.
        EXPECT_DOUBLE_EQ(p.host().hostPerLaunchNs, 0) << core::sim::toString(runtime);
        EXPECT_EQ(p.host().graphs, runtime == core::sim::Runtime::CudaGraphs);
    }
}

TEST(KernelFitFile, AFitFromAnotherGpuIsRefusedNamingBoth) {
    auto fit = core::sim::parseKernelFit(fitJson("l40s", 0.5, 0.5, 1000), "fit.json");
    ASSERT_TRUE(fit);
    core::sim::SimParams p;
    const core::sim::SimParams untouched = p;
    const auto s = core::sim::applyKernelFit(*fit, "h100-sxm", p);
    ASSERT_FALSE(s);
    EXPECT_EQ(s.error().code, core::ErrorCode::InvalidArgument);
    EXPECT_NE(s.error().message.find("fitted on l40s, not on h100-sxm"), std::string::npos) << s.error().describe();
    EXPECT_DOUBLE_EQ(p.gemm.compute, untouched.gemm.compute) << "a refused fit changes nothing";
}

TEST(KernelFitFile, BadFilesGetOneErrorNamingTheProblem) {
    const std::vector<std::pair<std::string, std::string>> cases{
        {"{", "not valid JSON"},
        {R"({"models": []})", "not a kernel fit"},
        {R"([1, 2])", "not a kernel fit"},
        {R"({"gpu": "h100-sxm", "launch_gap_ns": 1, "classes": []})", "'classes' is empty"},
        {R"({"launch_gap_ns": 1, "classes": [{"kind": "gemm"}]})", "field 'gpu'"},
        {R"({"gpu": "h100-sxm", "classes": [{"kind": "gemm"}]})", "missing field 'launch_gap_ns'"},
        {R"({"gpu": "h100-sxm", "launch_gap_ns": -5, "classes": []})", "launch_gap_ns must lie in"},
        {R"({"gpu": "h100-sxm", "launch_gap_ns": 1, "classes": [{"kind": "gemm", "memory_efficiency": 0.5}]})",
         "missing field 'compute_efficiency'"},
        {R"({"gpu": "h100-sxm", "launch_gap_ns": 1, "classes": [{"kind": "gemm", "compute_efficiency": 0,
            "memory_efficiency": 0.5}]})",
         "compute_efficiency must be in (0, 1], got 0"},
        {R"({"gpu": "h100-sxm", "launch_gap_ns": 1, "classes": [{"kind": "gemm", "compute_efficiency": 0.5,
            "memory_efficiency": 1.5}]})",
         "memory_efficiency must be in (0, 1], got 1.5"},
        {R"({"gpu": "h100-sxm", "launch_gap_ns": 1, "classes": [{"kind": "collective", "compute_efficiency": 0.5,
            "memory_efficiency": 0.5}]})",
         "unknown kernel class 'collective'"},
        {R"({"gpu": "h100-sxm", "launch_gap_ns": 1, "classes": [
            {"kind": "gemm", "compute_efficiency": 0.5, "memory_efficiency": 0.5},
            {"kind": "gemm", "compute_efficiency": 0.4, "memory_efficiency": 0.4}]})",
         "kernel class 'gemm' twice"},
    };
    for (const auto& [text, words] : cases) {
        const auto fit = core::sim::parseKernelFit(text, "fit.json");
        ASSERT_FALSE(fit) << text;
        EXPECT_NE(fit.error().describe().find(words), std::string::npos) << text << "\n" << fit.error().describe();
        EXPECT_NE(fit.error().describe().find("fit.json"), std::string::npos) << fit.error().describe();
    }
}

TEST(KernelFitFile, AMissingOrHugeFileIsAnErrorBeforeParsing) {
    const auto dir = std::filesystem::temp_directory_path() / "tpscope-kernel-fit-test";
    std::filesystem::create_directories(dir);
    auto missing = core::sim::loadKernelFit((dir / "missing.json").string());
    ASSERT_FALSE(missing);
    EXPECT_EQ(missing.error().code, core::ErrorCode::IoError);
    auto folder = core::sim::loadKernelFit(dir.string());
    ASSERT_FALSE(folder);
    EXPECT_NE(folder.error().message.find("not a regular file"), std::string::npos);
    const auto huge = dir / "huge.json";
    std::ofstream(huge) << std::string((1u << 20) + 1, ' ');
    auto big = core::sim::loadKernelFit(huge.string());
    ASSERT_FALSE(big);
    EXPECT_NE(big.error().message.find("larger than 1 MiB"), std::string::npos) << big.error().describe();
    const auto good = dir / "fit.json";
    std::ofstream(good) << fitJson("h100-sxm", 0.5, 0.6, 900);
    auto loaded = core::sim::loadKernelFit(good.string());
    ASSERT_TRUE(loaded) << loaded.error().describe();
    EXPECT_EQ(loaded->gpuId, "h100-sxm");
    EXPECT_EQ(loaded->modelId, "llama3-8b");
    ASSERT_EQ(loaded->classes.size(), 1u);
    EXPECT_EQ(loaded->classes[0].kind, EventKind::Gemm);
    EXPECT_DOUBLE_EQ(loaded->classes[0].efficiency.memory, 0.6);
    std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace tpscope::test
