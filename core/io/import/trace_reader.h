// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The one entry point for reading traces: a file or a folder, any supported format, decided by the
// content (gzip magic, '{' / '[', the SQLite header and then its tables), not by the file name.
//
//   Kineto / Chrome JSON (.json, .json.gz) ........ kineto_reader.h
//   Nsight Systems SQLite export (nsys export) ..... nsys_reader.h
//   Nsight Systems report (.nsys-rep) ................ exported by nsys first: nsys_report.h
//   tpscope workspace (.tpscope) ....... ../workspace/workspace.h (one run, ReadOptions::runIndex)
//
// A folder, or several paths, are the ranks of one job: every trace file in it (.json, .json.gz,
// .gz, .sqlite; other files ignored) is read, on up to ReadOptions::threads threads, and merged onto
// one timeline (see trace_part.h for how ranks are numbered). Problems in records are counted in
// ImportStats; a file that is not a trace is one clear error naming the file.

#include <memory>
#include <string>
#include <vector>

#include "core/io/import/import_stats.h"
#include "core/trace/kernel_classifier.h"
#include "core/trace/trace.h"
#include "core/util/result.h"
#include "core/util/task_control.h"

namespace tpscope::core {

struct ReadOptions {
    const KernelClassifier* classifier = nullptr;  // nullptr: KernelClassifier::builtin()
    // progress may be called from worker threads, but never from two at once.
    TaskControl control;
    unsigned threads = 0;      // 0: one per file, at most the hardware threads
    std::size_t runIndex = 0;  // which run of a workspace
};

Result<std::shared_ptr<Trace>> readTrace(const std::string& pathOrFolder, const ReadOptions& options = {},
                                         ImportStats* stats = nullptr);
Result<std::shared_ptr<Trace>> readTraceFiles(const std::vector<std::string>& paths, const ReadOptions& options = {},
                                              ImportStats* stats = nullptr);

// Trace files of a folder, in natural order ("worker2" before "worker10").
Result<std::vector<std::string>> traceFilesIn(const std::string& folder);

}  // namespace tpscope::core
