// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// A watchdog for blocking calls (NCCL on a blocking communicator): while a watched call runs, a
// background thread checks every pollMs whether it has passed its deadline; if so it keeps the
// reason, naming the call, and runs onHang, again at every poll until the call returns (so onHang
// must be idempotent). When another rank has failed (stop) the deadline shortens to a grace period:
// the blocked call usually returns with an error of its own once its peer is gone.
//
// onHang is a last resort, never ncclCommAbort: NCCL allows aborting a blocking communicator only
// from the thread that owns it, between calls (owned_comm.h), so a call still blocked past its
// deadline ends the process with the reason (endProcessWithReason) instead of racing an abort.
//
// Arming and disarming take one mutex and no wake-up, so a watched call costs well under a
// microsecond on the calling thread; nothing sleeps on it. Free of CUDA, so it is tested on a CPU.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

namespace tpscope::gpu {

class HangWatchdog {
  public:
    // who: "rank 1 (GPU 1)", the prefix of the reason. stop: set when another rank failed (may be null).
    HangWatchdog(std::string who, std::chrono::milliseconds timeout, std::function<void(const std::string&)> onHang,
                 const std::atomic<bool>* stop = nullptr,
                 std::chrono::milliseconds pollMs = std::chrono::milliseconds(5),
                 std::chrono::milliseconds stopGrace = std::chrono::milliseconds(10'000));
    ~HangWatchdog();
    HangWatchdog(const HangWatchdog&) = delete;
    HangWatchdog& operator=(const HangWatchdog&) = delete;

    // Watches `what` from now until the returned guard is destroyed.
    class Watch {
      public:
        explicit Watch(HangWatchdog* dog) : m_dog(dog) {}
        Watch(Watch&& other) noexcept : m_dog(other.m_dog) { other.m_dog = nullptr; }
        Watch(const Watch&) = delete;
        Watch& operator=(const Watch&) = delete;
        Watch& operator=(Watch&&) = delete;
        ~Watch();

      private:
        HangWatchdog* m_dog;
    };
    Watch watch(std::string what);

    // Why onHang ran ("rank 1 (GPU 1): ncclAllReduce did not finish within 120000 ms ..."), if it did.
    std::optional<std::string> fired() const;

  private:
    void run();
    void disarm();

    const std::string m_who;
    const std::chrono::milliseconds m_timeout;
    const std::function<void(const std::string&)> m_onHang;
    const std::atomic<bool>* m_stop;
    const std::chrono::milliseconds m_poll;
    const std::chrono::milliseconds m_stopGrace;

    mutable std::mutex m_mutex;
    std::condition_variable m_wake;  // only for shutting down
    bool m_armed = false;
    std::string m_what;
    std::chrono::steady_clock::time_point m_deadline;
    std::optional<std::string> m_fired;
    bool m_quit = false;
    std::thread m_thread;
};

// The default last resort: the reason on stderr, then the process ends (exit status 3) without
// running destructors, which could wait on the hung call's locks.
[[noreturn]] void endProcessWithReason(const std::string& reason);

}  // namespace tpscope::gpu
