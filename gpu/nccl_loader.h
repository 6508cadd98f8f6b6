// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// NCCL is loaded on first use (dlopen), not linked, as cuBLAS is (cublas_loader.h): a TP 1 capture,
// `devices` and every command that runs no collective then start on a machine that has the driver
// and cuBLAS but no NCCL, and no process pays for loading libnccl until it needs it.
//
// nccl_loader.cpp defines the NCCL entry points tpscope calls (ncclGetUniqueId,
// ncclCommInitRankConfig, ncclCommFinalize, ncclCommDestroy, ncclCommAbort, ncclCommGetAsyncError,
// ncclGetErrorString, ncclGetLastError, ncclAllReduce, ncclAllGather, ncclGroupStart,
// ncclGroupEnd) with NCCL's own signatures; each forwards to the loaded library, so the calling code
// is the same as with a linked NCCL. They are weak, so that a test binary can replace one with a
// spy. A new NCCL call needs its forwarder there.

#include "core/util/result.h"

namespace tpscope::gpu {

// Loads libnccl.so.2 once (the library path, then the executable's RUNPATH), or the library the
// environment variable TPSCOPE_NCCL_LIBRARY names (a path or a soname; the host tests' stub NCCL,
// tests/stub_nccl). Fails with
// "NCCL not found: <the loader's reason>" when it cannot; a forwarder called then returns
// ncclSystemError, and ncclGetErrorString names the reason.
core::Status loadNccl();

}  // namespace tpscope::gpu
