// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The live CUPTI collector (DESIGN.md §7): Activity API buffers handed to CUPTI and decoded by
// CuptiDecoder as they complete. Start it before the first CUDA or NVTX call of the process:
// it checks that the CUPTI headers and the loaded library agree, points NVTX_INJECTION64_PATH at
// the loaded libcupti (NVTX reads it at its first call), registers the buffer callbacks and a
// resource callback that aliases cloned graph nodes to their originals.
//
// Bounded memory: buffers are bufferBytes each and at most maxBytes of them are outstanding;
// a request beyond that is refused, CUPTI drops those records and counts them, and the count ends
// up in the trace ("cupti.dropped_records": the buffer's own queue and the global queue, both read
// at every completed buffer and after the final flush). enable() turns the activity kinds on (after warm-up),
// flush() delivers everything and turns them off. One session per process.
// Lock order: the decoder's mutex is never held across a CUPTI call (CUPTI calls back into the
// session from its own threads, possibly holding its locks), so the two cannot deadlock.

#include <cuda_runtime_api.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/util/result.h"
#include "gpu/activity_buffers.h"
#include "gpu/cupti_decoder.h"

namespace tpscope::gpu {

// One completed buffer's records, walked until CUPTI says the buffer ends. Any other answer is an
// incomplete (or invalid) record: CUPTI cannot step past it, so the records after it are lost and
// the buffer is counted (cupti.incomplete_records), never silently cut short. next: the step of
// cuptiActivityGetNextRecord, a parameter so the walk is tested without libcupti.
struct BufferWalk {
    std::vector<const CUpti_Activity*> records;
    bool incomplete = false;
};
BufferWalk walkActivityBuffer(const std::function<CUptiResult(CUpti_Activity**)>& next);

struct CuptiSessionConfig {
    std::size_t bufferBytes = 8u << 20;
    std::size_t maxBytes = 2ull << 30;
};

class CuptiSession {
  public:
    static core::Result<std::unique_ptr<CuptiSession>> start(const CuptiSessionConfig& config);
    ~CuptiSession();
    CuptiSession(const CuptiSession&) = delete;
    CuptiSession& operator=(const CuptiSession&) = delete;

    // CUPTI_API_VERSION of the headers against cuptiGetVersion() of the loaded library.
    static core::Status checkVersion();
    // The clock of every CUPTI record (ns).
    static std::int64_t timestampNs();

    core::Status enable();
    core::Status flush();

    // Thread-safe access to the decoder (set-up, tagging, then finish after flush()).
    template <typename F>
    auto withDecoder(F&& f) {
        std::lock_guard<std::mutex> lock(m_mutex);
        return f(m_decoder);
    }
    void pushOpTag(std::uint64_t tag);
    void popOpTag();
    void tagGraphNode(cudaGraphNode_t node, std::uint32_t opIndex, std::uint32_t rows);
    // CUPTI's id of a stream, as activity records name it.
    core::Result<std::uint32_t> streamId(cudaStream_t stream) const;

    std::uint64_t refusedBuffers() const { return m_buffers ? m_buffers->refused() : 0; }
    const std::vector<std::string>& warnings() const { return m_warnings; }

  private:
    CuptiSession() = default;
    core::Status setUp(const CuptiSessionConfig& config);
    static void bufferRequested(std::uint8_t** buffer, std::size_t* size, std::size_t* maxNumRecords);
    static void bufferCompleted(CUcontext context, std::uint32_t streamId, std::uint8_t* buffer, std::size_t size,
                                std::size_t validSize);
    static void resourceCallback(void* userdata, CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* data);

    CuptiSessionConfig m_config;
    std::mutex m_mutex;
    CuptiDecoder m_decoder;
    CUpti_SubscriberHandle m_subscriber = nullptr;
    std::unique_ptr<ActivityBuffers> m_buffers;  // counted per session (activity_buffers.h)
    std::vector<std::string> m_warnings;
    bool m_enabled = false;
};

}  // namespace tpscope::gpu
