// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "gpu/nccl_setup.h"

#include <cstdlib>

namespace tpscope::gpu {

namespace {

constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;
constexpr std::uint64_t kRuntimeHeadroom = 256 * kMiB;     // CUDA context, cuBLAS handles, graph upload
constexpr std::uint64_t kNcclChannelBuffers = 768 * kMiB;  // ring/tree peers x 32 channels x ~10 MiB (all protocols)
constexpr std::uint64_t kNvlsPerRank = 32 * 2 * 4 * kMiB;  // nChannels x 2 x SIMPLE buffSize, per head

}  // namespace

ncclConfig_t blockingCommConfig() {
    ncclConfig_t config = NCCL_CONFIG_INITIALIZER;
    config.blocking = 1;
    return config;
}

void prepareNcclEnvironment() {
    ::setenv("NCCL_NVTX_DISABLE", "1", /*overwrite=*/0);
    // Peers connect inside ncclCommInitRankConfig, not at the first collective (NCCL >= 2.22 reads
    // it; older releases connect at init anyway): every wait on a peer is then in init or finalize,
    // the two calls the capture enters only once every rank is known to (owned_comm.h).
    ::setenv("NCCL_RUNTIME_CONNECT", "0", /*overwrite=*/0);
}

std::uint64_t deviceHeadroomBytes(int tp) {
    if (tp <= 1) return kRuntimeHeadroom;  // no NCCL at TP 1
    return kRuntimeHeadroom + kNcclChannelBuffers + kNvlsPerRank * static_cast<std::uint64_t>(tp);
}

}  // namespace tpscope::gpu
