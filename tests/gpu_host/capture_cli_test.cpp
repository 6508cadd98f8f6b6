// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// tpscope-cli capture/devices without a GPU: the single-process cpu-test capture, its trace
// file, and the "no CUDA device" messages.

#include <gtest/gtest.h>
#include <simdjson.h>
#include <unistd.h>

#include <filesystem>
#include <regex>
#include <string>

#include "core/io/import/trace_reader.h"
#include "core/io/workspace/workspace.h"
#include "core/workload/decode_plan.h"
#include "gpu/device_query.h"
#include "support/small_model.h"
#include "test_support.h"

namespace tpscope::test {
namespace {

TEST(CaptureCli, CpuTestWritesATraceWithOneEventPerPlanOpAndStep) {
    const std::string out =
        (std::filesystem::temp_directory_path() / ("cpu-test-" + std::to_string(::getpid()) + ".json")).string();
    const auto r = runCli("capture " + customModelFlags() + " --tokens 2 --cpu-test --out " + out);
    ASSERT_EQ(r.exitCode, 0) << r.out;
    EXPECT_NE(r.out.find("captured 1 rank(s) in 1 process(es), 2 steps"), std::string::npos) << r.out;

    auto plan = core::buildDecodePlan({customModel(), 1, 1, 1024, core::Dtype::Fp16});
    ASSERT_TRUE(plan.ok());
    // Read back through core/io as a user's `tpscope-cli analyze` would.
    const auto trace = core::readTrace(out);
    ASSERT_TRUE(trace.ok()) << trace.error().describe();
    std::size_t steps = 0, layers = 0;
    for (const auto& rank : (*trace)->ranks) {
        for (const auto& range : rank.ranges) {
            const std::string_view name = (*trace)->name(range.name);
            if (name.substr(0, 5) == "step ") ++steps;
            if (name.substr(0, 6) == "layer ") ++layers;
        }
    }
    EXPECT_EQ((*trace)->eventCount(), plan->ops.size() * 2);
    EXPECT_EQ(steps, 2u);
    EXPECT_EQ(layers, 2u * 4u);
    EXPECT_EQ((*trace)->metadataValue("capture.mode"), "cpu-test (synthetic events)");
    std::filesystem::remove(out);
}

// Nothing synthetic passes as measured: the cpu test's origin survives both output formats.
TEST(CaptureCli, CpuTestTraceIsSyntheticThroughWorkspaceAndChromeJson) {
    const std::string base =
        (std::filesystem::temp_directory_path() / ("cpu-test-origin-" + std::to_string(::getpid()))).string();
    for (const std::string ext : {".json", ".tpscope"}) {
        const std::string out = base + ext;
        const auto r = runCli(
            "capture --model custom --hidden 256 --ffn 512 --heads 8 --kv-heads 8 --layers 2"
            " --vocab 1000 --tokens 1 --cpu-test --json --out " +
            out);
        ASSERT_EQ(r.exitCode, 0) << r.out;
        EXPECT_TRUE(std::regex_search(r.out, std::regex(R"("origin":\s*"synthetic")"))) << r.out;
        const auto trace = ext == ".json" ? core::readTrace(out) : core::loadWorkspaceTrace(out, 0);
        ASSERT_TRUE(trace.ok()) << ext << ": " << trace.error().describe();
        EXPECT_EQ((*trace)->origin, core::TraceOrigin::Synthetic) << ext;
        EXPECT_EQ(core::toString((*trace)->origin), "synthetic");
        std::filesystem::remove(out);
    }
}

TEST(CaptureCli, TheCpuTestHookIsNotInTheHelp) {
    const auto help = runCli("capture --help");
    EXPECT_EQ(help.exitCode, 0) << help.out;
    EXPECT_NE(help.out.find("--tokens"), std::string::npos) << help.out;
    EXPECT_EQ(help.out.find("--cpu-test"), std::string::npos) << help.out;
}

TEST(CaptureCli, WithoutADeviceCaptureAndDevicesSayNoCudaDevice) {
    if (gpu::listDevices().ok()) GTEST_SKIP() << "this machine has a CUDA device";
    const auto capture = runCli("capture --model llama3-8b --out /dev/null");
    EXPECT_EQ(capture.exitCode, 1);
    EXPECT_NE(capture.out.find("no CUDA device"), std::string::npos) << capture.out;
    const auto devices = runCli("devices");
    EXPECT_EQ(devices.exitCode, 1);
    EXPECT_NE(devices.out.find("no CUDA device"), std::string::npos) << devices.out;
}

TEST(CaptureCli, BadOptionsAreRejectedBeforeAnyDeviceIsTouched) {
    const auto r = runCli("capture --model llama3-8b --tp 3 --cpu-test --out /dev/null");
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_NE(r.out.find("does not divide"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace tpscope::test
