// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// A rank's NCCL teardown against the stub NCCL library, loaded through gpu/nccl_loader as libnccl
// is: the communicator calls are the runner's (ncclCommCalls, OwnedComm, tearDownRank), only the
// streams and the CUDA graph are stand-ins. The stub blocks finalize and abort while a graph
// holding the communicator's plans is alive, as NCCL >= 2.14 does: the graph must go after the
// stream wait and before finalize or abort, on every path (healthy, failed, a failure inside the
// capture, cancelled), and a call that still blocks reaches the watchdog's last resort.

#include <gtest/gtest.h>
#include <nccl.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "gpu/nccl_loader.h"
#include "gpu/owned_comm.h"
#include "stub_nccl.h"

namespace tpscope::gpu {
namespace {

using std::chrono::milliseconds;
using Log = std::vector<std::string>;

constexpr std::uint64_t kGraph = 7;

// One rank as DecodeRunner drives it, without CUDA: a stream key, the step's graph, the
// communicator owned by this thread.
class StubRank {
  public:
    StubRank(const test::StubNccl& stub, milliseconds timeout, const std::atomic<bool>* stop = nullptr,
             milliseconds stopGrace = milliseconds(10'000))
        : m_stub(stub) {
        ncclUniqueId id{};
        EXPECT_EQ(ncclGetUniqueId(&id), ncclSuccess);
        m_comm = std::make_unique<OwnedComm>(
            "rank 0 (GPU 0)", ncclCommCalls(&m_handle, 1, id, 0, [this] { dropGraphs(); }), timeout, stop,
            [this](const std::string& why) {
                {
                    std::lock_guard<std::mutex> lock(m_mutex);
                    if (!m_lastResort) m_lastResort = why;
                }
                m_stub.release();  // stands in for the process ending
            },
            stopGrace);
    }

    OwnedComm& comm() { return *m_comm; }
    cudaStream_t stream() { return reinterpret_cast<cudaStream_t>(&m_streamKey); }

    core::Status allReduce() {
        return m_comm->call("ncclAllReduce", [this] {
            return ncclAllReduce(nullptr, nullptr, 1, ncclFloat16, ncclSum, m_handle, stream());
        });
    }
    // Graph mode's capture of a step: its collectives attach their plans to the graph.
    void beginCapture() {
        m_stub.beginCapture(stream(), kGraph);
        m_capturing = true;
        m_graphAlive = true;
    }
    void endCapture() {
        m_stub.endCapture(stream());
        m_capturing = false;
    }
    // As DecodeRunner::dropGraphs: a running capture ends (its partial graph dropped), then the graph.
    void dropGraphs() {
        if (m_capturing) endCapture();
        if (m_graphAlive) m_stub.destroyGraph(kGraph);
        m_graphAlive = false;
        ++m_drops;
    }
    core::Status tearDown(bool peersHealthy) {
        return tearDownRank(
            m_comm.get(), peersHealthy, [] { return core::Status(core::Ok{}); }, [this] { dropGraphs(); });
    }
    std::optional<std::string> lastResort() {
        std::lock_guard<std::mutex> lock(m_mutex);
        return m_lastResort;
    }
    bool capturing() const { return m_capturing; }

  private:
    const test::StubNccl& m_stub;
    int m_streamKey = 0;
    ncclComm_t m_handle = nullptr;
    std::unique_ptr<OwnedComm> m_comm;
    bool m_capturing = false;
    bool m_graphAlive = false;
    int m_drops = 0;
    std::mutex m_mutex;
    std::optional<std::string> m_lastResort;
};

const std::string kInit = "ncclCommInitRankConfig rank 0 of 1 blocking";

bool contains(const Log& log, const std::string& entry) {
    return std::find(log.begin(), log.end(), entry) != log.end();
}

using StubNcclTeardown = test::StubNcclTest;

TEST_F(StubNcclTeardown, TheLoaderOpensTheLibraryTpscopeNcclLibraryNames) {
    EXPECT_TRUE(loadNccl().ok());
    EXPECT_STREQ(ncclGetErrorString(ncclInternalError), "internal error (stub)");
}

TEST_F(StubNcclTeardown, EagerStepsFinalizeThenDestroy) {
    StubRank rank(stub(), milliseconds(2'000));
    ASSERT_TRUE(rank.comm().init().ok());
    ASSERT_TRUE(rank.allReduce().ok());
    ASSERT_TRUE(rank.allReduce().ok());
    EXPECT_TRUE(rank.tearDown(true).ok());
    EXPECT_EQ(stub().log(),
              (Log{"ncclGetUniqueId", kInit, "ncclAllReduce", "ncclAllReduce", "ncclCommFinalize", "ncclCommDestroy"}));
    EXPECT_FALSE(rank.lastResort()) << *rank.lastResort();
}

// 978c820 finalized first and destroyed the graph in the runner's destructor: finalize waited for
// the graph for ever (here: until the watchdog's last resort, which on a GPU ends the process
// with exit status 3 and writes no trace).
TEST_F(StubNcclTeardown, GraphModeDestroysTheGraphAfterTheStreamWaitAndBeforeFinalize) {
    StubRank rank(stub(), milliseconds(1'000));
    ASSERT_TRUE(rank.comm().init().ok());
    ASSERT_TRUE(rank.allReduce().ok());  // the eager step before the capture
    rank.beginCapture();
    ASSERT_TRUE(rank.allReduce().ok());
    ASSERT_TRUE(rank.allReduce().ok());
    rank.endCapture();
    EXPECT_TRUE(rank.tearDown(true).ok());
    EXPECT_EQ(stub().log(), (Log{"ncclGetUniqueId", kInit, "ncclAllReduce", "capture into graph 7", "ncclAllReduce",
                                 "ncclAllReduce", "graph 7 destroyed", "ncclCommFinalize", "ncclCommDestroy"}));
    EXPECT_FALSE(rank.lastResort()) << *rank.lastResort();
}

TEST_F(StubNcclTeardown, GraphModeAfterAFailureDestroysTheGraphBeforeAborting) {
    StubRank rank(stub(), milliseconds(1'000));
    ASSERT_TRUE(rank.comm().init().ok());
    rank.beginCapture();
    ASSERT_TRUE(rank.allReduce().ok());
    rank.endCapture();
    EXPECT_TRUE(rank.tearDown(/*peersHealthy=*/false).ok());
    EXPECT_EQ(stub().log(), (Log{"ncclGetUniqueId", kInit, "capture into graph 7", "ncclAllReduce", "graph 7 destroyed",
                                 "ncclCommAbort"}));
    EXPECT_FALSE(rank.lastResort()) << *rank.lastResort();
}

// An all-reduce that fails inside the capture: the capture ends and its partial graph (which holds
// the plans of the collectives captured before) goes before the abort.
TEST_F(StubNcclTeardown, ACallFailingDuringTheCaptureEndsItAndDropsThePartialGraphBeforeAborting) {
    stub().failCall("ncclAllReduce", 2, ncclUnhandledCudaError);
    stub().setMaxBlockMs(1'000);
    StubRank rank(stub(), milliseconds(60'000));
    ASSERT_TRUE(rank.comm().init().ok());
    rank.beginCapture();
    ASSERT_TRUE(rank.allReduce().ok());
    const core::Status failed = rank.allReduce();
    ASSERT_FALSE(failed.ok());
    EXPECT_NE(failed.error().describe().find("ncclAllReduce"), std::string::npos) << failed.error().describe();
    EXPECT_FALSE(rank.capturing());
    EXPECT_TRUE(rank.comm().aborted());
    EXPECT_EQ(stub().log(), (Log{"ncclGetUniqueId", kInit, "capture into graph 7", "ncclAllReduce", "ncclAllReduce",
                                 "ncclAllReduce failed", "graph 7 destroyed", "ncclCommAbort"}));
    EXPECT_TRUE(rank.tearDown(false).ok());  // nothing left to do
    EXPECT_EQ(stub().log().back(), "ncclCommAbort");
}

// An abort that blocks anyway (a graph this rank does not know of holds the plans) is watched:
// the last resort names it instead of a hang without a word.
TEST_F(StubNcclTeardown, AnAbortThatBlocksReachesTheWatchdog) {
    StubRank rank(stub(), milliseconds(200));
    ASSERT_TRUE(rank.comm().init().ok());
    // A capture the rank does not know of (no dropGraphs reaches graph 9) takes the rank's plan.
    stub().beginCapture(rank.stream(), 9);
    ASSERT_TRUE(rank.allReduce().ok());
    stub().endCapture(rank.stream());
    const auto start = std::chrono::steady_clock::now();
    (void)rank.tearDown(/*peersHealthy=*/false);
    const auto waited = std::chrono::steady_clock::now() - start;
    ASSERT_TRUE(rank.lastResort());
    EXPECT_NE(rank.lastResort()->find("rank 0 (GPU 0): ncclCommAbort did not finish within 200 ms"), std::string::npos)
        << *rank.lastResort();
    EXPECT_LT(waited, std::chrono::seconds(3));
    const Log log = stub().log();
    EXPECT_TRUE(contains(log, "ncclCommAbort blocked"));
    EXPECT_TRUE(contains(log, "ncclCommAbort released"));
}

// Cancelled (another rank failed) while finalize waits for a peer that never arrives: abort
// cannot reach a blocking call from outside, so after the grace the last resort ends it, naming it.
TEST_F(StubNcclTeardown, CancelledWhileBlockedInFinalizeEndsWithTheReasonAfterTheGrace) {
    stub().holdFinalize(1);
    std::atomic<bool> stop{false};
    StubRank rank(stub(), milliseconds(60'000), &stop, milliseconds(100));
    ASSERT_TRUE(rank.comm().init().ok());
    std::thread canceller([&] {
        while (stub().blockedCalls() == 0) std::this_thread::sleep_for(milliseconds(1));
        stop = true;
    });
    const auto start = std::chrono::steady_clock::now();
    const core::Status down = rank.tearDown(true);
    const auto waited = std::chrono::steady_clock::now() - start;
    canceller.join();
    EXPECT_FALSE(down.ok());
    ASSERT_TRUE(rank.lastResort());
    EXPECT_NE(rank.lastResort()->find("ncclCommFinalize did not finish within 100 ms after another rank failed"),
              std::string::npos)
        << *rank.lastResort();
    EXPECT_LT(waited, std::chrono::seconds(3));
    EXPECT_TRUE(contains(stub().log(), "ncclCommFinalize released"));
}

// Cancelled while waiting for a replayed step: the owner's poll drops the graph, then aborts.
TEST_F(StubNcclTeardown, CancelledWhileWaitingForAGraphStepDropsTheGraphThenAborts) {
    stub().setMaxBlockMs(1'000);
    std::atomic<bool> stop{false};
    StubRank rank(stub(), milliseconds(60'000), &stop);
    ASSERT_TRUE(rank.comm().init().ok());
    rank.beginCapture();
    ASSERT_TRUE(rank.allReduce().ok());
    rank.endCapture();
    ASSERT_TRUE(rank.comm().poll("decode step").ok());
    stop = true;
    const core::Status polled = rank.comm().poll("decode step");
    ASSERT_FALSE(polled.ok());
    EXPECT_EQ(polled.error().code, core::ErrorCode::Cancelled);
    EXPECT_EQ(stub().log(), (Log{"ncclGetUniqueId", kInit, "capture into graph 7", "ncclAllReduce", "graph 7 destroyed",
                                 "ncclCommAbort"}));
    EXPECT_TRUE(rank.tearDown(false).ok());
    EXPECT_FALSE(rank.lastResort()) << *rank.lastResort();
}

// NCCL's asynchronous error seen while a replayed step runs: the same order.
TEST_F(StubNcclTeardown, AnAsynchronousErrorDuringAGraphStepDropsTheGraphThenAborts) {
    stub().setMaxBlockMs(1'000);
    StubRank rank(stub(), milliseconds(60'000));
    ASSERT_TRUE(rank.comm().init().ok());
    rank.beginCapture();
    ASSERT_TRUE(rank.allReduce().ok());
    rank.endCapture();
    stub().setAsyncError(ncclRemoteError);
    ASSERT_FALSE(rank.comm().poll("decode step").ok());
    EXPECT_EQ(stub().log(), (Log{"ncclGetUniqueId", kInit, "capture into graph 7", "ncclAllReduce", "graph 7 destroyed",
                                 "ncclCommAbort"}));
}

}  // namespace
}  // namespace tpscope::gpu
