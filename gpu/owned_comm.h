// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// One rank's blocking NCCL communicator and the rule that keeps its faults defined: ncclCommAbort
// runs only on the thread that owns the communicator, and never while that thread is inside an NCCL
// call. NCCL allows an abort at any point only for non-blocking communicators, and the runner's
// communicator is blocking (nccl_setup.h: a non-blocking one hands every collective to a thread of
// its own). So:
//
// - init() is called only once every rank is known to be calling it (the capture agrees on that
//   first, in the process and over MPI), so it returns unless a peer dies during it;
// - after every call, and while waiting for a step, the owner checks NCCL's asynchronous error and
//   the stop flag (another rank failed) and aborts itself;
// - shutDown(peersHealthy) finalizes only when every rank finished, else aborts first (no finalize
//   waiting on a peer that is gone);
// - a call still blocked past its deadline (a peer vanished inside init or finalize) is the one case
//   abort cannot reach legally: the HangWatchdog's last resort ends the process with the reason.
//
// The NCCL calls come through CommCalls, so the ordering is tested with a fake communicator.

#include <nccl.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include "core/util/result.h"
#include "gpu/hang_watchdog.h"

namespace tpscope::gpu {

struct CommCalls {
    std::function<ncclResult_t()> init;                     // ncclCommInitRankConfig with blockingCommConfig()
    std::function<ncclResult_t()> finalize;                 // ncclCommFinalize
    std::function<ncclResult_t()> destroy;                  // ncclCommDestroy
    std::function<ncclResult_t()> abort;                    // ncclCommAbort
    std::function<ncclResult_t(ncclResult_t*)> asyncError;  // ncclCommGetAsyncError
};

class OwnedComm {
  public:
    // lastResort: what the watchdog does with a call blocked past its deadline (default: end the process).
    OwnedComm(std::string who, CommCalls calls, std::chrono::milliseconds timeout, const std::atomic<bool>* stop,
              std::function<void(const std::string&)> lastResort = endProcessWithReason);
    ~OwnedComm();  // aborts a communicator still open (owner thread: the destructor runs there)
    OwnedComm(const OwnedComm&) = delete;
    OwnedComm& operator=(const OwnedComm&) = delete;

    core::Status init();
    // One NCCL call (a collective) under the watchdog; its failure or a peer's aborts the communicator.
    core::Status call(const char* what, const std::function<ncclResult_t()>& f);
    // Between calls (waiting for a step): NCCL's asynchronous error or a peer's failure -> abort.
    core::Status poll(const char* what);
    void abort();
    // Finalize + destroy when peersHealthy and nothing failed here, else abort.
    core::Status shutDown(bool peersHealthy);

    bool open() const { return m_open; }
    bool aborted() const { return m_aborted; }

  private:
    core::Status afterCall(const char* what, ncclResult_t result);

    std::string m_who;
    CommCalls m_calls;
    const std::atomic<bool>* m_stop;
    std::unique_ptr<HangWatchdog> m_watchdog;
    bool m_open = false;
    bool m_aborted = false;
};

}  // namespace tpscope::gpu
