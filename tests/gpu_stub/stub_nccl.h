// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The stub NCCL (tests/stub_nccl) as the tests see it: gpu/nccl_loader opens it (TPSCOPE_NCCL_LIBRARY,
// set before the first NCCL call of the process), and its control functions are looked up in that
// same library. StubNcclTest resets it before each test.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "stub_nccl/stub_nccl_control.h"

namespace tpscope::test {

struct StubNccl {
    decltype(&tpscopeStubNcclReset) reset = nullptr;
    decltype(&tpscopeStubNcclCopyLog) copyLog = nullptr;
    decltype(&tpscopeStubNcclFailCall) failCall = nullptr;
    decltype(&tpscopeStubNcclSetAsyncError) setAsyncError = nullptr;
    decltype(&tpscopeStubNcclBeginCapture) beginCapture = nullptr;
    decltype(&tpscopeStubNcclEndCapture) endCapture = nullptr;
    decltype(&tpscopeStubNcclDestroyGraph) destroyGraph = nullptr;
    decltype(&tpscopeStubNcclHoldFinalize) holdFinalize = nullptr;
    decltype(&tpscopeStubNcclRelease) release = nullptr;
    decltype(&tpscopeStubNcclSetMaxBlockMs) setMaxBlockMs = nullptr;
    decltype(&tpscopeStubNcclBlockedCalls) blockedCalls = nullptr;
    std::string error;  // why the stub could not be loaded

    // Loaded once per process, through gpu/nccl_loader.
    static const StubNccl& get();
    std::vector<std::string> log() const;
};

class StubNcclTest : public ::testing::Test {
  protected:
    void SetUp() override;
    const StubNccl& stub() const { return StubNccl::get(); }
};

}  // namespace tpscope::test
