// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// tpscope-cli simulate --kernel-fit FILE: the kernel efficiencies that `calibrate --from-trace T
// --kernels --json` fits, loaded back into the simulator.

#include <gtest/gtest.h>
#include <simdjson.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "cli_docs_support.h"
#include "core/hw/catalog.h"
#include "core/sim/kernel_model.h"
#include "core/util/units.h"
#include "test_support.h"

namespace tpscope::test {
namespace {

// One folder per test: ctest runs the tests of this file in parallel.
std::filesystem::path freshFolder(const std::string& test) {
    const auto dir = std::filesystem::temp_directory_path() / ("tpscope_kernel_fit_cli_" + test);
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
}

double stepLatencyNs(const std::string& json) {
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    if (parser.parse(json).get(root) != simdjson::SUCCESS) return -1;
    return double(root["runs"].at(0)["step_latency_ns"]);
}

// The GEMM efficiencies halved, everything else as the simulator's defaults.
std::string halvedGemmFit(const std::string& gpu) {
    core::sim::SimParams p;
    p.setRuntime(core::sim::Runtime::CudaGraphs);
    return R"({"model": "llama3-8b", "gpu": ")" + gpu + R"(", "launch_gap_ns": )" +
           core::formatShortest(p.host().deviceGapNs) + R"(, "classes": [{"kind": "gemm", "compute_efficiency": )" +
           core::formatShortest(p.gemm.compute / 2) + R"(, "memory_efficiency": )" +
           core::formatShortest(p.gemm.memory / 2) + "}]}";
}

TEST(CliKernelFit, HalvedGemmEfficienciesLengthenTheStepByTheGemmsRooflineTime) {
    const auto dir = freshFolder("formula");
    const auto fit = dir / "fit.json";
    std::ofstream(fit) << halvedGemmFit("h100-sxm");
    // Graph replay: no host time per launch, so the step is the kernels' and gaps' sum.
    const std::string run =
        "simulate --model llama3-8b --gpu h100-sxm --tp 1 --tokens 1 --deterministic --runtime cuda-graphs --json";
    const auto base = runCli(run);
    const auto fitted = runCli(run + " --kernel-fit " + fit.string());
    ASSERT_EQ(base.exitCode, 0) << base.out;
    ASSERT_EQ(fitted.exitCode, 0) << fitted.out;
    EXPECT_NE(fitted.out.find("\"kernel_fit\": \"" + fit.string() + "\""), std::string::npos) << fitted.out;

    // One rank, one stream: the step is the sum of its kernels and gaps. The fit's efficiencies replace
    // the built-in per-op fit (SimParams::fittedOpTimes off): each GEMM takes its roofline time at half
    // the efficiencies, each other fitted op (norms, SiLU*mul) its roofline time, in place of its fitted time.
    const auto catalog = core::Catalog::builtin();
    ASSERT_TRUE(catalog);
    core::PlanConfig config;
    config.model = *catalog->model("llama3-8b");
    const auto plan = core::buildDecodePlan(config);
    ASSERT_TRUE(plan);
    const auto gpu = *catalog->gpu("h100-sxm");
    const auto params = core::sim::SimParams::deterministic();
    auto halved = params;
    halved.fittedOpTimes = false;
    halved.gemm.compute /= 2;
    halved.gemm.memory /= 2;
    double expectedNs = 0;
    int changed = 0;
    for (const auto& op : plan->ops) {
        if (op.isCollective()) continue;
        const double before = core::sim::kernelCost(op, gpu, config.dtype, params).timeNs();
        const double after = core::sim::kernelCost(op, gpu, config.dtype, halved).timeNs();
        if (before == after) continue;
        expectedNs += after - before;
        ++changed;
    }
    ASSERT_GT(changed, 0);
    const double added = stepLatencyNs(fitted.out) - stepLatencyNs(base.out);
    EXPECT_GT(added, 0) << "lower efficiencies make the GEMMs, and the step, slower";
    EXPECT_NEAR(added, expectedNs, 1.0 * changed) << "each kernel's time is rounded to 1 ns";
    std::filesystem::remove_all(dir);
}

TEST(CliKernelFit, CalibratesOutputLoadsAndAMismatchedOrBadFileIsOneError) {
    const auto dir = freshFolder("errors");
    const auto trace = (dir / "measured.json").string();
    const auto fit = (dir / "fit.json").string();
    // An eager run (not the cuda-graphs default): its launch gap per kernel is what the fit must find.
    ASSERT_EQ(runCli("simulate --model llama3-8b --tp 2 --tokens 2 --runtime pytorch-eager --out " + trace).exitCode,
              0);
    // Only stdout into the file: the fit is what `calibrate --kernels --json` prints.
    const auto cal = runCommand("(" + std::string(TPSCOPE_CLI_PATH) + " calibrate --from-trace " + trace +
                                " --kernels --json > " + fit + ")");
    ASSERT_EQ(cal.exitCode, 0) << cal.out;
    const auto ok = runCli("simulate --model llama3-8b --tp 1,2,4 --tokens 2 --kernel-fit " + fit);
    EXPECT_EQ(ok.exitCode, 0) << ok.out;
    EXPECT_NE(ok.out.find("kernel fit " + fit), std::string::npos) << ok.out;
    // The fit reproduces the measured run's step (an eager, launch-bound run: the host time per
    // launch is part of the fit) within 10 %.
    simdjson::dom::parser parser;
    simdjson::dom::element fitted;
    ASSERT_EQ(parser.load(fit).get(fitted), simdjson::SUCCESS);
    const double measured = double(fitted["measured_step_ns"]);
    EXPECT_GT(double(fitted["host_per_launch_ns"]), 0.0);
    const auto again = runSplit(std::string(TPSCOPE_CLI_PATH) +
                                    " simulate --model llama3-8b --tp 2 --tokens 2 --json --runtime pytorch-eager "
                                    "--kernel-fit " +
                                    fit,
                                dir);
    ASSERT_EQ(again.exitCode, 0) << again.err;
    EXPECT_NEAR(stepLatencyNs(again.out) / measured, 1.0, 0.10);

    const auto otherGpu =
        runCli("simulate --model llama3-8b --gpu a100-sxm --fabric nvlink3 --tp 2 --tokens 1 --kernel-fit " + fit);
    EXPECT_EQ(otherGpu.exitCode, 2) << otherGpu.out;
    EXPECT_NE(otherGpu.out.find("fitted on h100-sxm, not on a100-sxm"), std::string::npos) << otherGpu.out;
    EXPECT_EQ(std::count(otherGpu.out.begin(), otherGpu.out.end(), '\n'), 1) << otherGpu.out;

    const auto otherModel = runCli("simulate --model llama3-70b --tp 8 --tokens 1 --kernel-fit " + fit);
    EXPECT_EQ(otherModel.exitCode, 0) << otherModel.out;
    EXPECT_NE(otherModel.out.find("warning: the kernel efficiencies of " + fit + " were fitted on llama3-8b"),
              std::string::npos)
        << otherModel.out;

    const auto notAFit = runCli("simulate --model llama3-8b --tp 2 --tokens 1 --kernel-fit " + trace);
    EXPECT_EQ(notAFit.exitCode, 1) << notAFit.out;
    EXPECT_NE(notAFit.out.find("not a kernel fit"), std::string::npos) << notAFit.out;
    const auto missing =
        runCli("simulate --model llama3-8b --tp 2 --tokens 1 --kernel-fit " + dir.string() + "/no.json");
    EXPECT_EQ(missing.exitCode, 1) << missing.out;
    EXPECT_NE(missing.out.find("no.json"), std::string::npos) << missing.out;
    std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace tpscope::test
