// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The test-only control interface of the stub NCCL library (stub_nccl.cpp): a shared library with
// NCCL's entry points, loaded by gpu/nccl_loader through TPSCOPE_NCCL_LIBRARY as a real libnccl is,
// so the host tests run tpscope's NCCL call sequences without a GPU. What it models of NCCL 2.28:
//
// - a collective issued on a stream that is being captured attaches its plan to the graph being
//   captured (tpscopeStubNcclBeginCapture), and ncclCommFinalize and ncclCommAbort of that
//   communicator wait, without limit in NCCL, until every such graph is destroyed
//   (tpscopeStubNcclDestroyGraph); the stub gives up after maxBlockMs and records that it did;
// - a peer that never arrives: finalize blocks until tpscopeStubNcclRelease (holdFinalize);
// - a chosen call fails: the nth call of a name returns the given result;
// - ncclCommGetAsyncError returns what tpscopeStubNcclSetAsyncError set.
// Every call is recorded in order ("ncclAllReduce", "ncclCommFinalize begin", "graph 7 destroyed").
// The tests look these functions up with dlsym in the library the loader opened (tests/gpu_stub).

#include <cstddef>
#include <cstdint>

extern "C" {

void tpscopeStubNcclReset(void);
// Writes the log, one entry per line, into buffer (NUL-terminated, cut at size); returns the bytes
// the whole log needs (without the NUL).
std::size_t tpscopeStubNcclCopyLog(char* buffer, std::size_t size);
// The nth (1-based) call of `name` (e.g. "ncclAllReduce") returns `result` (an ncclResult_t).
void tpscopeStubNcclFailCall(const char* name, int nth, int result);
void tpscopeStubNcclSetAsyncError(int result);
// Collectives on `stream` attach their communicator's plan to `graph` until EndCapture.
void tpscopeStubNcclBeginCapture(const void* stream, std::uint64_t graph);
void tpscopeStubNcclEndCapture(const void* stream);
void tpscopeStubNcclDestroyGraph(std::uint64_t graph);
// finalize blocks (a peer that never reaches it) until tpscopeStubNcclRelease or HoldFinalize(0).
void tpscopeStubNcclHoldFinalize(int hold);
// Unblocks every blocked call (stands in for the process ending); it returns ncclInternalError.
void tpscopeStubNcclRelease(void);
// How long a blocked call waits before giving up (default 5000 ms).
void tpscopeStubNcclSetMaxBlockMs(int ms);
// Calls blocked right now (finalize or abort waiting).
int tpscopeStubNcclBlockedCalls(void);
}
