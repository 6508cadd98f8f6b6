// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Device tests skip, with the reason, where there is no CUDA device (ctest label "gpu").

#include <gtest/gtest.h>

#include "core/workload/model.h"
#include "gpu/device_query.h"
#include "support/small_model.h"

#define TPSCOPE_REQUIRE_CUDA_DEVICE(count)                                                            \
    do {                                                                                              \
        auto tpscopeDevices = ::tpscope::gpu::listDevices();                                          \
        if (!tpscopeDevices) GTEST_SKIP() << tpscopeDevices.error().message;                          \
        if (static_cast<int>(tpscopeDevices->size()) < (count)) {                                     \
            GTEST_SKIP() << "needs " << (count) << " CUDA devices, found " << tpscopeDevices->size(); \
        }                                                                                             \
    } while (0)

namespace tpscope::test {

// A small Llama-shaped model: a capture of it takes well under a second.
inline core::ModelSpec tinyModel() {
    return customModel({.hidden = 512, .ffn = 1024, .heads = 8, .kvHeads = 4, .layers = 3, .vocab = 4096});
}

}  // namespace tpscope::test
