// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// cuBLAS is loaded on first use (dlopen), not linked. Linking it costs every process that starts,
// GPU or not, ~210 MB resident and ~0.1 s: libcublasLt's static initialisers touch its tables
// (measured in docs/PERFORMANCE.md, "Files"). Most tpscope commands never run a GEMM on a GPU.
//
// cublas_loader.cpp defines the few cuBLAS entry points tpscope calls (cublasCreate_v2,
// cublasDestroy_v2, cublasSetStream_v2, cublasSetWorkspace_v2, cublasGemmEx, cublasGetStatusName,
// cublasGetStatusString) with cuBLAS's own signatures; each forwards to the loaded library, so the
// calling code is the same as with a linked cuBLAS. A new cuBLAS call needs its forwarder there.

#include "core/util/result.h"

namespace tpscope::gpu {

// Loads libcublas.so.<toolkit major> once (the library path, then the executable's RUNPATH).
// Fails with "cuBLAS not found: <the loader's reason>" when it cannot.
core::Status loadCublas();

}  // namespace tpscope::gpu
