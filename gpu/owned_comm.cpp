// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "gpu/owned_comm.h"

#include "gpu/gpu_check.h"

namespace tpscope::gpu {

OwnedComm::OwnedComm(std::string who, CommCalls calls, std::chrono::milliseconds timeout, const std::atomic<bool>* stop,
                     std::function<void(const std::string&)> lastResort)
    : m_who(who),
      m_calls(std::move(calls)),
      m_stop(stop),
      m_watchdog(std::make_unique<HangWatchdog>(std::move(who), timeout, std::move(lastResort), stop)) {}

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
    if (m_calls.abort) m_calls.abort();
    m_open = false;
}

core::Status OwnedComm::shutDown(bool peersHealthy) {
    if (!m_open) return core::Ok{};
    if (!peersHealthy || (m_stop != nullptr && m_stop->load())) {
        abort();
        return core::Ok{};
    }
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

}  // namespace tpscope::gpu
