// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "gpu/activity_buffers.h"

#include <new>

namespace tpscope::gpu {

namespace {

constexpr std::size_t kRecordAlignment = 8;

// Before the bytes CUPTI sees; 16 bytes, so they stay 8-byte aligned.
struct Header {
    std::uint64_t session;
    std::uint64_t bytes;
};
static_assert(sizeof(Header) % kRecordAlignment == 0);

std::atomic<std::uint64_t> g_nextSession{1};

}  // namespace

ActivityBuffers::ActivityBuffers(std::size_t bufferBytes, std::size_t maxBytes)
    : m_session(g_nextSession.fetch_add(1)), m_bufferBytes(bufferBytes), m_maxBytes(maxBytes) {}

std::uint8_t* ActivityBuffers::take() {
    if (m_outstanding.fetch_add(m_bufferBytes) + m_bufferBytes > m_maxBytes) {
        m_outstanding.fetch_sub(m_bufferBytes);
        m_refused.fetch_add(1);
        return nullptr;
    }
    void* block = ::operator new(sizeof(Header) + m_bufferBytes, std::align_val_t(kRecordAlignment), std::nothrow);
    if (block == nullptr) {
        m_outstanding.fetch_sub(m_bufferBytes);
        return nullptr;
    }
    auto* header = static_cast<Header*>(block);
    header->session = m_session;
    header->bytes = m_bufferBytes;
    return static_cast<std::uint8_t*>(block) + sizeof(Header);
}

void ActivityBuffers::giveBack(ActivityBuffers* current, std::uint8_t* buffer) {
    if (buffer == nullptr) return;
    auto* header = reinterpret_cast<Header*>(buffer - sizeof(Header));
    if (current != nullptr && header->session == current->m_session) {
        current->m_outstanding.fetch_sub(static_cast<std::size_t>(header->bytes));
    }
    ::operator delete(static_cast<void*>(header), std::align_val_t(kRecordAlignment));
}

}  // namespace tpscope::gpu
