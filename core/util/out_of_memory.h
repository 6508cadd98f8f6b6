// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Allocation failure as an error: importers read files from other people, and a file that needs
// more memory than the machine has must end in one clear message, not std::terminate. Used at the
// top of each import (one file, one workspace), where everything allocated is released on unwind.

#include <new>
#include <string>
#include <type_traits>

#include "core/util/result.h"

namespace tpscope::core {

// f() returns a Result<T> or Status; std::bad_alloc inside it becomes an IoError naming `context`.
template <typename F>
auto withAllocationErrors(F&& f, const std::string& context) -> std::invoke_result_t<F> {
    try {
        return f();
    } catch (const std::bad_alloc&) {
        return makeError(ErrorCode::IoError,
                         "out of memory: reading this file needs more memory than is available (a huge or "
                         "crafted input?)",
                         context);
    }
}

}  // namespace tpscope::core
