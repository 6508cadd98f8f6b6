// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "gpu/cublas_loader.h"

#include <cublas_v2.h>
#include <dlfcn.h>

#include <string>

#include "gpu/dl_symbol.h"

#define TPSCOPE_CUBLAS_TEXT2(x) #x
#define TPSCOPE_CUBLAS_TEXT(x) TPSCOPE_CUBLAS_TEXT2(x)

namespace tpscope::gpu {

namespace {

struct CublasLibrary {
    std::string error;  // empty when every entry point was found
    decltype(&::cublasCreate_v2) create = nullptr;
    decltype(&::cublasDestroy_v2) destroy = nullptr;
    decltype(&::cublasSetStream_v2) setStream = nullptr;
    decltype(&::cublasSetWorkspace_v2) setWorkspace = nullptr;
    // cublas_api.h overloads cublasGemmEx (a C++ wrapper taking cudaDataType as compute type).
    cublasStatus_t(CUBLASWINAPI* gemmEx)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int,
                                         const void*, const void*, cudaDataType, int, const void*, cudaDataType, int,
                                         const void*, void*, cudaDataType, int, cublasComputeType_t,
                                         cublasGemmAlgo_t) = nullptr;
    decltype(&::cublasGetStatusName) statusName = nullptr;
    decltype(&::cublasGetStatusString) statusString = nullptr;
};

CublasLibrary open() {
    CublasLibrary c;
    const char* soname = "libcublas.so." TPSCOPE_CUBLAS_TEXT(TPSCOPE_CUDA_TOOLKIT_MAJOR);
    void* library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);  // kept open for the process's life
    if (library == nullptr) {
        const char* why = dlerror();
        c.error = why != nullptr ? why : soname;
        return c;
    }
    findSymbol(library, "cublasCreate_v2", c.create, c.error);
    findSymbol(library, "cublasDestroy_v2", c.destroy, c.error);
    findSymbol(library, "cublasSetStream_v2", c.setStream, c.error);
    findSymbol(library, "cublasSetWorkspace_v2", c.setWorkspace, c.error);
    findSymbol(library, "cublasGemmEx", c.gemmEx, c.error);
    findSymbol(library, "cublasGetStatusName", c.statusName, c.error);
    findSymbol(library, "cublasGetStatusString", c.statusString, c.error);
    return c;
}

const CublasLibrary& cublas() {
    static const CublasLibrary library = open();
    return library;
}

}  // namespace

core::Status loadCublas() {
    if (cublas().error.empty()) return core::Ok{};
    return core::makeError(core::ErrorCode::DeviceError, "cuBLAS not found: " + cublas().error,
                           "libcublas.so." TPSCOPE_CUBLAS_TEXT(TPSCOPE_CUDA_TOOLKIT_MAJOR));
}

}  // namespace tpscope::gpu

// The forwarders: a call before the library loaded (or without it) fails as "not initialized".
extern "C" {

cublasStatus_t CUBLASWINAPI cublasCreate_v2(cublasHandle_t* handle) {
    const auto& c = tpscope::gpu::cublas();
    return c.create != nullptr ? c.create(handle) : CUBLAS_STATUS_NOT_INITIALIZED;
}

cublasStatus_t CUBLASWINAPI cublasDestroy_v2(cublasHandle_t handle) {
    const auto& c = tpscope::gpu::cublas();
    return c.destroy != nullptr ? c.destroy(handle) : CUBLAS_STATUS_NOT_INITIALIZED;
}

cublasStatus_t CUBLASWINAPI cublasSetStream_v2(cublasHandle_t handle, cudaStream_t stream) {
    const auto& c = tpscope::gpu::cublas();
    return c.setStream != nullptr ? c.setStream(handle, stream) : CUBLAS_STATUS_NOT_INITIALIZED;
}

cublasStatus_t CUBLASWINAPI cublasSetWorkspace_v2(cublasHandle_t handle, void* workspace, size_t bytes) {
    const auto& c = tpscope::gpu::cublas();
    return c.setWorkspace != nullptr ? c.setWorkspace(handle, workspace, bytes) : CUBLAS_STATUS_NOT_INITIALIZED;
}

cublasStatus_t CUBLASWINAPI cublasGemmEx(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,
                                         int m, int n, int k, const void* alpha, const void* A, cudaDataType Atype,
                                         int lda, const void* B, cudaDataType Btype, int ldb, const void* beta, void* C,
                                         cudaDataType Ctype, int ldc, cublasComputeType_t computeType,
                                         cublasGemmAlgo_t algo) {
    const auto& c = tpscope::gpu::cublas();
    if (c.gemmEx == nullptr) return CUBLAS_STATUS_NOT_INITIALIZED;
    return c.gemmEx(handle, transa, transb, m, n, k, alpha, A, Atype, lda, B, Btype, ldb, beta, C, Ctype, ldc,
                    computeType, algo);
}

const char* CUBLASWINAPI cublasGetStatusName(cublasStatus_t status) {
    const auto& c = tpscope::gpu::cublas();
    return c.statusName != nullptr ? c.statusName(status) : "CUBLAS_STATUS_NOT_INITIALIZED";
}

const char* CUBLASWINAPI cublasGetStatusString(cublasStatus_t status) {
    const auto& c = tpscope::gpu::cublas();
    return c.statusString != nullptr ? c.statusString(status) : "cuBLAS library not loaded";
}

}  // extern "C"
