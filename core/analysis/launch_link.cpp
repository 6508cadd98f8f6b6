// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/analysis/launch_link.h"

#include <algorithm>

namespace tpscope::core::analysis {

namespace {

// Index of the event with correlation id `id` in [first, last), or last: a binary search when the
// ids grow there, else a scan of the first kLaunchScan events from `from` towards `towards`.
std::size_t findCorrelation(const EventColumns& ev, std::uint32_t id, std::size_t first, std::size_t last,
                            bool forward) {
    if (first >= last) return last;
    std::size_t lo = first, hi = last;
    while (lo < hi) {
        const std::size_t mid = lo + (hi - lo) / 2;
        if (ev.correlationId(mid) < id) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    if (lo < last && ev.correlationId(lo) == id) return lo;
    const std::size_t n = std::min(kLaunchScan, last - first);
    for (std::size_t k = 0; k < n; ++k) {
        const std::size_t i = forward ? first + k : last - 1 - k;
        if (ev.correlationId(i) == id) return i;
    }
    return last;
}

// host_idle.h's rule for kernel i: the gap since the stream's earlier work ended is a launch wait
// when the launch call ended after that. The earlier work's end is the latest end among the 64
// events before i (exact on streams whose kernels do not overlap, as every decode stream's).
std::int64_t launchWait(const EventColumns& ev, std::size_t i, std::int64_t launchEndNs) {
    if (i == 0) return 0;
    std::int64_t freeAt = ev.endNs(i - 1);
    for (std::size_t j = i - 1; j > 0 && i - j < EventColumns::kBlock; --j) freeAt = std::max(freeAt, ev.endNs(j - 1));
    const std::int64_t gap = ev.startNs(i) - freeAt;
    return gap > 0 && launchEndNs > freeAt ? gap : 0;
}

LaunchLink linkOf(const Rank& rank, std::size_t thread, std::size_t hostIndex, std::size_t stream, std::size_t kernel) {
    const auto& host = rank.hostThreads[thread].events;
    const auto& ev = rank.streams[stream].events;
    LaunchLink link{thread, hostIndex, stream, kernel, ev.startNs(kernel) - host.startNs(hostIndex), 0};
    link.launchWaitNs = launchWait(ev, kernel, host.endNs(hostIndex));
    return link;
}

}  // namespace

std::optional<LaunchLink> kernelOfLaunch(const Rank& rank, std::size_t hostThread, std::size_t hostIndex) {
    if (hostThread >= rank.hostThreads.size()) return std::nullopt;
    const auto& host = rank.hostThreads[hostThread].events;
    if (hostIndex >= host.size() || host.correlationId(hostIndex) == 0) return std::nullopt;
    const std::uint32_t id = host.correlationId(hostIndex);
    const std::int64_t launchNs = host.startNs(hostIndex);
    for (std::size_t s = 0; s < rank.streams.size(); ++s) {
        const auto& ev = rank.streams[s].events;
        const std::size_t first = ev.lowerBoundStart(launchNs, 0, ev.size());
        const std::size_t i = findCorrelation(ev, id, first, ev.size(), true);
        if (i < ev.size()) return linkOf(rank, hostThread, hostIndex, s, i);
    }
    return std::nullopt;
}

std::optional<LaunchLink> launchOfKernel(const Rank& rank, std::size_t stream, std::size_t kernelIndex) {
    if (stream >= rank.streams.size()) return std::nullopt;
    const auto& ev = rank.streams[stream].events;
    if (kernelIndex >= ev.size() || ev.correlationId(kernelIndex) == 0) return std::nullopt;
    const std::uint32_t id = ev.correlationId(kernelIndex);
    const std::int64_t startNs = ev.startNs(kernelIndex);
    for (std::size_t t = 0; t < rank.hostThreads.size(); ++t) {
        const auto& host = rank.hostThreads[t].events;
        // Launches that started at or before the kernel did.
        const std::size_t last = startNs == INT64_MAX ? host.size() : host.lowerBoundStart(startNs + 1, 0, host.size());
        const std::size_t i = findCorrelation(host, id, 0, last, false);
        if (i < last) return linkOf(rank, t, i, stream, kernelIndex);
    }
    return std::nullopt;
}

}  // namespace tpscope::core::analysis
