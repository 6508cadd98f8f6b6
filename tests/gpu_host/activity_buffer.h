// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// A synthetic CUPTI activity buffer for the decoder tests: records filled by hand, packed back to
// back at CUPTI's 8-byte record alignment, walked the way the live session walks a completed
// buffer (kind first, then the struct of that kind). No libcupti call is made.

#include <cstdint>
#include <cstring>
#include <vector>

#include "gpu/cupti_decoder.h"

namespace tpscope::test {

class ActivityBuffer {
  public:
    template <typename Record>
    void append(const Record& record) {
        const std::size_t at = m_bytes.size();
        m_bytes.resize(at + (sizeof(Record) + 7) / 8 * 8, 0);
        std::memcpy(m_bytes.data() + at, &record, sizeof(Record));
        m_sizes.push_back(sizeof(Record));
    }

    // Feeds every record to the decoder, in buffer order.
    void decodeInto(gpu::CuptiDecoder& decoder) const {
        std::size_t offset = 0;
        for (const std::size_t size : m_sizes) {
            // Copy into 8-byte aligned storage, as CUPTI's buffers are.
            std::vector<std::uint64_t> aligned((size + 7) / 8);
            std::memcpy(aligned.data(), m_bytes.data() + offset, size);
            decoder.addRecord(*reinterpret_cast<const CUpti_Activity*>(aligned.data()));
            offset += (size + 7) / 8 * 8;
        }
    }

    std::size_t bytes() const { return m_bytes.size(); }

  private:
    std::vector<std::uint8_t> m_bytes;
    std::vector<std::size_t> m_sizes;
};

inline gpu::KernelRecord kernelRecord(const char* name, std::uint32_t device, std::uint32_t stream, std::uint64_t start,
                                      std::uint64_t end, std::uint32_t correlation) {
    gpu::KernelRecord k{};
    k.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
    k.name = name;
    k.deviceId = device;
    k.streamId = stream;
    k.start = start;
    k.end = end;
    k.correlationId = correlation;
    return k;
}

inline gpu::ApiRecord runtimeCall(std::uint32_t thread, std::uint64_t start, std::uint32_t correlation) {
    gpu::ApiRecord a{};
    a.kind = CUPTI_ACTIVITY_KIND_RUNTIME;
    a.processId = 42;
    a.threadId = thread;
    a.start = start;
    a.end = start + 3;
    a.correlationId = correlation;
    return a;
}

inline gpu::MarkerRecord marker(std::uint32_t id, bool start, std::uint64_t timestamp, std::uint32_t thread,
                                const char* name = nullptr, const char* domain = nullptr) {
    gpu::MarkerRecord m{};
    m.kind = CUPTI_ACTIVITY_KIND_MARKER;
    m.flags = start ? CUPTI_ACTIVITY_FLAG_MARKER_START : CUPTI_ACTIVITY_FLAG_MARKER_END;
    m.timestamp = timestamp;
    m.id = id;
    m.objectKind = CUPTI_ACTIVITY_OBJECT_THREAD;
    m.objectId.pt.processId = 42;
    m.objectId.pt.threadId = thread;
    m.name = name;
    m.domain = domain;
    return m;
}

inline gpu::ExternalCorrelationRecord externalTag(std::uint32_t correlation, std::uint64_t tag) {
    gpu::ExternalCorrelationRecord e{};
    e.kind = CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION;
    e.externalKind = CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0;
    e.externalId = tag;
    e.correlationId = correlation;
    return e;
}

}  // namespace tpscope::test
