// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "gpu/nccl_loader.h"

#include <dlfcn.h>
#include <nccl.h>

#include <cstdlib>
#include <string>

#include "gpu/dl_symbol.h"

namespace tpscope::gpu {

namespace {

struct NcclLibrary {
    std::string error;      // empty when every entry point was found
    std::string notLoaded;  // what ncclGetErrorString says when the library is missing
    decltype(&::ncclGetUniqueId) getUniqueId = nullptr;
    decltype(&::ncclCommInitRankConfig) commInitRankConfig = nullptr;
    decltype(&::ncclCommFinalize) commFinalize = nullptr;
    decltype(&::ncclCommDestroy) commDestroy = nullptr;
    decltype(&::ncclCommAbort) commAbort = nullptr;
    decltype(&::ncclCommGetAsyncError) commGetAsyncError = nullptr;
    decltype(&::ncclGetErrorString) getErrorString = nullptr;
    decltype(&::ncclGetLastError) getLastError = nullptr;
    decltype(&::ncclAllReduce) allReduce = nullptr;
    decltype(&::ncclAllGather) allGather = nullptr;
    decltype(&::ncclGroupStart) groupStart = nullptr;
    decltype(&::ncclGroupEnd) groupEnd = nullptr;
};

NcclLibrary open() {
    NcclLibrary n;
    // TPSCOPE_NCCL_LIBRARY: a path (or soname) instead of the search path's libnccl.so.2 (the host
    // tests load a stub NCCL this way).
    const char* chosen = std::getenv("TPSCOPE_NCCL_LIBRARY");
    const char* soname = chosen != nullptr && *chosen != '\0' ? chosen : "libnccl.so.2";
    void* library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);  // kept open for the process's life
    if (library == nullptr) {
        const char* why = dlerror();
        n.error = why != nullptr ? why : soname;
    } else {
        findSymbol(library, "ncclGetUniqueId", n.getUniqueId, n.error);
        findSymbol(library, "ncclCommInitRankConfig", n.commInitRankConfig, n.error);
        findSymbol(library, "ncclCommFinalize", n.commFinalize, n.error);
        findSymbol(library, "ncclCommDestroy", n.commDestroy, n.error);
        findSymbol(library, "ncclCommAbort", n.commAbort, n.error);
        findSymbol(library, "ncclCommGetAsyncError", n.commGetAsyncError, n.error);
        findSymbol(library, "ncclGetErrorString", n.getErrorString, n.error);
        findSymbol(library, "ncclGetLastError", n.getLastError, n.error);
        findSymbol(library, "ncclAllReduce", n.allReduce, n.error);
        findSymbol(library, "ncclAllGather", n.allGather, n.error);
        findSymbol(library, "ncclGroupStart", n.groupStart, n.error);
        findSymbol(library, "ncclGroupEnd", n.groupEnd, n.error);
    }
    n.notLoaded = "NCCL not found: " + n.error;
    return n;
}

}  // namespace

const NcclLibrary& nccl() {
    static const NcclLibrary library = open();
    return library;
}

core::Status loadNccl() {
    if (nccl().error.empty()) return core::Ok{};
    return core::makeError(core::ErrorCode::DeviceError, nccl().notLoaded + " (TP >= 2 and all-reduces need NCCL 2)",
                           "libnccl.so.2");
}

}  // namespace tpscope::gpu

// The forwarders: without the library (or one of its entry points) every call fails as a system
// error, and the error string says why.
#define TPSCOPE_NCCL_FORWARD(member, ...) \
    const auto& n = tpscope::gpu::nccl(); \
    return n.member != nullptr ? n.member(__VA_ARGS__) : ncclSystemError

extern "C" {

__attribute__((weak)) ncclResult_t ncclGetUniqueId(ncclUniqueId* uniqueId) {
    TPSCOPE_NCCL_FORWARD(getUniqueId, uniqueId);
}

__attribute__((weak)) ncclResult_t ncclCommInitRankConfig(ncclComm_t* comm, int nranks, ncclUniqueId commId, int rank,
                                                          ncclConfig_t* config) {
    TPSCOPE_NCCL_FORWARD(commInitRankConfig, comm, nranks, commId, rank, config);
}

__attribute__((weak)) ncclResult_t ncclCommFinalize(ncclComm_t comm) {
    TPSCOPE_NCCL_FORWARD(commFinalize, comm);
}

__attribute__((weak)) ncclResult_t ncclCommDestroy(ncclComm_t comm) {
    TPSCOPE_NCCL_FORWARD(commDestroy, comm);
}

__attribute__((weak)) ncclResult_t ncclCommAbort(ncclComm_t comm) {
    TPSCOPE_NCCL_FORWARD(commAbort, comm);
}

__attribute__((weak)) ncclResult_t ncclCommGetAsyncError(ncclComm_t comm, ncclResult_t* asyncError) {
    TPSCOPE_NCCL_FORWARD(commGetAsyncError, comm, asyncError);
}

__attribute__((weak)) ncclResult_t ncclAllReduce(const void* sendbuff, void* recvbuff, size_t count,
                                                 ncclDataType_t datatype, ncclRedOp_t op, ncclComm_t comm,
                                                 cudaStream_t stream) {
    TPSCOPE_NCCL_FORWARD(allReduce, sendbuff, recvbuff, count, datatype, op, comm, stream);
}

__attribute__((weak)) ncclResult_t ncclAllGather(const void* sendbuff, void* recvbuff, size_t sendcount,
                                                 ncclDataType_t datatype, ncclComm_t comm, cudaStream_t stream) {
    TPSCOPE_NCCL_FORWARD(allGather, sendbuff, recvbuff, sendcount, datatype, comm, stream);
}

__attribute__((weak)) ncclResult_t ncclGroupStart() {
    TPSCOPE_NCCL_FORWARD(groupStart);
}

__attribute__((weak)) ncclResult_t ncclGroupEnd() {
    TPSCOPE_NCCL_FORWARD(groupEnd);
}

__attribute__((weak)) const char* ncclGetErrorString(ncclResult_t result) {
    const auto& n = tpscope::gpu::nccl();
    return n.getErrorString != nullptr ? n.getErrorString(result) : n.notLoaded.c_str();
}

__attribute__((weak)) const char* ncclGetLastError(ncclComm_t comm) {
    const auto& n = tpscope::gpu::nccl();
    return n.getLastError != nullptr ? n.getLastError(comm) : n.notLoaded.c_str();
}

}  // extern "C"
