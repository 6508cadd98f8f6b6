// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// allreduce --measure's timing method (allreduce_measure.h, timeBackToBack) on a fake clock: one host
// thread launches every GPU's all-reduce in turn, so GPU i's launch comes (i + 1) x launch cost
// after the loop starts, and an all-reduce ends only once every GPU has started it. Timed one by
// one, each all-reduce includes that skew; K back to back between one event pair pay it once.

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "gpu/allreduce_measure.h"

namespace tpscope::gpu {
namespace {

struct FakeGpus {
    int n = 8;
    double launchUs = 5;   // host time to enqueue one GPU's all-reduce
    double kernelUs = 10;  // an all-reduce once every GPU has started it
    double hostUs = 0;
    std::vector<double> streamEnd, starts, ends;
    int launches = 0;

    explicit FakeGpus(int gpus, double launch, double kernel)
        : n(gpus), launchUs(launch), kernelUs(kernel), streamEnd(gpus, 0), starts(gpus, 0), ends(gpus, 0) {}

    AllReduceTimingCalls calls() {
        AllReduceTimingCalls c;
        c.recordStarts = [this]() -> core::Status {
            for (int i = 0; i < n; ++i) starts[i] = std::max(hostUs, streamEnd[i]);
            return core::Ok{};
        };
        c.recordEnds = [this]() -> core::Status {
            for (int i = 0; i < n; ++i) ends[i] = std::max(hostUs, streamEnd[i]);
            return core::Ok{};
        };
        c.launchAll = [this]() -> core::Status {
            ++launches;
            double lastStart = 0;
            std::vector<double> start(n);
            for (int i = 0; i < n; ++i) {
                hostUs += launchUs;  // the one host thread enqueues GPU i now
                start[i] = std::max(hostUs, streamEnd[i]);
                lastStart = std::max(lastStart, start[i]);
            }
            for (int i = 0; i < n; ++i) streamEnd[i] = lastStart + kernelUs;  // waits for the last peer
            return core::Ok{};
        };
        c.waitAll = [this]() -> core::Status {
            hostUs = std::max(hostUs, *std::max_element(ends.begin(), ends.end()));
            return core::Ok{};
        };
        c.elapsedMs = [this]() -> core::Result<std::vector<double>> {
            std::vector<double> ms(n);
            for (int i = 0; i < n; ++i) ms[i] = (ends[i] - starts[i]) / 1000.0;
            return ms;
        };
        return c;
    }
};

TEST(AllReduceTiming, BackToBackPaysTheLaunchSkewOncePerSampleNotPerAllReduce) {
    const int gpus = 8, k = 20;
    const double launch = 1, kernel = 20;  // the host keeps ahead of the GPUs: n x launch < kernel
    FakeGpus fake(gpus, launch, kernel);
    auto times = timeBackToBack(fake.calls(), 3, k, kAllReduceSamples);
    ASSERT_TRUE(times.ok()) << times.error().describe();
    ASSERT_EQ(times->size(), static_cast<std::size_t>(kAllReduceSamples));
    EXPECT_EQ(fake.launches, 3 + k * kAllReduceSamples);
    for (const double t : *times) EXPECT_NEAR(t, kernel + gpus * launch / k, 1e-9);

    // Timed one at a time (k = 1), the same all-reduce reads as kernel + the whole skew (1.4x here).
    FakeGpus single(gpus, launch, kernel);
    auto one = timeBackToBack(single.calls(), 3, 1, kAllReduceSamples);
    ASSERT_TRUE(one.ok());
    for (const double t : *one) EXPECT_NEAR(t, kernel + gpus * launch, 1e-9);
}

TEST(AllReduceTiming, BadCountsAreOneClearError) {
    FakeGpus fake(2, 1, 1);
    EXPECT_FALSE(timeBackToBack(fake.calls(), 0, 0, 5).ok());
    EXPECT_FALSE(timeBackToBack(fake.calls(), 0, 5, 0).ok());
    EXPECT_EQ(fake.launches, 0);
}

}  // namespace
}  // namespace tpscope::gpu
