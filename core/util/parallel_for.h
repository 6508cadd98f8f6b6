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

namespace detail {

// body(i, worker) for every i in [0, count); worker in [0, workers) names the thread running it (the
// calling thread is worker 0), so per-worker state needs no lock.
template <typename Body>
void runOnWorkers(std::size_t count, unsigned workers, Body&& body) {
    if (workers <= 1) {
        for (std::size_t i = 0; i < count; ++i) body(i, 0u);
        return;
    }
    std::atomic<std::size_t> next{0};
    std::atomic<bool> failed{false};
    std::exception_ptr error;
    std::mutex errorMutex;
    auto work = [&](unsigned worker) {
        for (std::size_t i = next++; i < count && !failed.load(std::memory_order_relaxed); i = next++) {
            try {
                body(i, worker);
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
            pool.emplace_back(work, t);
        } catch (const std::system_error&) {
            break;  // no more threads to be had: the ones running (and this one) do the rest
        }
    }
    work(0);
    pool.clear();  // joins
    if (error) std::rethrow_exception(error);
}

}  // namespace detail

template <typename Body>
void parallelFor(std::size_t count, unsigned threads, Body&& body) {
    detail::runOnWorkers(count, resolveThreadCount(threads, count), [&](std::size_t i, unsigned) { body(i); });
}

// parallelFor with one Scratch (default-constructed) per worker thread, handed to every item that
// worker runs: body(i, scratch). Buffers kept in it from item to item (a rank's lookup table or
// interval lists) reuse their pages: a large block freed and allocated again per item is unmapped
// and faulted in afresh each time (~3 µs a 4 KB page), which at 100 M events cost more system time
// than the work itself. The scratch lives until the call returns; the body must not let an item's
// result depend on what an earlier item left in it.
template <typename Scratch, typename Body>
void parallelForWithScratch(std::size_t count, unsigned threads, Body&& body) {
    const unsigned workers = resolveThreadCount(threads, count);
    std::vector<Scratch> scratch(workers);
    detail::runOnWorkers(count, workers, [&](std::size_t i, unsigned worker) { body(i, scratch[worker]); });
}

}  // namespace tpscope::core
