// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// One launch call on a rank's host row and the kernel it launched, found by their shared correlation
// id (Rank::hostThreads, issue 26): what the timeline shows when a user hovers either, so that a
// launch-bound step reads as "this kernel waited for its launch".
//
// Input: a finalized rank. Mapping: a kernel starts after its launch call starts, and along one
// stream (and along one host thread) correlation ids grow with time in every trace seen (CUPTI and
// Kineto number launches in issue order; the simulator likewise). So each stream is searched from
// the launch's start by binary search on the correlation id, and when the ids there do not grow
// (several threads launching into one stream), by a scan of at most kLaunchScan events.
// `launchWaitNs` is host_idle.h's rule for this one kernel: the idle gap before it counts as a wait
// for its launch when the launch call ended after the stream's earlier work had ended.
// Complexity: O(streams x (log n + kLaunchScan)) per lookup, no index kept.

#include <cstddef>
#include <cstdint>
#include <optional>

#include "core/trace/trace.h"

namespace tpscope::core::analysis {

inline constexpr std::size_t kLaunchScan = 4096;

struct LaunchLink {
    std::size_t hostThread = 0;  // index into rank.hostThreads
    std::size_t hostIndex = 0;   // the launch call in that thread's events
    std::size_t stream = 0;      // index into rank.streams
    std::size_t kernelIndex = 0;
    std::int64_t launchToStartNs = 0;  // kernel start - launch call start
    std::int64_t launchWaitNs = 0;     // idle before the kernel spent waiting for this launch; 0 if none
};

// The kernel (or copy) a host-row event launched; nullopt when it launched none (host step work) or
// the kernel is not in the trace.
std::optional<LaunchLink> kernelOfLaunch(const Rank& rank, std::size_t hostThread, std::size_t hostIndex);
// The launch call of a kernel; nullopt when the rank has no host rows or none carries its id.
std::optional<LaunchLink> launchOfKernel(const Rank& rank, std::size_t stream, std::size_t kernelIndex);

}  // namespace tpscope::core::analysis
