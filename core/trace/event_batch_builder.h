// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Events built one at a time but appended to an EventColumns a batch at a time
// (EventColumns::append(EventBatch), column by column): for rows derived from something else, such
// as the timeline's NVTX depth rows (30 M ranges at 100 M events) and its exposed-communication
// intervals, where event-by-event appends were the largest cost of building the rows.
// Events have no payload and correlation id 0. Input: events in start order for a narrow start
// column (EventColumns' rule). Cost: O(1) amortised per event, 84 KB of scratch.

#include <array>
#include <cstdint>
#include <span>

#include "core/trace/event_columns.h"

namespace tpscope::core {

class EventBatchBuilder {
  public:
    static constexpr std::size_t kBatch = 4096;

    explicit EventBatchBuilder(EventColumns& columns) : m_columns(&columns) {}
    EventBatchBuilder(const EventBatchBuilder&) = delete;
    EventBatchBuilder& operator=(const EventBatchBuilder&) = delete;
    ~EventBatchBuilder() { flush(); }

    void add(std::int64_t startNs, std::int64_t durNs, NameId name, EventKind kind) {
        m_start[m_n] = startNs;
        m_dur[m_n] = durNs;
        m_name[m_n] = name.value;
        m_kind[m_n] = static_cast<std::uint8_t>(kind);
        if (++m_n == kBatch) flush();
    }
    // Appends what is pending; the destructor does too. Call it before finalizing the columns.
    void flush() {
        if (m_n == 0) return;
        static const std::array<std::uint32_t, kBatch> kNoCorrelation{};
        EventBatch batch;
        batch.startNs = std::span(m_start.data(), m_n);
        batch.durNs = std::span(m_dur.data(), m_n);
        batch.nameIds = std::span(m_name.data(), m_n);
        batch.kinds = std::span(m_kind.data(), m_n);
        batch.correlationIds = std::span(kNoCorrelation.data(), m_n);
        m_columns->append(batch);
        m_n = 0;
    }

  private:
    EventColumns* m_columns;
    std::size_t m_n = 0;
    std::array<std::int64_t, kBatch> m_start{};
    std::array<std::int64_t, kBatch> m_dur{};
    std::array<std::uint32_t, kBatch> m_name{};
    std::array<std::uint8_t, kBatch> m_kind{};
};

}  // namespace tpscope::core
