// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// The GUI's file seam on core/io: opening traces and workspaces, saving runs as a workspace.

#include <gtest/gtest.h>

#include <QDir>
#include <QTemporaryDir>

#include <algorithm>
#include <clocale>
#include <cstdio>
#include <fstream>

#include "core/analysis/synced_analysis.h"
#include "core/io/workspace/stored_analysis.h"
#include "core/io/workspace/workspace.h"
#include "core/trace/event_batch_builder.h"
#include "tests/synthetic_trace.h"
#include "ui/jobs/io_services.h"
#include "ui/jobs/services.h"
#include "ui/timeline/timeline_data.h"
#include "ui_test_support.h"

namespace tpscope::ui {
namespace {

TEST(IoServices, OpeningATraceGivesOneImportedRunAndTheImportNote) {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("rank-0.json"));
    std::ofstream(path.toStdString()) << R"({"traceEvents": [
      {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 1, "dur": 2},
      {"ph": "X", "cat": "kernel", "name": "k", "pid": 1, "tid": 7, "ts": 1, "dur": -2}]})";
    auto doc = openWithIo(path, {});
    ASSERT_TRUE(doc) << doc.error().describe();
    EXPECT_FALSE(doc->isWorkspace);
    ASSERT_EQ(doc->runs.size(), 1u);
    EXPECT_EQ(doc->runs[0].request.backend, BackendKind::Imported);
    EXPECT_EQ(doc->runs[0].request.tp, 2);  // two GPUs in the file
    EXPECT_TRUE(doc->note.contains(QStringLiteral("negative durations"))) << doc->note.toStdString();
}

// Issue 18: the first run is previewed once, as soon as it is read (rows alone, no analysis), and
// the document's run is the same trace with the preview's rows completed, not derived again. The
// progress rises to 1 and reading stops at half of it.
TEST(IoServices, AWorkspaceIsPreviewedBeforeItsAnalysisAndTheRowsAreKept) {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("w.tpscope"));
    RunRecord run;
    run.status = RunStatus::Done;
    run.trace = test::makeSyntheticTrace({4, 3, 2, 5});
    RunRecord second = run;
    second.trace = test::makeSyntheticTrace({2, 2, 2, 2});
    ASSERT_TRUE(saveWithIo(path, {run, second}, {}));

    std::vector<RunRecord> previews;
    std::vector<double> progress;
    const TaskControl control{[&progress](double f) { progress.push_back(f); }, nullptr};
    auto doc = openWithIo(path, control, [&previews](const RunRecord& r) { previews.push_back(r); });
    ASSERT_TRUE(doc) << doc.error().describe();
    ASSERT_EQ(previews.size(), 1u);
    ASSERT_EQ(doc->runs.size(), 2u);
    const RunRecord& first = doc->runs.front();
    ASSERT_TRUE(previews[0].timeline);
    EXPECT_FALSE(previews[0].timeline->hasAnalysis());
    EXPECT_FALSE(previews[0].analysis);
    EXPECT_EQ(previews[0].trace, first.trace);
    ASSERT_TRUE(first.timeline && first.analysis);
    EXPECT_TRUE(first.timeline->hasAnalysis());
    EXPECT_EQ(&first.timeline->ranks(), &previews[0].timeline->ranks());
    ASSERT_FALSE(progress.empty());
    EXPECT_DOUBLE_EQ(progress.back(), 1.0);
    EXPECT_TRUE(std::is_sorted(progress.begin(), progress.end()));
    EXPECT_TRUE(std::any_of(progress.begin(), progress.end(), [](double f) { return f > 0.49 && f <= 0.5; }));
}

TEST(IoServices, SavedRunsComeBackFromTheWorkspaceWithTheirRequests) {
    QTemporaryDir dir;
    RunRecord sim;
    sim.request.backend = BackendKind::SimulatedCluster;
    sim.request.model.id = "llama3-70b";
    sim.request.model.hidden = 8192;
    sim.request.model.layers = 80;
    sim.request.gpu.id = "h100-sxm";
    sim.request.fabric.id = "nvlink4";
    sim.request.tp = 4;
    sim.request.batch = 8;
    sim.request.tokens = 3;
    sim.request.dtype = core::Dtype::Bf16;
    sim.request.overlap = true;
    sim.status = RunStatus::Done;
    sim.trace = test::makeSyntheticTrace({4, 3, 2, 5});
    RunRecord failed;  // no trace: kept with its reason (issue 45 §1.9)
    failed.request = sim.request;
    failed.status = RunStatus::Failed;
    failed.error = QStringLiteral("cannot allocate");
    RunRecord tooBig = failed;  // its own neutral state (issue 45 §3), kept as such
    tooBig.status = RunStatus::DoesNotFit;
    tooBig.error = QStringLiteral("does not fit: needs 90 GiB per GPU of 72 GiB");
    const QString path = dir.filePath(QStringLiteral("w.tpscope"));
    ASSERT_TRUE(saveWithIo(path, {sim, failed, tooBig}, {}));

    auto doc = openWithIo(path, {});
    ASSERT_TRUE(doc) << doc.error().describe();
    EXPECT_TRUE(doc->isWorkspace);
    ASSERT_EQ(doc->runs.size(), 3u);
    EXPECT_EQ(doc->runs[1].status, RunStatus::Failed);
    EXPECT_EQ(doc->runs[1].error, failed.error);
    EXPECT_FALSE(doc->runs[1].trace);
    EXPECT_EQ(doc->runs[2].status, RunStatus::DoesNotFit);
    EXPECT_EQ(doc->runs[2].error, tooBig.error);
    const RunRequest& r = doc->runs[0].request;
    EXPECT_EQ(r.backend, BackendKind::SimulatedCluster);
    EXPECT_EQ(r.model.id, "llama3-70b");
    EXPECT_EQ(r.model.hidden, 8192);
    EXPECT_EQ(r.model.layers, 80);
    EXPECT_EQ(r.gpu.id, "h100-sxm");
    EXPECT_GT(r.gpu.memoryBytes, 0u);  // restored from the catalog
    EXPECT_EQ(r.fabric.id, "nvlink4");
    EXPECT_EQ(r.tp, 4);
    EXPECT_EQ(r.batch, 8);
    EXPECT_EQ(r.tokens, 3);
    EXPECT_EQ(r.dtype, core::Dtype::Bf16);
    EXPECT_TRUE(r.overlap);
    EXPECT_EQ(doc->runs[0].status, RunStatus::Done);
    ASSERT_NE(doc->runs[0].trace, nullptr);
    EXPECT_TRUE(doc->runs[0].trace->sameEvents(*sim.trace));
}

// A GUI process runs with the user's LC_NUMERIC (Qt calls setlocale(LC_ALL, "")): under de_DE,
// printf-style number I/O would write "2,500000" and read "2.5" as 2. The workspace must not care.
TEST(IoServices, PriceRoundTripsUnderACommaDecimalLocale) {
    const std::string saved = std::setlocale(LC_NUMERIC, nullptr);
    if (std::setlocale(LC_NUMERIC, "de_DE.UTF-8") == nullptr && std::setlocale(LC_NUMERIC, "de_DE.utf8") == nullptr) {
        GTEST_SKIP() << "no de_DE.UTF-8 locale (scripts/install-deps.sh generates it)";
    }
    char probe[16];
    std::snprintf(probe, sizeof probe, "%.1f", 2.5);
    ASSERT_STREQ(probe, "2,5") << "the locale must really use a comma for this test to mean anything";
    RunRecord run;
    run.request.pricePerGpuHour = 2.5;
    const core::RunInfo info = runInfoOf(run);
    std::string price;
    for (const auto& [k, v] : info.spec) {
        if (k == "price_per_gpu_hour") price = v;
    }
    EXPECT_EQ(price, "2.5");
    core::Run stored;
    stored.info = info;
    const RunRecord back = runRecordOf(stored, QString());
    EXPECT_DOUBLE_EQ(back.request.pricePerGpuHour, 2.5);
    std::setlocale(LC_NUMERIC, saved.c_str());
}

// A finished run of a synthetic trace (batch 3), analysed as the GUI analyses it.
RunRecord analysedRun() {
    RunRecord run;
    run.status = RunStatus::Done;
    run.request.batch = 3;
    run.trace = test::makeSyntheticTrace({4, 3, 2, 5});
    deriveRunData(run);
    return run;
}

// Issue 47 §1: a workspace the GUI saves keeps each analysed run's analysis and the timeline's clock
// estimate, and opening it again takes them (this build's only) instead of analysing. The stored
// analysis carries a note the trace's own analysis never has, so the open can only have it from the file.
TEST(IoServices, ASavedRunsAnalysisIsTakenWhenTheWorkspaceOpensAgain) {
    if (core::storedAnalysisBuild().empty()) GTEST_SKIP() << "a build from a modified tree stores no analysis";
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("stored.tpscope"));
    RunRecord run = analysedRun();
    ASSERT_TRUE(run.analysis && run.timeline && run.timeline->hasAnalysis());
    auto marked = *run.analysis;
    marked.notes.emplace_back("stored with the run");
    run.analysis = std::make_shared<const core::analysis::RunAnalysis>(marked);
    ASSERT_TRUE(saveWithIo(path, {run}, {}));

    auto doc = openWithIo(path, {});
    ASSERT_TRUE(doc) << doc.error().describe();
    const RunRecord& back = doc->runs.at(0);
    ASSERT_TRUE(back.analysis && back.timeline && back.timeline->hasAnalysis());
    EXPECT_EQ(back.analysis->notes, marked.notes);
    EXPECT_EQ(back.analysis->breakdown.rows.size(), marked.breakdown.rows.size());
    EXPECT_EQ(back.timeline->clock().referenceRankIndex, run.timeline->clock().referenceRankIndex);
    EXPECT_EQ(back.metrics.stepLatencyNs, run.metrics.stepLatencyNs);
    EXPECT_EQ(back.metrics.tokensPerSec, run.metrics.tokensPerSec);
}

// The timeline's exposed communication is saved with the analysis and taken back by the rows when the
// workspace opens (core::loadStoredExposedComm): intervals planted in the saved timeline, which the trace
// would never give, are what the reopened timeline shows.
TEST(IoServices, TheTimelinesExposedCommunicationIsSavedAndTakenBack) {
    if (core::storedAnalysisBuild().empty()) GTEST_SKIP() << "a build from a modified tree stores no analysis";
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("exposed.tpscope"));
    RunRecord run = analysedRun();
    ASSERT_TRUE(run.analysis && run.timeline && run.timeline->hasAnalysis());
    core::StoredExposedComm planted(run.trace->ranks.size());
    for (std::size_t r = 0; r < planted.size(); ++r) {
        core::EventBatchBuilder builder(planted[r]);
        builder.add(run.trace->startNs() + static_cast<std::int64_t>(r), 3, core::NameId{},
                    core::EventKind::Collective);
        builder.flush();
        planted[r].finalize();
    }
    const auto rows = TimelineData::buildRows(*run.trace, planted);
    run.timeline = TimelineData::build(*run.trace, run.analysis, rows.get(), run.timeline->clock());
    ASSERT_TRUE(saveWithIo(path, {run}, {}));

    auto doc = openWithIo(path, {});
    ASSERT_TRUE(doc) << doc.error().describe();
    const RunRecord& back = doc->runs.at(0);
    ASSERT_TRUE(back.timeline && back.timeline->hasAnalysis());
    ASSERT_EQ(back.timeline->ranks().size(), planted.size());
    for (std::size_t r = 0; r < planted.size(); ++r) {
        EXPECT_TRUE(back.timeline->ranks()[r].exposed == planted[r]) << "rank " << r;
        EXPECT_EQ(back.timeline->ranks()[r].exposedTotalNs, 3) << "rank " << r;
    }
}

// Another build's stored analysis (or another batch's) is not taken: the run is analysed as it opens.
TEST(IoServices, AnotherBuildsStoredAnalysisIsNotTaken) {
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("other.tpscope")).toStdString();
    core::Workspace ws;
    ws.runs.push_back(core::Run{
        {"tp4", "custom", "h100-sxm", "nvlink4", 4, 3, 5, {}}, test::makeSyntheticTrace({4, 3, 2, 5}), std::nullopt});
    core::analysis::AnalysisOptions options;
    options.batch = 3;
    auto both = core::analysis::analyzeWithClockEstimate(*ws.runs[0].trace, options);
    both.analysis.notes.emplace_back("stored by another build");
    auto blob = core::encodeStoredAnalysis(both.analysis, both.estimate, *ws.runs[0].trace, {"0.0.1 elsewhere", 3});
    ASSERT_TRUE(blob);
    ws.runs[0].analysisCache = std::move(*blob);
    ASSERT_TRUE(core::saveWorkspace(ws, path));

    auto doc = openWithIo(QString::fromStdString(path), {});
    ASSERT_TRUE(doc) << doc.error().describe();
    const RunRecord& back = doc->runs.at(0);
    ASSERT_TRUE(back.analysis && back.timeline && back.timeline->hasAnalysis());
    EXPECT_EQ(std::count(back.analysis->notes.begin(), back.analysis->notes.end(), "stored by another build"), 0);
    EXPECT_GT(back.analysis->breakdown.rows.size(), 0u);
}

}  // namespace
}  // namespace tpscope::ui
