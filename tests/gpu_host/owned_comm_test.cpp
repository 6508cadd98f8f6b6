// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// The abort ordering of a blocking communicator (owned_comm.h) through a fake communicator layer:
// ncclCommAbort only on the owning thread and never while that thread is inside init or finalize;
// finalize only when every rank finished; a call blocked past its deadline reaches the last resort.

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "gpu/owned_comm.h"

namespace tpscope::gpu {
namespace {

using std::chrono::milliseconds;

// Records every call with the thread that made it and whether a blocking call was in progress.
struct FakeComm {
    std::mutex mutex;
    std::vector<std::string> log;
    std::atomic<bool> insideBlockingCall{false};
    std::atomic<bool> release{true};  // false: init blocks until set (a peer that is late or gone)
    std::atomic<int> abortsDuringBlockingCall{0};
    std::thread::id abortThread;
    ncclResult_t initResult = ncclSuccess;
    ncclResult_t asyncResult = ncclSuccess;

    void note(const std::string& what) {
        std::lock_guard<std::mutex> lock(mutex);
        log.push_back(what);
    }
    ncclResult_t blocking(const char* what, ncclResult_t result) {
        insideBlockingCall = true;
        note(std::string(what) + " begin");
        const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
        while (!release && std::chrono::steady_clock::now() < until) std::this_thread::sleep_for(milliseconds(1));
        note(std::string(what) + " end");
        insideBlockingCall = false;
        return result;
    }
    CommCalls calls() {
        CommCalls c;
        c.init = [this] { return blocking("init", initResult); };
        c.finalize = [this] { return blocking("finalize", ncclSuccess); };
        c.destroy = [this] {
            note("destroy");
            return ncclSuccess;
        };
        c.abort = [this] {
            if (insideBlockingCall) ++abortsDuringBlockingCall;
            abortThread = std::this_thread::get_id();
            note("abort");
            return ncclSuccess;
        };
        c.asyncError = [this](ncclResult_t* out) {
            *out = asyncResult;
            return ncclSuccess;
        };
        return c;
    }
    std::vector<std::string> entries() {
        std::lock_guard<std::mutex> lock(mutex);
        return log;
    }
};

const auto kNoLastResort = [](const std::string&) { FAIL() << "the last resort must not run"; };

TEST(OwnedComm, APeerFailingDuringInitIsAbortedByTheOwnerAfterInitReturns) {
    FakeComm fake;
    fake.release = false;
    std::atomic<bool> stop{false};
    OwnedComm comm("rank 0 (GPU 0)", fake.calls(), std::chrono::minutes(1), &stop, kNoLastResort);
    std::thread peer([&] {
        while (!fake.insideBlockingCall) std::this_thread::sleep_for(milliseconds(1));
        stop = true;  // another rank failed while this one is inside the blocking init
        std::this_thread::sleep_for(milliseconds(30));
        fake.release = true;  // NCCL returns from the init (the peer's side closed)
    });
    const auto status = comm.init();
    peer.join();
    ASSERT_FALSE(status.ok());
    EXPECT_NE(status.error().describe().find("another rank failed"), std::string::npos) << status.error().describe();
    EXPECT_EQ(fake.abortsDuringBlockingCall.load(), 0);
    EXPECT_EQ(fake.abortThread, std::this_thread::get_id());
    EXPECT_EQ(fake.entries(), (std::vector<std::string>{"init begin", "init end", "abort"}));
    EXPECT_TRUE(comm.aborted());
}

TEST(OwnedComm, AHealthyRunFinalizesThenDestroysAndNeverAborts) {
    FakeComm fake;
    std::atomic<bool> stop{false};
    OwnedComm comm("rank 1 (GPU 1)", fake.calls(), std::chrono::minutes(1), &stop, kNoLastResort);
    ASSERT_TRUE(comm.init().ok());
    EXPECT_TRUE(comm.call("ncclAllReduce", [] { return ncclSuccess; }).ok());
    EXPECT_TRUE(comm.shutDown(true).ok());
    EXPECT_EQ(fake.entries(),
              (std::vector<std::string>{"init begin", "init end", "finalize begin", "finalize end", "destroy"}));
}

TEST(OwnedComm, AFailedRunAbortsInsteadOfFinalizing) {
    FakeComm fake;
    std::atomic<bool> stop{false};
    OwnedComm comm("rank 1 (GPU 1)", fake.calls(), std::chrono::minutes(1), &stop, kNoLastResort);
    ASSERT_TRUE(comm.init().ok());
    EXPECT_TRUE(comm.shutDown(/*peersHealthy=*/false).ok());
    EXPECT_EQ(fake.entries(), (std::vector<std::string>{"init begin", "init end", "abort"}));
    EXPECT_EQ(fake.abortThread, std::this_thread::get_id());
}

TEST(OwnedComm, AnAsynchronousErrorSeenWhileWaitingAbortsOnTheOwner) {
    FakeComm fake;
    std::atomic<bool> stop{false};
    OwnedComm comm("rank 0 (GPU 0)", fake.calls(), std::chrono::minutes(1), &stop, kNoLastResort);
    ASSERT_TRUE(comm.init().ok());
    EXPECT_TRUE(comm.poll("decode step").ok());
    fake.asyncResult = ncclRemoteError;
    const auto status = comm.poll("decode step");
    ASSERT_FALSE(status.ok());
    EXPECT_TRUE(comm.aborted());
    EXPECT_FALSE(comm.call("ncclAllReduce", [] { return ncclSuccess; }).ok());  // no call after the abort
    EXPECT_EQ(fake.entries().back(), "abort");
}

TEST(OwnedComm, AnInitBlockedPastItsDeadlineReachesTheLastResortNotAnAbort) {
    FakeComm fake;
    fake.release = false;
    std::atomic<bool> stop{false};
    std::string reason;
    std::mutex reasonMutex;
    OwnedComm comm("rank 3 (GPU 3)", fake.calls(), milliseconds(30), &stop, [&](const std::string& why) {
        {
            std::lock_guard<std::mutex> lock(reasonMutex);
            reason = why;
        }
        fake.release = true;  // stands in for the process ending
    });
    (void)comm.init();
    EXPECT_EQ(fake.abortsDuringBlockingCall.load(), 0);
    std::lock_guard<std::mutex> lock(reasonMutex);
    EXPECT_NE(reason.find("rank 3 (GPU 3): ncclCommInitRankConfig did not finish within 30 ms"), std::string::npos)
        << reason;
}

TEST(OwnedComm, TheDestructorAbortsACommunicatorLeftOpen) {
    FakeComm fake;
    {
        OwnedComm comm("rank 0 (GPU 0)", fake.calls(), std::chrono::minutes(1), nullptr, kNoLastResort);
        ASSERT_TRUE(comm.init().ok());
    }
    EXPECT_EQ(fake.entries().back(), "abort");
}

}  // namespace
}  // namespace tpscope::gpu
