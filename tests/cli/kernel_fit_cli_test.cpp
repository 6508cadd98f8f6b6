// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// tpscope-cli simulate --kernel-fit FILE: the kernel efficiencies that `calibrate --from-trace T
// --kernels --json` fits, loaded back into the simulator.

#include <gtest/gtest.h>
#include <simdjson.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "cli_docs_support.h"
#include "core/hw/catalog.h"
#include "core/sim/kernel_model.h"
#include "core/sim/runtime_profile.h"
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

// The fit's stderr lines that are warnings.
std::vector<std::string> warningsIn(const std::string& err) {
    std::vector<std::string> out;
    for (const auto& line : linesOf(err)) {
        if (line.rfind("tpscope-cli: warning: ", 0) == 0) out.push_back(line);
    }
    return out;
}

std::string readText(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// calibrate --kernels fits the host under the runtime the trace ran with: its metadata's, else
// pytorch-eager, and then it says that it assumed one (issue 49 item 10).
TEST(CliKernelFit, TheRuntimeIsTheTracesElseEagerWithAWarning) {
    const auto dir = freshFolder("runtime");
    const auto graphs = (dir / "graphs.json").string();
    ASSERT_EQ(runCli("simulate --model llama3-8b --tp 1 --tokens 2 --runtime cuda-graphs --out " + graphs).exitCode, 0);
    const auto named =
        runSplit(std::string(TPSCOPE_CLI_PATH) + " calibrate --from-trace " + graphs + " --kernels --json", dir);
    ASSERT_EQ(named.exitCode, 0) << named.err;
    simdjson::dom::parser parser;
    simdjson::dom::element fit;
    ASSERT_EQ(parser.parse(named.out).get(fit), simdjson::SUCCESS) << named.out;
    EXPECT_EQ(std::string(std::string_view(fit["runtime"])), "cuda-graphs");
    EXPECT_TRUE(warningsIn(named.err).empty()) << "a trace that names its runtime and model: " << named.err;

    // The same trace with its runtime key renamed: nothing says how it was launched.
    std::string text = readText(graphs);
    const std::string key = R"(["runtime",)";
    const auto at = text.find(key);
    ASSERT_NE(at, std::string::npos) << "the simulated trace names its runtime";
    text.replace(at, key.size(), R"(["runtime_unknown",)");
    const auto unnamed = (dir / "unnamed.json").string();
    std::ofstream(unnamed, std::ios::binary) << text;
    const auto assumed =
        runSplit(std::string(TPSCOPE_CLI_PATH) + " calibrate --from-trace " + unnamed + " --kernels --json", dir);
    ASSERT_EQ(assumed.exitCode, 0) << assumed.err;
    ASSERT_EQ(parser.parse(assumed.out).get(fit), simdjson::SUCCESS) << assumed.out;
    const std::string eager(core::sim::toString(core::sim::Runtime::PytorchEager));
    EXPECT_EQ(std::string(std::string_view(fit["runtime"])), eager);
    const auto warnings = warningsIn(assumed.err);
    ASSERT_EQ(warnings.size(), 1u) << assumed.err;
    EXPECT_NE(warnings[0].find(unnamed + " does not name its runtime"), std::string::npos) << warnings[0];
    EXPECT_NE(warnings[0].find("assumes " + eager), std::string::npos) << warnings[0];
    std::filesystem::remove_all(dir);
}

// A fit to another model's trace, or whose GEMMs run at a small fraction of peak, is said.
TEST(CliKernelFit, AFitToAnotherModelOrAnImplausibleEfficiencyWarns) {
    const auto dir = freshFolder("implausible");
    const auto trace = (dir / "llama3-8b.json").string();
    ASSERT_EQ(runCli("simulate --model llama3-8b --tp 1 --tokens 2 --out " + trace).exitCode, 0);
    const std::string cal = std::string(TPSCOPE_CLI_PATH) + " calibrate --from-trace ";
    const auto own = runSplit(cal + trace + " --kernels --json", dir);
    ASSERT_EQ(own.exitCode, 0) << own.err;
    EXPECT_TRUE(warningsIn(own.err).empty()) << "the run's own model: no warning\n" << own.err;

    const auto other = runSplit(cal + trace + " --kernels --model llama3-70b", dir);
    ASSERT_EQ(other.exitCode, 0) << other.err;
    EXPECT_NE(other.err.find("warning: the trace says model 'llama3-8b', the fit assumed 'llama3-70b'"),
              std::string::npos)
        << other.err;

    // GEMMs `factor` times slower than the plan's at the starting efficiencies: the fitted efficiency is
    // the starting one / factor. Far below 0.05 at 100, a plausible one at 1.25.
    simdjson::dom::parser parser;
    simdjson::dom::element fit;
    ASSERT_EQ(parser.parse(own.out).get(fit), simdjson::SUCCESS) << own.out;
    double gemmModelNs = 0;
    for (auto c : fit["classes"].get_array()) {
        if (std::string_view(c["kind"]) == "gemm") gemmModelNs = double(c["model_ns_per_step"]);
    }
    ASSERT_GT(gemmModelNs, 0.0);
    for (const double factor : {100.0, 1.25}) {
        // Eight GEMM kernels, one step, no metadata (model and GPU given on the command line).
        const double durUs = factor * gemmModelNs / 8 / 1000;
        std::string events;
        for (int i = 0; i < 8; ++i) {
            events += std::string(i ? "," : "") + R"({"ph": "X", "cat": "kernel", "pid": 0, "tid": 7, "name": )" +
                      R"("sm90_xmma_gemm_f16f16_f16f32_f32_tn_n", "ts": )" + core::formatShortest(i * (durUs + 2)) +
                      R"(, "dur": )" + core::formatShortest(durUs) + "}";
        }
        const auto slow = (dir / "gemm.json").string();
        std::ofstream(slow) << R"({"traceEvents": [)" << events << "]}\n";
        const auto r = runSplit(cal + slow + " --kernels --model llama3-8b --gpu h100-sxm", dir);
        ASSERT_EQ(r.exitCode, 0) << r.err;
        const bool warned = r.err.find("warning: gemm efficiency") != std::string::npos;
        EXPECT_EQ(warned, factor > 10) << "GEMMs " << factor << "x the plan's time:\n" << r.err;
        if (warned) {
            EXPECT_NE(r.err.find("pass --model and --gpu of the run"), std::string::npos) << r.err;
        }
    }
    std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace tpscope::test
