// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The CUDA implementation of core::Backend: device listing through the CUDA runtime and runs
// through gpu::runCapture (one process, all tp GPUs of this host). No CUDA header here, so
// executables register it without seeing CUDA.

#include <memory>

#include "core/backend/backend.h"

namespace tpscope::gpu {

std::shared_ptr<core::Backend> makeLocalBackend();

}  // namespace tpscope::gpu
