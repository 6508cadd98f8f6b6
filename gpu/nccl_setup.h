// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// How the backend sets NCCL up, in one place so it is tested without a GPU (only nccl.h is needed):
//
// - Communicators are blocking. With blocking = 0 NCCL enqueues each collective from a thread of its
//   own and returns ncclInProgress: every all-reduce then costs a thread hand-off plus a polling
//   sleep (the step becomes launch-bound, its time wrong), and CUPTI's external correlation ids,
//   which are per thread, no longer reach NCCL's kernels (they lose op tag and message bytes). A
//   blocking communicator may be aborted only from its owning thread between calls (owned_comm.h).
// - What keeps NCCL's own NVTX ranges out of the step > layer > block depths is the decoder: it
//   skips every NVTX domain but the default one (NCCL's ranges are in its "NCCL" domain).
//   NCCL_NVTX_DISABLE=1 (unless the user set it) only saves their cost, and only where NCCL reads it:
//   the variable exists from NCCL 2.28.3; older releases ignore it and emit their ranges anyway.
//   prepareNcclEnvironment() runs on every process of a launch before its first NCCL call.
// - Peers connect inside ncclCommInitRankConfig (NCCL_RUNTIME_CONNECT=0 unless set), so every wait
//   on a peer is in init or finalize, the calls a capture enters only once every rank will
//   (owned_comm.h: a blocking communicator is aborted only by its owning thread, between calls).
// - Memory headroom per GPU beyond the plan's buffers: CUDA context, cuBLAS and graphs at TP 1; at
//   TP >= 2 also NCCL's channel buffers and NVLS's. NVLS (transport/nvls.cc) allocates
//   nChannels x 2 x buffSize x nHeads per GPU; with the most channels NCCL uses on NVSwitch systems
//   (32) and 4 MiB SIMPLE buffers that is 256 MiB per rank of the communicator (2 GiB at TP 8).

#include <nccl.h>

#include <cstdint>

namespace tpscope::gpu {

ncclConfig_t blockingCommConfig();
// Call before the first NCCL call of the process (NCCL reads its parameters once).
void prepareNcclEnvironment();
std::uint64_t deviceHeadroomBytes(int tp);

}  // namespace tpscope::gpu
