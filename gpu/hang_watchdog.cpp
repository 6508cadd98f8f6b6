// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "gpu/hang_watchdog.h"

#include <cstdio>
#include <cstdlib>

namespace tpscope::gpu {

HangWatchdog::HangWatchdog(std::string who, std::chrono::milliseconds timeout,
                           std::function<void(const std::string&)> onHang, const std::atomic<bool>* stop,
                           std::chrono::milliseconds pollMs, std::chrono::milliseconds stopGrace)
    : m_who(std::move(who)),
      m_timeout(timeout),
      m_onHang(std::move(onHang)),
      m_stop(stop),
      m_poll(pollMs),
      m_stopGrace(std::min(stopGrace, timeout)) {
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
    bool stopSeen = false;
    while (!m_quit) {
        m_wake.wait_for(lock, m_poll, [this] { return m_quit; });
        if (m_quit || !m_armed) {
            stopSeen = false;
            continue;
        }
        const auto now = std::chrono::steady_clock::now();
        if (!m_fired) {
            if (m_stop != nullptr && m_stop->load() && !stopSeen) {
                stopSeen = true;  // a peer is gone: the call gets a grace period, not the full timeout
                m_deadline = std::min(m_deadline, now + m_stopGrace);
            }
            if (now <= m_deadline) continue;
            m_fired = m_who + ": " + m_what + " did not finish within " +
                      std::to_string((stopSeen ? m_stopGrace : m_timeout).count()) + " ms" +
                      (stopSeen ? " after another rank failed" : " (a rank missing or hung?)");
        }
        // Outside the lock: a test's onHang unblocks the watched call, whose guard then disarms.
        const std::string reason = *m_fired;
        lock.unlock();
        if (m_onHang) m_onHang(reason);
        lock.lock();
    }
}

void endProcessWithReason(const std::string& reason) {
    std::fprintf(stderr,
                 "tpscope-cli: %s; a blocking NCCL call cannot be aborted from another thread, so the process "
                 "ends here\n",
                 reason.c_str());
    std::fflush(stderr);
    std::_Exit(3);
}

}  // namespace tpscope::gpu
