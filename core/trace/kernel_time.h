// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Kernel time by class and the names behind the "other" share, so that a user sees how much of a
// trace the classifier could not place and which rule to write (`info`, issue 27 §3).
//
// Input: a finalized Trace. Mapping: kernel time = summed duration of every event that is not a
// memcpy or memset, per kind; a name's time is summed over all ranks and streams.
// Complexity: O(events) for the totals; O(events + names log names) for the top names.

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/trace/trace.h"

namespace tpscope::core {

struct KernelTime {
    std::array<std::int64_t, kEventKindCount> nsByKind{};
    std::int64_t kernelNs = 0;  // all kinds but memcpy and memset
    // Share of kernel time spent in `kind`, in [0, 1]; 0 when the trace has no kernel time.
    double share(EventKind kind) const;
};

struct NamedKernelTime {
    std::string name;
    std::int64_t ns = 0;
    std::uint64_t count = 0;
};

KernelTime kernelTime(const Trace& trace);

// The `limit` names of `kind` with the most summed time, most first (ties by name).
std::vector<NamedKernelTime> topKernelNames(const Trace& trace, EventKind kind, std::size_t limit);

}  // namespace tpscope::core
