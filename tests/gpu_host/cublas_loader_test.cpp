// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// cuBLAS is loaded at run time (gpu/cublas_loader.h), not linked: the loader must find the toolkit's
// library, and the entry points tpscope defines must reach it. No GPU needed.

#include <gtest/gtest.h>

#include <cublas_v2.h>

#include <cstdio>
#include <string>

#include "gpu/cublas_loader.h"

namespace tpscope::gpu {
namespace {

TEST(CublasLoader, FindsTheToolkitsLibraryAndForwardsCallsToIt) {
    const auto loaded = loadCublas();
    ASSERT_TRUE(loaded) << loaded.error().describe();
    // Answered by the library itself: without it the forwarder names every status "not initialized".
    EXPECT_EQ(std::string(cublasGetStatusName(CUBLAS_STATUS_ALLOC_FAILED)), "CUBLAS_STATUS_ALLOC_FAILED");
    EXPECT_NE(std::string(cublasGetStatusString(CUBLAS_STATUS_ALLOC_FAILED)), "cuBLAS library not loaded");
}

TEST(CublasLoader, TheCliLinksNeitherCublasNorNcclNorASharedCudaRuntime) {
    // Linked, libcublasLt's start-up alone made every tpscope-cli command ~210 MB resident. NCCL is
    // loaded when a collective needs it and the runtime is static, so TP 1 and `devices` run on a
    // machine with the driver and cuBLAS alone.
    std::FILE* pipe = popen(("ldd " + std::string(TPSCOPE_CLI_PATH) + " 2>&1").c_str(), "r");
    ASSERT_NE(pipe, nullptr);
    std::string deps;
    char buf[4096];
    while (const std::size_t n = std::fread(buf, 1, sizeof buf, pipe)) deps.append(buf, n);
    ASSERT_EQ(pclose(pipe), 0) << deps;
    EXPECT_NE(deps.find("libcupti"), std::string::npos) << deps;  // the CUDA backend is in this CLI
    EXPECT_EQ(deps.find("libcublas"), std::string::npos) << deps;
    EXPECT_EQ(deps.find("libnccl"), std::string::npos) << deps;
    EXPECT_EQ(deps.find("libcudart"), std::string::npos) << deps;
}

}  // namespace
}  // namespace tpscope::gpu
