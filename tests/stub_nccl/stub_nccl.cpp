// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// A stub NCCL library for the host tests (stub_nccl_control.h): NCCL's entry points with nccl.h's
// own declarations (a signature that differed would not compile), recording the call order and
// modelling what the teardown depends on: finalize and abort wait while a graph holding the
// communicator's plans is alive. No CUDA call: streams are only keys.

#include <nccl.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "stub_nccl_control.h"

struct ncclComm {
    int rank = 0;
    int nranks = 0;
    int id = 0;
};

namespace {

struct Stub {
    std::mutex mutex;
    std::condition_variable changed;
    std::vector<std::string> log;
    std::map<std::string, int> calls;  // name -> calls so far
    std::map<std::string, std::pair<int, ncclResult_t>> failures;
    ncclResult_t asyncError = ncclSuccess;
    std::map<const void*, std::uint64_t> capturing;       // stream -> graph being captured
    std::map<std::uint64_t, std::set<ncclComm*>> graphs;  // live graph -> communicators whose plans it holds
    bool holdFinalize = false;
    bool released = false;
    int blocked = 0;
    int maxBlockMs = 5000;
    int nextComm = 0;
    int nextId = 0;
};

Stub& stub() {
    static Stub s;
    return s;
}

// Records the call; the failure chosen for this one (ncclSuccess otherwise). Holds the lock.
ncclResult_t enter(Stub& s, const std::string& name, const std::string& detail = {}) {
    const int n = ++s.calls[name];
    s.log.push_back(detail.empty() ? name : name + " " + detail);
    const auto f = s.failures.find(name);
    if (f != s.failures.end() && f->second.first == n) {
        s.log.push_back(name + " failed");
        return f->second.second;
    }
    return ncclSuccess;
}

bool holdsPlans(const Stub& s, ncclComm* comm) {
    for (const auto& [graph, comms] : s.graphs) {
        if (comms.count(comm) != 0) return true;
    }
    return false;
}

// finalize and abort: wait while `blocking` says so, as NCCL does (without its limit).
ncclResult_t waitWhile(Stub& s, std::unique_lock<std::mutex>& lock, const std::string& name,
                       const std::function<bool()>& blocking) {
    if (!blocking()) return ncclSuccess;
    s.log.push_back(name + " blocked");
    ++s.blocked;
    s.changed.notify_all();
    const bool freed =
        s.changed.wait_for(lock, std::chrono::milliseconds(s.maxBlockMs), [&] { return s.released || !blocking(); });
    --s.blocked;
    if (freed && !s.released) {
        s.log.push_back(name + " unblocked");
        return ncclSuccess;
    }
    s.log.push_back(name + (s.released ? " released" : " gave up"));
    return ncclInternalError;
}

ncclResult_t collective(const char* name, ncclComm_t comm, cudaStream_t stream) {
    Stub& s = stub();
    std::lock_guard<std::mutex> lock(s.mutex);
    if (const ncclResult_t r = enter(s, name); r != ncclSuccess) return r;
    const auto capture = s.capturing.find(static_cast<const void*>(stream));
    if (capture != s.capturing.end()) s.graphs[capture->second].insert(comm);  // the plan goes with the graph
    return ncclSuccess;
}

}  // namespace

extern "C" {

ncclResult_t ncclGetUniqueId(ncclUniqueId* uniqueId) {
    Stub& s = stub();
    std::lock_guard<std::mutex> lock(s.mutex);
    std::memset(uniqueId->internal, 0, sizeof(uniqueId->internal));
    const int id = ++s.nextId;
    std::memcpy(uniqueId->internal, &id, sizeof(id));
    return enter(s, "ncclGetUniqueId");
}

ncclResult_t ncclCommInitRankConfig(ncclComm_t* comm, int nranks, ncclUniqueId commId, int rank, ncclConfig_t* config) {
    Stub& s = stub();
    std::lock_guard<std::mutex> lock(s.mutex);
    const std::string detail = "rank " + std::to_string(rank) + " of " + std::to_string(nranks) +
                               (config != nullptr && config->blocking == 1 ? " blocking" : " non-blocking");
    const ncclResult_t r = enter(s, "ncclCommInitRankConfig", detail);
    // A failed blocking init may still hand back a communicator, which the caller must abort.
    auto* c = new ncclComm;
    c->rank = rank;
    c->nranks = nranks;
    std::memcpy(&c->id, commId.internal, sizeof(c->id));
    ++s.nextComm;
    *comm = c;
    return r;
}

ncclResult_t ncclCommFinalize(ncclComm_t comm) {
    Stub& s = stub();
    std::unique_lock<std::mutex> lock(s.mutex);
    if (const ncclResult_t r = enter(s, "ncclCommFinalize"); r != ncclSuccess) return r;
    return waitWhile(s, lock, "ncclCommFinalize", [&] { return s.holdFinalize || holdsPlans(s, comm); });
}

ncclResult_t ncclCommDestroy(ncclComm_t comm) {
    Stub& s = stub();
    std::lock_guard<std::mutex> lock(s.mutex);
    const ncclResult_t r = enter(s, "ncclCommDestroy");
    delete comm;
    return r;
}

ncclResult_t ncclCommAbort(ncclComm_t comm) {
    Stub& s = stub();
    std::unique_lock<std::mutex> lock(s.mutex);
    const ncclResult_t r = enter(s, "ncclCommAbort");
    const ncclResult_t waited = waitWhile(s, lock, "ncclCommAbort", [&] { return holdsPlans(s, comm); });
    for (auto& [graph, comms] : s.graphs) comms.erase(comm);
    delete comm;
    return r != ncclSuccess ? r : waited;
}

ncclResult_t ncclCommGetAsyncError(ncclComm_t, ncclResult_t* asyncError) {
    Stub& s = stub();
    std::lock_guard<std::mutex> lock(s.mutex);
    *asyncError = s.asyncError;
    return ncclSuccess;  // polled often: not logged
}

const char* ncclGetErrorString(ncclResult_t result) {
    switch (result) {
        case ncclSuccess:
            return "no error (stub)";
        case ncclInternalError:
            return "internal error (stub)";
        case ncclRemoteError:
            return "remote process exited or there was a network error (stub)";
        default:
            return "error (stub)";
    }
}

const char* ncclGetLastError(ncclComm_t) {
    return "stub NCCL";
}

ncclResult_t ncclAllReduce(const void*, void*, size_t, ncclDataType_t, ncclRedOp_t, ncclComm_t comm,
                           cudaStream_t stream) {
    return collective("ncclAllReduce", comm, stream);
}

ncclResult_t ncclAllGather(const void*, void*, size_t, ncclDataType_t, ncclComm_t comm, cudaStream_t stream) {
    return collective("ncclAllGather", comm, stream);
}

ncclResult_t ncclGroupStart() {
    Stub& s = stub();
    std::lock_guard<std::mutex> lock(s.mutex);
    return enter(s, "ncclGroupStart");
}

ncclResult_t ncclGroupEnd() {
    Stub& s = stub();
    std::lock_guard<std::mutex> lock(s.mutex);
    return enter(s, "ncclGroupEnd");
}

// ---- control (stub_nccl_control.h) ----

void tpscopeStubNcclReset() {
    Stub& s = stub();
    std::lock_guard<std::mutex> lock(s.mutex);
    s.log.clear();
    s.calls.clear();
    s.failures.clear();
    s.asyncError = ncclSuccess;
    s.capturing.clear();
    s.graphs.clear();
    s.holdFinalize = false;
    s.released = false;
    s.maxBlockMs = 5000;
}

std::size_t tpscopeStubNcclCopyLog(char* buffer, std::size_t size) {
    Stub& s = stub();
    std::lock_guard<std::mutex> lock(s.mutex);
    std::string all;
    for (const auto& entry : s.log) all += entry + "\n";
    if (buffer != nullptr && size > 0) {
        const std::size_t n = std::min(size - 1, all.size());
        std::memcpy(buffer, all.data(), n);
        buffer[n] = '\0';
    }
    return all.size();
}

void tpscopeStubNcclFailCall(const char* name, int nth, int result) {
    Stub& s = stub();
    std::lock_guard<std::mutex> lock(s.mutex);
    s.failures[name] = {nth, static_cast<ncclResult_t>(result)};
}

void tpscopeStubNcclSetAsyncError(int result) {
    Stub& s = stub();
    std::lock_guard<std::mutex> lock(s.mutex);
    s.asyncError = static_cast<ncclResult_t>(result);
}

void tpscopeStubNcclBeginCapture(const void* stream, std::uint64_t graph) {
    Stub& s = stub();
    std::lock_guard<std::mutex> lock(s.mutex);
    s.capturing[stream] = graph;
    s.graphs[graph];  // alive from now, holding nothing yet
    s.log.push_back("capture into graph " + std::to_string(graph));
}

void tpscopeStubNcclEndCapture(const void* stream) {
    Stub& s = stub();
    std::lock_guard<std::mutex> lock(s.mutex);
    s.capturing.erase(stream);
}

void tpscopeStubNcclDestroyGraph(std::uint64_t graph) {
    Stub& s = stub();
    std::lock_guard<std::mutex> lock(s.mutex);
    if (s.graphs.erase(graph) != 0) s.log.push_back("graph " + std::to_string(graph) + " destroyed");
    s.changed.notify_all();
}

void tpscopeStubNcclHoldFinalize(int hold) {
    Stub& s = stub();
    std::lock_guard<std::mutex> lock(s.mutex);
    s.holdFinalize = hold != 0;
    s.changed.notify_all();
}

void tpscopeStubNcclRelease() {
    Stub& s = stub();
    std::lock_guard<std::mutex> lock(s.mutex);
    s.released = true;
    s.changed.notify_all();
}

void tpscopeStubNcclSetMaxBlockMs(int ms) {
    Stub& s = stub();
    std::lock_guard<std::mutex> lock(s.mutex);
    s.maxBlockMs = ms;
}

int tpscopeStubNcclBlockedCalls() {
    Stub& s = stub();
    std::lock_guard<std::mutex> lock(s.mutex);
    return s.blocked;
}

}  // extern "C"
