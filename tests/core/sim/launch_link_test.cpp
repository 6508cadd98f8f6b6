// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// A launch call and its kernel found from each other by correlation id (core/analysis/launch_link.h),
// on simulated traces whose host rows the simulator wrote: every eager launch finds the kernel with
// its id, the kernel finds it back, and the waits summed over every kernel are host_idle's.

#include <gtest/gtest.h>

#include <map>

#include "core/analysis/host_idle.h"
#include "core/analysis/launch_link.h"
#include "core/sim/runtime_profile.h"
#include "sim_test_support.h"

namespace tpscope::test {
namespace {

using core::analysis::kernelOfLaunch;
using core::analysis::launchOfKernel;

std::shared_ptr<const core::Trace> simulated(int tp, core::sim::Runtime runtime) {
    auto c = simConfig("llama3-8b", "h100-sxm", "nvlink4", tp, 1, 2);
    c.plan.model = smallModel();
    c.params.setRuntime(runtime);
    auto r = core::sim::simulate(c);
    EXPECT_TRUE(r) << r.error().describe();
    return r->trace;
}

TEST(LaunchLink, EveryEagerLaunchFindsTheKernelWithItsIdAndBack) {
    const auto trace = simulated(8, core::sim::Runtime::PytorchEager);
    for (const auto& rank : trace->ranks) {
        ASSERT_EQ(rank.hostThreads.size(), 1u);
        const auto& host = rank.hostThreads[0].events;
        // The kernels by correlation id, found by a plain scan: what the lookup must agree with.
        std::map<std::uint32_t, std::pair<std::size_t, std::size_t>> kernels;
        for (std::size_t s = 0; s < rank.streams.size(); ++s) {
            const auto& ev = rank.streams[s].events;
            for (std::size_t i = 0; i < ev.size(); ++i) kernels[ev.correlationId(i)] = {s, i};
        }
        std::size_t linked = 0;
        for (std::size_t i = 0; i < host.size(); ++i) {
            const auto link = kernelOfLaunch(rank, 0, i);
            if (host.correlationId(i) == 0) {
                EXPECT_FALSE(link) << "the host's work between steps launches nothing";
                continue;
            }
            ASSERT_TRUE(link) << "launch " << i;
            const auto expected = kernels.at(host.correlationId(i));
            EXPECT_EQ(link->stream, expected.first);
            EXPECT_EQ(link->kernelIndex, expected.second);
            const auto& ev = rank.streams[link->stream].events;
            EXPECT_EQ(link->launchToStartNs, ev.startNs(link->kernelIndex) - host.startNs(i));
            EXPECT_GT(link->launchToStartNs, 0);
            const auto back = launchOfKernel(rank, link->stream, link->kernelIndex);
            ASSERT_TRUE(back);
            EXPECT_EQ(back->hostThread, 0u);
            EXPECT_EQ(back->hostIndex, i);
            EXPECT_EQ(back->launchWaitNs, link->launchWaitNs);
            ++linked;
        }
        EXPECT_EQ(linked, rank.eventCount());
    }
}

TEST(LaunchLink, TheWaitsOfEveryKernelSumToHostIdlesLaunchWait) {
    for (const auto runtime : {core::sim::Runtime::PytorchEager, core::sim::Runtime::CudaGraphs}) {
        const auto trace = simulated(8, runtime);
        std::int64_t waits = 0;
        std::size_t waiting = 0;
        for (const auto& rank : trace->ranks) {
            for (std::size_t s = 0; s < rank.streams.size(); ++s) {
                for (std::size_t i = 0; i < rank.streams[s].events.size(); ++i) {
                    if (const auto link = launchOfKernel(rank, s, i)) {
                        waits += link->launchWaitNs;
                        waiting += link->launchWaitNs > 0 ? 1 : 0;
                    }
                }
            }
        }
        const auto idle = core::analysis::attributeIdleToHost(*trace);
        EXPECT_EQ(waits, idle.launchWaitNs) << core::sim::toString(runtime);
        EXPECT_EQ(waiting, idle.launchBoundKernels) << core::sim::toString(runtime);
        // A small model at TP 8 launched eagerly waits for its host (issue 26's acceptance run).
        if (runtime == core::sim::Runtime::PytorchEager) {
            EXPECT_GT(idle.launchWaitShare(), 0.5);
        }
    }
}

TEST(LaunchLink, UnderGraphsOnlyEachStepsFirstKernelHasALaunch) {
    const auto trace = simulated(2, core::sim::Runtime::CudaGraphs);
    const auto& rank = trace->ranks[0];
    const auto& host = rank.hostThreads.at(0).events;
    std::size_t launched = 0;
    for (std::size_t i = 0; i < rank.streams.at(0).events.size(); ++i) {
        if (const auto link = launchOfKernel(rank, 0, i)) {
            EXPECT_EQ(trace->name(host.name(link->hostIndex)), "cudaGraphLaunch");
            ++launched;
        }
    }
    EXPECT_EQ(launched, 2u);  // two decode steps, one graph launch each
    EXPECT_FALSE(kernelOfLaunch(rank, 5, 0));
    EXPECT_FALSE(launchOfKernel(rank, 0, rank.streams[0].events.size()));
}

}  // namespace
}  // namespace tpscope::test
