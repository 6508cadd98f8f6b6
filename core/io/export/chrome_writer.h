// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Chrome trace JSON (Object Format) that Perfetto and chrome://tracing open, and that tpscope reads
// back losslessly.
//
// Mapping: one process per rank (pid = rank id, named "rank R · GPU d (name) · host"), one thread
// per stream (tid = 1 + stream position, named by the stream label; the CUDA stream id is in
// args.stream), NVTX ranges as slices on tid 0 ("NVTX ranges", args.depth). Events are "X" slices:
// cat kernel / gpu_memcpy / gpu_memset, args: device, stream, correlation, kind, and the payload
// (collective: "Collective name", "In msg nelems", "dtype", "Group size", "Process Group Name",
// algorithm, protocol, "msg bytes"; GEMM: gemm m/n/k; copy: copy kind, bytes). Timestamps are µs
// with 3 decimals (exact ns) relative to "baseTimeNanoseconds" (the trace start), as Kineto writes
// them. Host rows (Rank::hostThreads) are threads of the rank's process (tid = kHostTidBase + the
// thread's position, named by its label) of "X" slices with cat cuda_runtime and args.correlation,
// and each launch is joined to its kernel by an "ac2g" flow ("s" on the call, "f" on the kernel; id =
// the correlation, made unique across ranks by the rank id in bits 32 and up), as Kineto draws them.
// A "tpscope" member carries ranks, hosts, clock offsets, stream ids and labels, host threads
// (ranks[].hostThreads: tid, id, label), origin, source and metadata. A path ending in .gz is
// gzip-compressed.
// Cost: O(events); names are escaped once per distinct name; a rank with host rows keeps a hash set
// of its launch correlation ids while its kernels are written.

#include <string>

#include "core/trace/trace.h"
#include "core/util/result.h"
#include "core/util/task_control.h"

namespace tpscope::core {

// Host-thread tids: far above any stream's (1 + stream position).
inline constexpr std::int64_t kHostTidBase = 1'000'000;

Status writeChromeJson(const Trace& trace, const std::string& path, const TaskControl& control = {});

}  // namespace tpscope::core
