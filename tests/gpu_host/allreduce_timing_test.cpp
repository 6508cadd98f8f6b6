// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// allreduce --measure's timing method (allreduce_measure.h) on a fake clock, with one real thread per
// GPU as runMeasuredAllReduce runs them: each GPU's thread pays its own launch cost (its host clock
// advances launchUs per launch), and the j-th all-reduce ends on every GPU once every GPU has
// started it. Per GPU thread, an all-reduce reads kernel + launch / k; one thread launching all N
// GPUs in turn (before issue 46) read kernel + N x launch / k, the host's launch rate at small sizes.

#include <gtest/gtest.h>

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#include "gpu/allreduce_measure.h"

namespace tpscope::gpu {
namespace {

class FakeGpus {
  public:
    FakeGpus(int gpus, double launchUs, double kernelUs)
        : m_n(gpus),
          m_launchUs(launchUs),
          m_kernelUs(kernelUs),
          m_host(gpus, 0),
          m_streamEnd(gpus, 0),
          m_start(gpus, 0),
          m_end(gpus, 0),
          m_launches(gpus) {}

    AllReduceTimingCalls calls(int g) {
        const auto i = static_cast<std::size_t>(g);
        AllReduceTimingCalls c;
        c.recordStart = [this, i]() -> core::Status {
            std::lock_guard<std::mutex> lock(m_mutex);
            m_start[i] = std::max(m_host[i], m_streamEnd[i]);
            return core::Ok{};
        };
        c.launch = [this, i]() -> core::Status {
            std::lock_guard<std::mutex> lock(m_mutex);
            m_host[i] += m_launchUs;  // this GPU's own thread enqueues it
            m_launches[i].push_back(m_host[i]);
            ++m_launchCount;
            return core::Ok{};
        };
        c.recordEnd = [this, i]() -> core::Status {
            std::unique_lock<std::mutex> lock(m_mutex);
            ++m_ended;
            if (m_ended == m_n) {
                settle();
                m_ended = 0;
                ++m_round;
                m_settled.notify_all();
            } else {
                const int round = m_round;
                m_settled.wait(lock, [&] { return m_round != round; });
            }
            m_end[i] = std::max(m_host[i], m_streamEnd[i]);
            return core::Ok{};
        };
        c.wait = [this, i]() -> core::Status {
            std::lock_guard<std::mutex> lock(m_mutex);
            m_host[i] = std::max(m_host[i], m_end[i]);
            return core::Ok{};
        };
        c.elapsedMs = [this, i]() -> core::Result<double> {
            std::lock_guard<std::mutex> lock(m_mutex);
            return (m_end[i] - m_start[i]) / 1000.0;
        };
        return c;
    }
    int launches() const { return m_launchCount; }

  private:
    // Every GPU launched its all-reduces since the last end event: all-reduce j starts on GPU g once
    // launched and once g's previous one ended, and ends on every GPU when the last GPU started it.
    void settle() {
        const std::size_t k = m_launches[0].size();
        for (std::size_t j = 0; j < k; ++j) {
            double lastStart = 0;
            for (std::size_t g = 0; g < m_launches.size(); ++g) {
                lastStart = std::max(lastStart, std::max(m_launches[g][j], m_streamEnd[g]));
            }
            for (double& e : m_streamEnd) e = lastStart + m_kernelUs;
        }
        for (auto& l : m_launches) l.clear();
    }

    std::mutex m_mutex;
    std::condition_variable m_settled;
    int m_n;
    double m_launchUs, m_kernelUs;
    std::vector<double> m_host, m_streamEnd, m_start, m_end;
    std::vector<std::vector<double>> m_launches;  // host time of each launch since the last end event
    int m_ended = 0;
    int m_round = 0;
    int m_launchCount = 0;
};

// Runs timeOneGpu on one thread per GPU, as runMeasuredAllReduce does; the slowest GPU per sample.
std::vector<double> timeOnThreads(FakeGpus& fake, int gpus, int warmup, int k) {
    PhaseBarrier barrier(gpus);
    std::vector<std::vector<double>> elapsed(static_cast<std::size_t>(gpus));
    std::vector<std::thread> threads;
    for (int g = 0; g < gpus; ++g) {
        threads.emplace_back([&, g] {
            auto ms = timeOneGpu(fake.calls(g), warmup, k, kAllReduceSamples, barrier);
            ASSERT_TRUE(ms.ok()) << ms.error().describe();
            elapsed[static_cast<std::size_t>(g)] = *ms;
        });
    }
    for (auto& t : threads) t.join();
    return slowestPerSampleUs(elapsed, k);
}

TEST(AllReduceTiming, EachGpusThreadPaysOnlyItsOwnLaunches) {
    const int gpus = 8, k = 20;
    const double launch = 1, kernel = 20;
    FakeGpus fake(gpus, launch, kernel);
    const std::vector<double> times = timeOnThreads(fake, gpus, 3, k);
    ASSERT_EQ(times.size(), static_cast<std::size_t>(kAllReduceSamples));
    EXPECT_EQ(fake.launches(), gpus * (3 + k * kAllReduceSamples));
    // Back to back: the first launch's cost once per sample.
    for (const double t : times) EXPECT_NEAR(t, kernel + launch / k, 1e-9);

    // Timed one at a time (k = 1): kernel + one launch, not kernel + 8 launches as from one thread.
    FakeGpus single(gpus, launch, kernel);
    for (const double t : timeOnThreads(single, gpus, 3, 1)) EXPECT_NEAR(t, kernel + launch, 1e-9);
}

TEST(AllReduceTiming, TheSlowestGpuOfEachSampleCounts) {
    EXPECT_EQ(slowestPerSampleUs({{0.010, 0.030}, {0.020, 0.010}}, 10), (std::vector<double>{2.0, 3.0}));
}

TEST(AllReduceTiming, BadCountsAreOneClearErrorAndStopTheOtherGpus) {
    FakeGpus fake(2, 1, 1);
    PhaseBarrier barrier(2);
    EXPECT_FALSE(timeOneGpu(fake.calls(0), 0, 0, 5, barrier).ok());
    EXPECT_TRUE(barrier.aborted());  // the other GPU's thread does not wait for this one
    PhaseBarrier other(1);
    EXPECT_FALSE(timeOneGpu(fake.calls(0), 0, 5, 0, other).ok());
    EXPECT_EQ(fake.launches(), 0);
}

// A GPU whose launch fails breaks the barrier: the other GPU's thread stops at its next sample
// instead of waiting for it.
TEST(AllReduceTiming, AFailingGpuStopsTheOthers) {
    FakeGpus fake(1, 1, 1);  // one fake GPU settles on its own: the failing one never reaches its end event
    PhaseBarrier barrier(2);
    AllReduceTimingCalls broken = fake.calls(0);
    broken.launch = [] { return core::Status(core::makeError(core::ErrorCode::DeviceError, "launch failed", "test")); };
    core::Result<std::vector<double>> healthy = std::vector<double>{};
    std::thread other([&] { healthy = timeOneGpu(fake.calls(0), 0, 2, 3, barrier); });
    const auto failed = timeOneGpu(broken, 0, 2, 3, barrier);
    other.join();
    ASSERT_FALSE(failed.ok());
    EXPECT_EQ(failed.error().message, "launch failed");
    ASSERT_FALSE(healthy.ok());
    EXPECT_EQ(healthy.error().code, core::ErrorCode::Cancelled);
}

}  // namespace
}  // namespace tpscope::gpu
