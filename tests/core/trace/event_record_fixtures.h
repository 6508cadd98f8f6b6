// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// One GEMM event of the columns' tests: a start and a duration, the rest left as EventRecord has it.

#include <cstdint>

#include "core/trace/event_columns.h"

namespace tpscope::core {

inline EventRecord ev(std::int64_t start, std::int64_t dur) {
    EventRecord e;
    e.startNs = start;
    e.durNs = dur;
    e.kind = EventKind::Gemm;
    return e;
}

}  // namespace tpscope::core
