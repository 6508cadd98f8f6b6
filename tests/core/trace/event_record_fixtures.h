// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// One GEMM event of the columns' tests: a start and a duration, the rest left as EventRecord has it;
// and a list of events appended as one EventBatch.

#include <cstdint>
#include <span>
#include <vector>

#include "core/trace/event_columns.h"

namespace tpscope::core {

inline EventRecord ev(std::int64_t start, std::int64_t dur) {
    EventRecord e;
    e.startNs = start;
    e.durNs = dur;
    e.kind = EventKind::Gemm;
    return e;
}

// `events` appended to `columns` as one batch (EventColumns::append(const EventBatch&)).
inline void appendAsBatch(EventColumns& columns, std::span<const EventRecord> events) {
    std::vector<std::int64_t> starts, durs;
    std::vector<std::uint32_t> names, ids;
    std::vector<std::uint8_t> kinds;
    std::vector<PayloadId> payloads;
    for (const EventRecord& e : events) {
        starts.push_back(e.startNs);
        durs.push_back(e.durNs);
        names.push_back(e.name.value);
        kinds.push_back(static_cast<std::uint8_t>(e.kind));
        ids.push_back(e.correlationId);
        payloads.push_back(e.payload);
    }
    columns.append(EventBatch{starts, durs, names, kinds, ids, payloads});
}

}  // namespace tpscope::core
