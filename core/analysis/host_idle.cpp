// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/analysis/host_idle.h"

#include <algorithm>
#include <unordered_map>

namespace tpscope::core::analysis {

HostIdle attributeIdleToHost(const Trace& trace) {
    HostIdle out;
    std::unordered_map<std::uint32_t, std::int64_t> launchEnd;  // correlation id -> end of its launch call
    for (const auto& rank : trace.ranks) {
        launchEnd.clear();
        for (const auto& thread : rank.hostThreads) {
            const auto& ev = thread.events;
            for (std::size_t i = 0; i < ev.size(); ++i) {
                const std::uint32_t id = ev.correlationId(i);
                if (id != 0) launchEnd.emplace(id, ev.endNs(i));
            }
        }
        if (launchEnd.empty()) continue;
        out.hostRows = true;
        for (const auto& stream : rank.streams) {
            const auto& ev = stream.events;
            std::int64_t freeAt = 0;
            for (std::size_t i = 0; i < ev.size(); ++i) {
                const std::int64_t start = ev.startNs(i);
                const auto launch = launchEnd.find(ev.correlationId(i));
                if (i > 0 && start > freeAt) {
                    const std::int64_t gap = start - freeAt;
                    out.gapNs += gap;
                    if (launch != launchEnd.end() && launch->second > freeAt) {
                        out.launchWaitNs += gap;
                        ++out.launchBoundKernels;
                    }
                }
                if (launch != launchEnd.end()) ++out.kernels;
                freeAt = i == 0 ? ev.endNs(i) : std::max(freeAt, ev.endNs(i));
            }
        }
    }
    return out;
}

}  // namespace tpscope::core::analysis
