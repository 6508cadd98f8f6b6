// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Nsight Systems SQLite export (`nsys export --type sqlite`): one file -> one TracePart.
//
// Mapping (columns are looked up by name, so schema differences across nsys versions are tolerated;
// a missing optional table or column is skipped):
//   CUPTI_ACTIVITY_KIND_KERNEL  start/end/deviceId/streamId/correlationId, name = StringIds of
//                               demangledName (else shortName, else a text column) -> kernels, kind
//                               and collective fields from the KernelClassifier
//   CUPTI_ACTIVITY_KIND_MEMCPY  bytes, copyKind (CUPTI enum) -> memcpy events "Memcpy HtoD", ...
//   CUPTI_ACTIVITY_KIND_MEMSET  bytes -> memset events
//   CUPTI_ACTIVITY_KIND_RUNTIME CPU-side API calls: counted, not imported
//   NVTX_EVENTS                 push/pop and start/end ranges (text or textId) -> ranges on the GPUs
//                               of the process that recorded them; thread name "MPI Rank N" -> rank
//   TARGET_INFO_GPU             GPU names by device id
//   TARGET_INFO_SESSION_START_TIME utcEpochNs -> time base (nsys times are ns since session start)
// Rank per deviceId (one process: the MPI rank when known). A database without any of the CUPTI
// or NVTX tables is "not an Nsight Systems export".
// Cost: one SELECT per table, O(rows).

#include <span>
#include <string>

#include "core/io/import/trace_part.h"
#include "core/io/sqlite_db.h"
#include "core/trace/kernel_classifier.h"
#include "core/util/result.h"
#include "core/util/task_control.h"

namespace tpscope::core {

Result<TracePart> readNsysFile(const std::string& path, const KernelClassifier& classifier, const TaskControl& control);
Result<TracePart> readNsysDatabase(SqliteDb& db, const KernelClassifier& classifier, const TaskControl& control);
// True when the database has the tables of an nsys export (checked before reading).
bool looksLikeNsysExport(SqliteDb& db);

}  // namespace tpscope::core
