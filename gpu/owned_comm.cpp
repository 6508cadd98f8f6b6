// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "gpu/owned_comm.h"

#include "gpu/gpu_check.h"
#include "gpu/nccl_setup.h"

namespace tpscope::gpu {

CommCalls ncclCommCalls(ncclComm_t* comm, int nranks, const ncclUniqueId& id, int rank,
                        std::function<void()> dropGraphs) {
    CommCalls calls;
    calls.init = [comm, nranks, id, rank] {
        ncclConfig_t config = blockingCommConfig();
        return ncclCommInitRankConfig(comm, nranks, id, rank, &config);
    };
    calls.finalize = [comm] { return ncclCommFinalize(*comm); };
    calls.destroy = [comm] { return ncclCommDestroy(*comm); };
    calls.abort = [comm] { return *comm != nullptr ? ncclCommAbort(*comm) : ncclSuccess; };
    calls.asyncError = [comm](ncclResult_t* out) {
        return *comm != nullptr ? ncclCommGetAsyncError(*comm, out) : ncclSuccess;
    };
    calls.dropGraphs = std::move(dropGraphs);
    return calls;
}

OwnedComm::OwnedComm(std::string who, CommCalls calls, std::chrono::milliseconds timeout, const std::atomic<bool>* stop,
                     std::function<void(const std::string&)> lastResort, std::chrono::milliseconds stopGrace)
    : m_who(who),
      m_calls(std::move(calls)),
      m_stop(stop),
      m_watchdog(std::make_unique<HangWatchdog>(std::move(who), timeout, std::move(lastResort), stop,
                                                std::chrono::milliseconds(5), stopGrace)) {}

OwnedComm::~OwnedComm() {
    if (m_open) abort();
}

core::Status OwnedComm::init() {
    ncclResult_t result = ncclSuccess;
    {
        const HangWatchdog::Watch watch = m_watchdog->watch("ncclCommInitRankConfig");
        result = m_calls.init();
    }
    // A failed blocking init may still have stored a handle: abort releases it (owner thread).
    m_open = true;
    return afterCall("ncclCommInitRankConfig", result);
}

core::Status OwnedComm::call(const char* what, const std::function<ncclResult_t()>& f) {
    if (m_aborted || !m_open) {
        return core::makeError(core::ErrorCode::DeviceError, m_who + ": the communicator was aborted earlier", what);
    }
    ncclResult_t result = ncclSuccess;
    {
        const HangWatchdog::Watch watch = m_watchdog->watch(what);
        result = f();
    }
    return afterCall(what, result);
}

core::Status OwnedComm::afterCall(const char* what, ncclResult_t result) {
    if (auto failure = failureText(result)) {
        abort();
        return gpuError(m_who + ": " + *failure, what, __FILE__, __LINE__);
    }
    return poll(what);
}

core::Status OwnedComm::poll(const char* what) {
    if (m_aborted) {
        return core::makeError(core::ErrorCode::DeviceError, m_who + ": the communicator was aborted earlier", what);
    }
    if (!m_open) return core::Ok{};
    ncclResult_t async = ncclSuccess;
    if (m_calls.asyncError && m_calls.asyncError(&async) == ncclSuccess && async != ncclSuccess &&
        async != ncclInProgress) {
        abort();
        return gpuError(m_who + ": " + failureText(async).value_or("NCCL error"), what, __FILE__, __LINE__);
    }
    if (m_stop != nullptr && m_stop->load()) {
        abort();
        return core::makeError(core::ErrorCode::Cancelled, m_who + ": stopped because another rank failed", what);
    }
    return core::Ok{};
}

void OwnedComm::abort() {
    if (!m_open || m_aborted) return;
    m_aborted = true;
    // A graph still holding this communicator's plans would keep ncclCommAbort waiting for ever.
    if (m_calls.dropGraphs) m_calls.dropGraphs();
    if (m_calls.abort) {
        const HangWatchdog::Watch watch = m_watchdog->watch("ncclCommAbort");
        m_calls.abort();
    }
    m_open = false;
}

core::Status OwnedComm::shutDown(bool peersHealthy) {
    if (!m_open) return core::Ok{};
    if (!peersHealthy || (m_stop != nullptr && m_stop->load())) {
        abort();
        return core::Ok{};
    }
    // NCCL's finalize waits until every graph holding this communicator's plans is destroyed.
    if (m_calls.dropGraphs) m_calls.dropGraphs();
    ncclResult_t result = ncclSuccess;
    {
        // Every rank reached its teardown: finalize returns unless a peer dies during it.
        const HangWatchdog::Watch watch = m_watchdog->watch("ncclCommFinalize");
        result = m_calls.finalize();
    }
    if (auto failure = failureText(result)) {
        abort();
        return gpuError(m_who + ": " + *failure, "ncclCommFinalize", __FILE__, __LINE__);
    }
    if (m_calls.destroy) m_calls.destroy();
    m_open = false;
    return core::Ok{};
}

core::Status tearDownRank(OwnedComm* comm, bool peersHealthy, const std::function<core::Status()>& waitStreams,
                          const std::function<void()>& dropGraphs) {
    // Abort first when anything failed: a finalize (or a stream wait) would wait on a peer that is gone.
    if (comm != nullptr && !peersHealthy) comm->abort();
    core::Status synced = waitStreams ? waitStreams() : core::Status(core::Ok{});
    if (!synced && comm != nullptr) comm->abort();
    // After the wait and before the finalize (OwnedComm::shutDown drops them again, a no-op then).
    if (dropGraphs) dropGraphs();
    if (comm != nullptr) TPSCOPE_TRY(comm->shutDown(peersHealthy && synced.ok()));
    return synced;
}

}  // namespace tpscope::gpu
