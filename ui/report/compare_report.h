// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The side-by-side pages of a comparison in the PDF report (File → Export report with 2–4 runs
// selected, and `tpscope --report OUT.pdf A B [C D]`): the stacked timelines aligned on one layer,
// the summary and per-layer delta tables, and, for a measured run against its model, the residual
// chart and table. Drawn from a CompareView that shows the runs (the numbers are core's, as on screen).

#include <QString>

#include "ui/report/sweep_report.h"

namespace tpscope::ui {

class CompareView;
class ReportPdf;

// Adds the pages; the number of pages added.
int addComparisonPages(ReportPdf& pdf, CompareView& view);

}  // namespace tpscope::ui
