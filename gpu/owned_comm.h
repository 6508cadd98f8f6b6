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
//   ncclCommAbort itself is watched too (it can block as finalize does).
// - before finalize and before abort the CUDA graphs that captured this communicator's collectives
//   are destroyed (CommCalls::dropGraphs; a capture still running is ended and its partial graph
//   dropped): NCCL attaches the plans captured in a graph to that graph, and ncclCommFinalize (and
//   ncclCommAbort of the last local rank) waits without limit until every graph holding them is
//   destroyed (NCCL >= 2.14). Destroying a graph exec that is still running is allowed (CUDA frees
//   it when the launch completes), so the abort path drops them first too.
//
// The NCCL calls come through CommCalls, so the ordering is tested with a fake communicator and,
// through gpu/nccl_loader, with the stub NCCL library of tests/stub_nccl.

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
    // Before finalize and abort: ends a stream capture still running (dropping its partial graph)
    // and destroys the graph exec and graph that hold this communicator's plans. Idempotent; may be empty.
    std::function<void()> dropGraphs;
};

// The calls of one rank's blocking communicator, stored in *comm: ncclCommInitRankConfig(nranks,
// id, rank) with blockingCommConfig(), and the rest on *comm (abort and asyncError only once it exists).
CommCalls ncclCommCalls(ncclComm_t* comm, int nranks, const ncclUniqueId& id, int rank,
                        std::function<void()> dropGraphs);

class OwnedComm {
  public:
    // lastResort: what the watchdog does with a call blocked past its deadline (default: end the process).
    // stopGrace: how long a blocked call may still take once another rank failed (HangWatchdog).
    OwnedComm(std::string who, CommCalls calls, std::chrono::milliseconds timeout, const std::atomic<bool>* stop,
              std::function<void(const std::string&)> lastResort = endProcessWithReason,
              std::chrono::milliseconds stopGrace = std::chrono::milliseconds(10'000));
    ~OwnedComm();  // aborts a communicator still open (owner thread: the destructor runs there)
    OwnedComm(const OwnedComm&) = delete;
    OwnedComm& operator=(const OwnedComm&) = delete;

    core::Status init();
    // One NCCL call (a collective) under the watchdog; its failure or a peer's aborts the communicator.
    core::Status call(const char* what, const std::function<ncclResult_t()>& f);
    // Between calls (waiting for a step): NCCL's asynchronous error or a peer's failure -> abort.
    core::Status poll(const char* what);
    // Drops the graphs, then ncclCommAbort under the watchdog.
    void abort();
    // Finalize + destroy when peersHealthy and nothing failed here, else abort; the graphs are
    // dropped first either way.
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

// One rank's teardown (DecodeRunner::shutDown), free of CUDA so the order is tested with the stub
// NCCL: when anything failed, abort first (a kernel stuck in a collective ends only once its
// communicator is aborted); then waitStreams (a wait with a deadline), and abort when it timed out;
// then dropGraphs (also at TP 1, where there is no communicator), and finalize + destroy when
// every rank finished and the streams drained. comm may be null (TP 1). Returns waitStreams' status
// unless the finalize failed.
core::Status tearDownRank(OwnedComm* comm, bool peersHealthy, const std::function<core::Status()>& waitStreams,
                          const std::function<void()>& dropGraphs);

}  // namespace tpscope::gpu
