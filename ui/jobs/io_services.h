// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The GUI's file seam backed by core/io: open any trace (Kineto/Chrome JSON, .json.gz, a folder of
// ranks, an Nsight Systems SQLite export) or a .tpscope workspace, and save the runs as a workspace.
// Runs on worker threads (DocumentLoader for open, the window's save task for save); both report
// progress and stop when the cancel flag turns true. A run's request is
// stored in the workspace's run description (RunInfo + key/value spec) and restored from it; GPU and
// fabric come back from the built-in catalog by id.

#include <QString>

#include <vector>

#include "core/io/workspace/workspace.h"
#include "ui/jobs/services.h"

namespace tpscope::ui {

// Reading is the first half of the progress, the runs' analyses the second; preview (may be empty)
// gets the first run as soon as it is read.
core::Result<OpenedDocument> openWithIo(const QString& path, const TaskControl& control,
                                        const OpenPreviewFn& preview = {});
// Keeps the previous file as NAME~ when it replaces one.
core::Status saveWithIo(const QString& path, const WorkspaceSnapshot& snapshot, const TaskControl& control);
// The runs alone, without view settings (tests, tools).
core::Status saveWithIo(const QString& path, const std::vector<RunRecord>& runs, const TaskControl& control);
// How many of `runs` a save writes: those with a trace and the failed ones (with their reasons).
std::size_t savedRunCount(const std::vector<RunRecord>& runs);
bool isSavedRun(const RunRecord& run);

// The mapping between a GUI run and a workspace run (exposed for tests). A failed run is kept
// without a trace, its status and reason in the spec.
core::RunInfo runInfoOf(const RunRecord& run);
// sweep: the spec's "sweep" (the group it was made in), or -1 when the workspace does not say.
RunRecord runRecordOf(const core::Run& run, const QString& workspacePath);
// Gives each run of sweep -1 a group: imported runs 0; runs made here that differ only in TP and
// batch one new number each (a `simulate --context 1024,2048` workspace: two groups).
void assignGroups(std::vector<RunRecord>& runs);

}  // namespace tpscope::ui
