// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Runs body(i) for every i in [0, count) on up to `threads` threads (the calling thread is one of
// them), each index exactly once, in no fixed order across threads. Used where the items are
// independent and each writes only its own slot of a pre-sized output (the analysis per rank), so
// the result does not depend on the thread count. threads == 0: std::thread::hardware_concurrency().
// An exception thrown by a body (std::bad_alloc) stops the remaining indices and is rethrown on the
// calling thread after every worker has joined, as the serial loop would have thrown it; with
// several, the first one caught is kept.
// Cost: one std::thread per extra worker per call (tens of µs), so call it for coarse items only.

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

namespace tpscope::core {

inline unsigned resolveThreadCount(unsigned threads, std::size_t items) {
    const unsigned wanted = threads != 0 ? threads : std::max(1u, std::thread::hardware_concurrency());
    return static_cast<unsigned>(std::max<std::size_t>(1, std::min<std::size_t>(wanted, items)));
}

template <typename Body>
void parallelFor(std::size_t count, unsigned threads, Body&& body) {
    const unsigned workers = resolveThreadCount(threads, count);
    if (workers <= 1) {
        for (std::size_t i = 0; i < count; ++i) body(i);
        return;
    }
    std::atomic<std::size_t> next{0};
    std::atomic<bool> failed{false};
    std::exception_ptr error;
    std::mutex errorMutex;
    auto work = [&] {
        for (std::size_t i = next++; i < count && !failed.load(std::memory_order_relaxed); i = next++) {
            try {
                body(i);
            } catch (...) {
                const std::lock_guard lock(errorMutex);
                if (!error) error = std::current_exception();
                failed = true;
            }
        }
    };
    std::vector<std::jthread> pool;
    pool.reserve(workers - 1);
    for (unsigned t = 1; t < workers; ++t) {
        try {
            pool.emplace_back(work);
        } catch (const std::system_error&) {
            break;  // no more threads to be had: the ones running (and this one) do the rest
        }
    }
    work();
    pool.clear();  // joins
    if (error) std::rethrow_exception(error);
}

}  // namespace tpscope::core
