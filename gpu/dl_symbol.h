// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// One entry point of a library loaded with dlopen (cublas_loader.cpp, nccl_loader.cpp): the first
// symbol missing is remembered in `error`, so a partial library is refused with its name.

#include <dlfcn.h>

#include <string>

namespace tpscope::gpu {

template <class F>
void findSymbol(void* library, const char* symbol, F& target, std::string& error) {
    target = reinterpret_cast<F>(dlsym(library, symbol));
    if (target == nullptr && error.empty()) error = std::string("no ") + symbol + " in the library";
}

}  // namespace tpscope::gpu
