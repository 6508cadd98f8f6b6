// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Issue 43 §4: the window's run details lead with core's finding when a trace was not understood
// (core/analysis/understanding.h): what is missing and the flag that fixes it, before any line about
// the run; a run that was understood has no such paragraph.

#include <gtest/gtest.h>

#include "tests/synthetic_trace.h"
#include "ui/document/run_description.h"
#include "ui/jobs/services.h"

namespace tpscope::ui {
namespace {

RunRecord importedRun(std::shared_ptr<core::Trace> trace) {
    RunRecord run;
    run.request.backend = BackendKind::Imported;
    run.request.batch = 0;
    run.status = RunStatus::Done;
    run.source = QStringLiteral("/traces/rank-folder");
    run.trace = std::move(trace);
    deriveRunData(run);
    return run;
}

TEST(RunDescriptionUnderstanding, ANotUnderstoodTraceSaysSoFirstWithItsFix) {
    const RunRecord run = importedRun(test::makeSyntheticTrace({}));  // no "batch" in its metadata
    ASSERT_FALSE(run.analysis->understanding.understood());
    const QString html = runDescriptionHtml(run);
    const auto at = html.indexOf(QStringLiteral("Not understood"));
    ASSERT_GE(at, 0) << html.toStdString();
    EXPECT_LT(at, html.indexOf(QStringLiteral("Origin")));
    for (const auto& gap : run.analysis->understanding.gaps) {
        EXPECT_TRUE(html.contains(QString::fromStdString(gap.fix).toHtmlEscaped())) << gap.fix;
    }
    EXPECT_TRUE(html.contains(QStringLiteral("--batch N")));
}

TEST(RunDescriptionUnderstanding, AnUnderstoodTraceHasNoSuchParagraph) {
    auto trace = test::makeSyntheticTrace({});
    trace->metadata.emplace_back("batch", "4");
    const RunRecord run = importedRun(trace);
    ASSERT_TRUE(run.analysis->understanding.understood()) << run.analysis->understanding.headline();
    EXPECT_FALSE(runDescriptionHtml(run).contains(QStringLiteral("Not understood")));
}

}  // namespace
}  // namespace tpscope::ui
