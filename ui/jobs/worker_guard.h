// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The last line of every worker thread (sweep, open, what-if): an exception that escapes the work
// (std::bad_alloc on a trace larger than memory, a bug) becomes the job's error, shown in the window's
// error banner, instead of reaching std::terminate on a thread nobody joins in time (DESIGN.md §8
// "an exception on a worker becomes failed"). core returns errors as values; this catches the rest.

#include <exception>
#include <new>
#include <string>

#include "core/util/result.h"

namespace tpscope::ui {

// What the current exception says, for a user: "out of memory: ..." or "internal error: what()".
inline core::Error currentExceptionError(const std::string& context) {
    try {
        throw;
    } catch (const std::bad_alloc&) {
        return core::makeError(core::ErrorCode::Internal, "out of memory: the work needs more memory than is available",
                               context);
    } catch (const std::exception& e) {
        return core::makeError(core::ErrorCode::Internal, std::string("internal error: ") + e.what(), context);
    } catch (...) {
        return core::makeError(core::ErrorCode::Internal, "internal error: an unknown exception", context);
    }
}

// work() returning core::Result<T> or core::Status; an exception it throws becomes its error.
template <typename Work>
auto guardWorker(Work&& work, const std::string& context) -> decltype(work()) {
    try {
        return work();
    } catch (...) {
        return currentExceptionError(context);
    }
}

}  // namespace tpscope::ui
