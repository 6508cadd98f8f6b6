// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// A barrier that any party can break (abort): the per-GPU threads of a capture and of
// `allreduce --measure` meet at it between phases, and a thread that fails breaks it, so the others
// stop instead of waiting for it for ever. Free of CUDA.

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>

namespace tpscope::gpu {

class PhaseBarrier {
  public:
    explicit PhaseBarrier(int parties) : m_parties(parties) {}
    // False once any party has aborted. poll (a waiting main thread): called every few ms.
    bool arriveAndWait(const std::function<void()>& poll = {}) {
        std::unique_lock<std::mutex> lock(m_mutex);
        if (m_aborted) return false;
        const int generation = m_generation;
        if (++m_arrived == m_parties) {
            m_arrived = 0;
            ++m_generation;
            m_cv.notify_all();
            return true;
        }
        const auto passed = [&] { return m_generation != generation || m_aborted; };
        while (!m_cv.wait_for(lock, std::chrono::milliseconds(5), passed)) {
            if (!poll) continue;
            lock.unlock();
            poll();  // may call abort()
            lock.lock();
        }
        return !m_aborted;
    }
    void abort() {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_aborted = true;
        m_cv.notify_all();
    }
    bool aborted() const {
        std::lock_guard<std::mutex> lock(m_mutex);
        return m_aborted;
    }

  private:
    mutable std::mutex m_mutex;
    std::condition_variable m_cv;
    int m_parties;
    int m_arrived = 0;
    int m_generation = 0;
    bool m_aborted = false;
};

}  // namespace tpscope::gpu
