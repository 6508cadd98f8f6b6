// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Why a GPU idles, read from the host rows (Rank::hostThreads) when a trace has them.
//
// Input: a finalized trace. Mapping: on every GPU stream, the idle gap before a kernel (its start -
// the end of everything earlier on that stream) is a launch wait when the host row's launch call
// with the kernel's correlation id ended after that earlier work had ended: the GPU was ready and
// the kernel had not been launched yet, so the host set the pace. Gaps before kernels whose launch
// came early are the device's own (queue, graph-node gaps) or wait for another stream.
// Complexity: O(host events + kernels) time, one task per rank on up to `threads` threads (0: one
// per hardware thread; the result does not depend on it); memory per worker 4 bytes per correlation
// id of a rank's launch calls (dense ids: the launch call's position, its end read from the host
// rows), or 16 per launch and O(log n) a kernel when the ids are sparse; none when one host thread
// launches every kernel and its ids and every stream's rise (a decode trace, a runtime counter): each
// stream then walks the launch thread once, O(streams x launches).

#include <cstdint>

#include "core/trace/trace.h"

namespace tpscope::core::analysis {

struct HostIdle {
    bool hostRows = false;          // the trace has host threads with events
    std::int64_t gapNs = 0;         // idle gaps before kernels, summed over streams and ranks
    std::int64_t launchWaitNs = 0;  // of which the kernel's launch came after the stream was free
    std::size_t kernels = 0;        // kernels with a matched launch call
    std::size_t launchBoundKernels = 0;
    double launchWaitShare() const {
        return gapNs > 0 ? static_cast<double>(launchWaitNs) / static_cast<double>(gapNs) : 0.0;
    }
};

HostIdle attributeIdleToHost(const Trace& trace, unsigned threads = 0);

}  // namespace tpscope::core::analysis
