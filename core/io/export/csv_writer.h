// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// CSV (RFC 4180: comma separated, CRLF-free "\n" lines, fields with , " or newlines quoted, quotes
// doubled) of a trace's events and ranges, and of any table (the analysis tables use CsvTable).
//
// Events: one row per event, columns (docs/formats.md):
//   rank,host,device_index,stream_id,stream_label,start_ns,dur_ns,end_ns,kind,name,correlation_id,
//   payload,collective_op,algorithm,protocol,dtype,group_size,communicator,bytes,gemm_m,gemm_n,gemm_k,copy_kind
// Ranges: rank,start_ns,end_ns,dur_ns,depth,name.
// Cost: O(events).

#include <string>
#include <string_view>
#include <vector>

#include "core/trace/trace.h"
#include "core/util/result.h"
#include "core/util/task_control.h"

namespace tpscope::core {

struct CsvTable {
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;
};

// Appends one field, quoted when needed.
void appendCsvField(std::string& out, std::string_view field);
void appendCsvRow(std::string& out, const std::vector<std::string>& fields);

Status writeCsvTable(const CsvTable& table, const std::string& path);
Status writeEventsCsv(const Trace& trace, const std::string& path, const TaskControl& control = {});
Status writeRangesCsv(const Trace& trace, const std::string& path);

}  // namespace tpscope::core
