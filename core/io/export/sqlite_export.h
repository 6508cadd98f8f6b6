// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// A row-per-event SQLite database for people who query traces with SQL (tables documented in
// docs/formats.md):
//   meta(key, value)                       format 'tpscope-events', version, origin, source
//   trace_metadata(key, value)
//   ranks(rank_id, host, device_index, device_name, clock_offset_ns)
//   streams(rank_id, stream_id, label, event_count)
//   names(name_id, name)
//   events(rank_id, stream_id, start_ns, dur_ns, end_ns, kind, name_id, correlation_id, payload,
//          collective_op, algorithm, protocol, dtype, group_size, communicator, bytes,
//          gemm_m, gemm_n, gemm_k, copy_kind)       index on (rank_id, start_ns)
//   ranges(rank_id, start_ns, end_ns, depth, name_id)
//   views events_named (events + name), kernel_summary (per name: calls, total/mean ns)
// Written to a temporary file and renamed into place. Cost: O(events), about 1 µs per event.

#include <string>

#include "core/trace/trace.h"
#include "core/util/result.h"
#include "core/util/task_control.h"

namespace tpscope::core {

Status writeSqliteExport(const Trace& trace, const std::string& path, const TaskControl& control = {});

}  // namespace tpscope::core
