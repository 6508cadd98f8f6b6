// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// The GUI and the CLI print the same numbers (DESIGN.md §1, issue 10 part 2): the embedded default
// sweep run through the real window equals `tpscope-cli simulate --json` run by run, field by field,
// and the window's scaling (the runs table's efficiency) equals `tpscope-cli scaling --json` on the
// sweep the CLI saved. The CLI's arguments are taken from the GUI's own default request.

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/analysis/analysis_json.h"
#include "core/hw/catalog.h"
#include "core/sim/sweep.h"
#include "core/util/json_writer.h"
#include "json_numbers.h"
#include "main_window_test_support.h"
#include "test_support.h"
#include "ui/charts/chart_set.h"
#include "ui/document/run_document.h"
#include "ui/document/run_scaling.h"
#include "ui/window/chart_tabs.h"
#include "ui/window/main_window.h"
#include "ui/window/runs_model.h"
#include "ui_test_support.h"

namespace tpscope::ui {
namespace {

using test::expectSameNumbers;
using test::parseJson;

TEST(GuiCliNumbers, TheDefaultSweepInTheWindowEqualsSimulateAndScalingJson) {
    test::ensureApp();
    MainWindow window(defaultServices());
    ASSERT_NO_FATAL_FAILURE(test::runDefaultSweep(window));
    const auto& runs = window.document()->runs();
    ASSERT_FALSE(runs.empty());

    // The CLI invocation of the same sweep, from the GUI's request.
    const RunRequest& base = runs.front().request;
    QStringList tps, batches;
    for (const auto& r : runs) {
        if (!tps.contains(QString::number(r.request.tp))) tps << QString::number(r.request.tp);
        if (!batches.contains(QString::number(r.request.batch))) batches << QString::number(r.request.batch);
    }
    QTemporaryDir dir;
    const std::string workspace = dir.filePath(QStringLiteral("sweep.tpscope")).toStdString();
    std::ostringstream args;
    args << "simulate --json --model " << base.model.id << " --gpu " << base.gpu.id << " --fabric " << base.fabric.id
         << " --nodes " << base.nodes << " --gpus-per-node " << base.gpusPerNode << " --tp "
         << tps.join(QLatin1Char(',')).toStdString() << " --batch " << batches.join(QLatin1Char(',')).toStdString()
         << " --tokens " << base.tokens << " --context " << base.contextLen << " --dtype " << core::toString(base.dtype)
         << " --seed " << base.seed << (base.overlap ? " --overlap" : "") << " --runtime "
         << core::sim::toString(base.runtime)
         << (base.interFabric ? " --inter-node-fabric " + base.interFabric->id : std::string()) << " --out "
         << workspace;
    const auto sim = test::runCli(args.str());
    ASSERT_EQ(sim.exitCode, 0) << sim.out;
    const QJsonObject simJson = parseJson(sim.out);
    // The runtime profile is the run panel's (issue 26): the embedded default's, named by both.
    const auto spec = core::sim::defaultSweepSpec(*core::Catalog::load());
    ASSERT_TRUE(spec.ok());
    EXPECT_EQ(base.runtime, spec->params.effectiveRuntime());
    EXPECT_EQ(simJson.value(QStringLiteral("runtime")).toString().toStdString(), core::sim::toString(base.runtime));
    const QJsonArray simRuns = simJson.value(QStringLiteral("runs")).toArray();
    const QJsonArray skipped = simJson.value(QStringLiteral("skipped")).toArray();
    ASSERT_EQ(static_cast<std::size_t>(simRuns.size() + skipped.size()), runs.size());

    int compared = 0;
    for (const auto& value : simRuns) {
        const QJsonObject cli = value.toObject();
        const auto it = std::find_if(runs.begin(), runs.end(), [&](const RunRecord& r) {
            return r.request.tp == cli.value(QStringLiteral("tp")).toInt() &&
                   r.request.batch == cli.value(QStringLiteral("batch")).toInt();
        });
        ASSERT_NE(it, runs.end());
        ASSERT_EQ(it->status, RunStatus::Done);
        ASSERT_TRUE(it->simStats.has_value());
        const auto& s = *it->simStats;
        const std::string tp = "TP " + std::to_string(it->request.tp);
        EXPECT_EQ(cli.value(QStringLiteral("step_latency_ns")).toDouble(), s.meanStepNs) << tp;
        EXPECT_EQ(cli.value(QStringLiteral("tokens_per_sec")).toDouble(), s.tokensPerSec) << tp;
        EXPECT_EQ(cli.value(QStringLiteral("allreduces_per_step")).toInt(), s.allreducesPerStep) << tp;
        EXPECT_EQ(cli.value(QStringLiteral("collectives_per_step")).toInt(), s.collectivesPerStep) << tp;
        EXPECT_EQ(cli.value(QStringLiteral("allreduce_time_ns_per_step")).toDouble(), s.allreduceKernelNsPerStep) << tp;
        EXPECT_EQ(cli.value(QStringLiteral("allreduce_transfer_ns_per_step")).toDouble(), s.allreduceTransferNsPerStep)
            << tp;
        EXPECT_EQ(cli.value(QStringLiteral("allreduce_wait_ns_per_step")).toDouble(), s.allreduceWaitNsPerStep) << tp;
        EXPECT_EQ(cli.value(QStringLiteral("exposed_comm_ns_per_step")).toDouble(), s.exposedCommNsPerStep) << tp;
        EXPECT_EQ(cli.value(QStringLiteral("exposed_comm_share")).toDouble(), s.exposedCommShare) << tp;
        EXPECT_EQ(cli.value(QStringLiteral("events")).toDouble(), static_cast<double>(s.events)) << tp;
        EXPECT_EQ(static_cast<std::uint64_t>(cli.value(QStringLiteral("events")).toDouble()), it->trace->eventCount())
            << tp;
        // The table's mean step comes from the run's analysis of the trace (integer ns): the same
        // mean as the simulator's own to within the trace's nanosecond rounding.
        EXPECT_NEAR(it->metrics.stepLatencyNs, s.meanStepNs, 1.0) << tp;
        ++compared;
    }
    EXPECT_GE(compared, 3);
    for (const auto& value : skipped) {
        const QJsonObject cli = value.toObject();
        const auto it = std::find_if(runs.begin(), runs.end(), [&](const RunRecord& r) {
            return r.request.tp == cli.value(QStringLiteral("tp")).toInt();
        });
        ASSERT_NE(it, runs.end());
        EXPECT_EQ(it->status, RunStatus::DoesNotFit);
        EXPECT_TRUE(it->error.contains(cli.value(QStringLiteral("reason")).toString())) << it->error.toStdString();
    }

    // Scaling: the CLI on the saved sweep against the window's (core) scaling of its sweep, at the
    // window's one price (the charts' controller owns it).
    const auto* charts = window.chartTabs()->charts()->controller();
    const auto scaling = test::runCli("scaling --json --price-per-gpu-hour " +
                                      std::to_string(charts->pricePerGpuHour()) + " " + workspace);
    ASSERT_EQ(scaling.exitCode, 0) << scaling.out;
    const QJsonObject cliScaling = parseJson(scaling.out);
    const auto& report = charts->scaling();
    ASSERT_TRUE(report.ok()) << report.error().describe();
    std::ostringstream gui;
    core::JsonWriter w(gui);
    core::analysis::writeScalingJson(w, *report, {});
    const QJsonObject guiScaling = parseJson(gui.str());
    expectSameNumbers(cliScaling.value(QStringLiteral("batches")), guiScaling.value(QStringLiteral("batches")),
                      "batches");
    // And the runs table shows exactly those rows.
    const auto* model = window.runsModel();
    for (const auto& row :
         cliScaling.value(QStringLiteral("batches")).toArray()[0].toObject()[QStringLiteral("runs")].toArray()) {
        const int gpus = row.toObject().value(QStringLiteral("gpus")).toInt();
        const auto it =
            std::find_if(runs.begin(), runs.end(), [&](const RunRecord& r) { return r.request.tp == gpus; });
        ASSERT_NE(it, runs.end());
        const int r = model->rowOf(it->id);
        EXPECT_EQ(model->data(model->index(r, RunsModel::TokensPerSec), RunsModel::SortRole).toDouble(),
                  row.toObject().value(QStringLiteral("tokens_per_sec")).toDouble());
        EXPECT_EQ(model->data(model->index(r, RunsModel::StepLatency), RunsModel::SortRole).toDouble(),
                  row.toObject().value(QStringLiteral("step_latency_ns")).toDouble());
        // Against itself (the batch's baseline) the table shows no efficiency; elsewhere the CLI's.
        const int baseline = cliScaling.value(QStringLiteral("batches"))
                                 .toArray()[0]
                                 .toObject()[QStringLiteral("baseline_gpus")]
                                 .toInt();
        if (gpus == baseline) {
            EXPECT_TRUE(std::isnan(model->efficiency(it->id)));
        } else {
            EXPECT_EQ(model->efficiency(it->id), row.toObject().value(QStringLiteral("efficiency")).toDouble());
        }
    }
}

}  // namespace
}  // namespace tpscope::ui
