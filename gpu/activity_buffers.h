// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The CUPTI activity buffers of one profiling session, counted against its maxBytes (cupti_session.h).
// CUPTI hands a buffer back whenever it completes it, which can be after the session that handed it
// out has ended and another has started (gpu_tests, the window: several sessions per process). So
// each buffer carries, in a header before the bytes CUPTI sees, the session that counted it and its
// size: a late buffer of an earlier session is freed without being taken off the current session's
// count, which would otherwise wrap below zero and refuse every later buffer. Free of CUDA, so it
// is tested on a CPU.

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace tpscope::gpu {

class ActivityBuffers {
  public:
    ActivityBuffers(std::size_t bufferBytes, std::size_t maxBytes);
    ActivityBuffers(const ActivityBuffers&) = delete;
    ActivityBuffers& operator=(const ActivityBuffers&) = delete;

    // A buffer of bufferBytes for CUPTI (8-byte aligned), or null when maxBytes are outstanding
    // (counted as refused: CUPTI then drops records and counts them) or memory ran out.
    std::uint8_t* take();
    // Frees a buffer CUPTI handed back; it leaves `current`'s count only if `current` counted it.
    // current may be null (no session running).
    static void giveBack(ActivityBuffers* current, std::uint8_t* buffer);

    std::size_t outstandingBytes() const { return m_outstanding.load(); }
    std::uint64_t refused() const { return m_refused.load(); }

  private:
    const std::uint64_t m_session;  // unique per instance in the process
    const std::size_t m_bufferBytes;
    const std::size_t m_maxBytes;
    std::atomic<std::size_t> m_outstanding{0};
    std::atomic<std::uint64_t> m_refused{0};
};

}  // namespace tpscope::gpu
