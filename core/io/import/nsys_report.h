// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Nsight Systems reports as users have them (.nsys-rep, older .qdrep): tpscope reads nsys's SQLite
// export (nsys_reader.h), so a report is first exported by Nsight Systems' own `nsys` (issue 43 §6).
//
// Input: a report file. Mapping: `nsys export --type sqlite --force-overwrite true --output <cache
// file> <report>` runs when `nsys` is on the PATH (no shell: its arguments are passed as they are);
// the export lands in a cache folder ($XDG_CACHE_HOME, else ~/.cache, then tpscope/nsys-export/),
// named by the report's name, size and modification time, so opening the same report again reuses
// it. Cancel stops nsys (SIGTERM) and leaves no partial export behind. Without nsys: one error that
// names the command to run by hand.
// Cost: nsys's export (seconds to minutes for large reports); a cache hit costs one stat.

#include <string>
#include <string_view>

#include "core/util/result.h"
#include "core/util/task_control.h"

namespace tpscope::core {

// By name: ".nsys-rep" or ".qdrep" (the report's bytes are nsys's own container format).
bool isNsysReport(std::string_view path);

// The command a user runs by hand to export `report` to `sqlite` (for messages and docs).
std::string nsysExportCommand(const std::string& report, const std::string& sqlite);

// The first executable `name` in the colon-separated `pathList` (the PATH's form); empty when none.
std::string findOnPath(const std::string& name, const std::string& pathList);

// Exports `report` to SQLite (or finds its export in the cache) and returns the SQLite file's path.
// `nsysPath` empty: looked up on the PATH. Progress: 0 when nsys starts, 1 when the export is there.
Result<std::string> exportNsysReport(const std::string& report, const TaskControl& control = {},
                                     const std::string& nsysPath = {});

}  // namespace tpscope::core
