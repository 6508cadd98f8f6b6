// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "gpu/hang_watchdog.h"

namespace tpscope::gpu {

HangWatchdog::HangWatchdog(std::string who, std::chrono::milliseconds timeout, std::function<void()> onHang,
                           const std::atomic<bool>* stop, std::chrono::milliseconds pollMs)
    : m_who(std::move(who)), m_timeout(timeout), m_onHang(std::move(onHang)), m_stop(stop), m_poll(pollMs) {
    m_thread = std::thread([this] { run(); });
}

HangWatchdog::~HangWatchdog() {
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_quit = true;
    }
    m_wake.notify_all();
    m_thread.join();
}

HangWatchdog::Watch HangWatchdog::watch(std::string what) {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_armed = true;
    m_what = std::move(what);
    m_deadline = std::chrono::steady_clock::now() + m_timeout;
    return Watch(this);
}

HangWatchdog::Watch::~Watch() {
    if (m_dog != nullptr) m_dog->disarm();
}

void HangWatchdog::disarm() {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_armed = false;
}

std::optional<std::string> HangWatchdog::fired() const {
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_fired;
}

void HangWatchdog::run() {
    std::unique_lock<std::mutex> lock(m_mutex);
    while (!m_quit) {
        m_wake.wait_for(lock, m_poll, [this] { return m_quit; });
        if (m_quit || !m_armed) continue;
        if (!m_fired) {
            if (m_stop != nullptr && m_stop->load()) {
                m_fired = m_who + ": " + m_what + " stopped because another rank failed";
            } else if (std::chrono::steady_clock::now() > m_deadline) {
                m_fired = m_who + ": " + m_what + " did not finish within " + std::to_string(m_timeout.count()) +
                          " ms (a rank missing or hung?); communicator aborted";
            } else {
                continue;
            }
        }
        // Again at every poll until the watched call returns: a blocking init may not have stored the
        // communicator yet the first time (onHang must be idempotent).
        // Outside the lock: the abort makes the watched call return, and its guard then disarms.
        lock.unlock();
        if (m_onHang) m_onHang();
        lock.lock();
    }
}

}  // namespace tpscope::gpu
