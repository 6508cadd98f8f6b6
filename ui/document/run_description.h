// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// What the run panel says about the run on screen, so the form below it (the next sweep's settings)
// is never read as describing it. A simulated run is described by its request (model, dtype, TP,
// batch, cluster); an imported or captured run by what its trace says (origin, GPU names and count,
// model and TP from its metadata when it has them, the file), never by the panel's cluster settings;
// a failed run by core's reason. Text only: every number was read from the run.

#include <QString>

#include "ui/document/run_request.h"

namespace tpscope::ui {

// Rich text; the run's own strings are HTML-escaped.
QString runDescriptionHtml(const RunRecord& run);

}  // namespace tpscope::ui
