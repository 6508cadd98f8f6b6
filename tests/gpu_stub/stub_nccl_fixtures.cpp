// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include <dlfcn.h>

#include <cstdlib>
#include <sstream>

#include "gpu/nccl_loader.h"
#include "stub_nccl.h"

namespace tpscope::test {

namespace {

template <class F>
void find(void* library, const char* name, F& out, std::string& error) {
    out = reinterpret_cast<F>(dlsym(library, name));
    if (out == nullptr && error.empty()) error = std::string("the stub has no ") + name;
}

StubNccl load() {
    StubNccl s;
    // Before the loader's first (and only) dlopen of the process.
    ::setenv("TPSCOPE_NCCL_LIBRARY", TPSCOPE_STUB_NCCL_PATH, 1);
    if (auto loaded = gpu::loadNccl(); !loaded) {
        s.error = loaded.error().describe();
        return s;
    }
    // The library the loader opened (RTLD_NOLOAD: no second copy).
    void* library = dlopen(TPSCOPE_STUB_NCCL_PATH, RTLD_NOW | RTLD_NOLOAD);
    if (library == nullptr) {
        s.error = "the loader did not open " TPSCOPE_STUB_NCCL_PATH;
        return s;
    }
    find(library, "tpscopeStubNcclReset", s.reset, s.error);
    find(library, "tpscopeStubNcclCopyLog", s.copyLog, s.error);
    find(library, "tpscopeStubNcclFailCall", s.failCall, s.error);
    find(library, "tpscopeStubNcclSetAsyncError", s.setAsyncError, s.error);
    find(library, "tpscopeStubNcclBeginCapture", s.beginCapture, s.error);
    find(library, "tpscopeStubNcclEndCapture", s.endCapture, s.error);
    find(library, "tpscopeStubNcclDestroyGraph", s.destroyGraph, s.error);
    find(library, "tpscopeStubNcclHoldFinalize", s.holdFinalize, s.error);
    find(library, "tpscopeStubNcclRelease", s.release, s.error);
    find(library, "tpscopeStubNcclSetMaxBlockMs", s.setMaxBlockMs, s.error);
    find(library, "tpscopeStubNcclBlockedCalls", s.blockedCalls, s.error);
    return s;
}

}  // namespace

const StubNccl& StubNccl::get() {
    static const StubNccl stub = load();
    return stub;
}

std::vector<std::string> StubNccl::log() const {
    std::string text(copyLog(nullptr, 0) + 1, '\0');
    text.resize(copyLog(text.data(), text.size()));
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

void StubNcclTest::SetUp() {
    ASSERT_TRUE(stub().error.empty()) << stub().error;
    stub().reset();
}

}  // namespace tpscope::test
