// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// The Compare tab (issue 13, part 1): panes on one shared axis centred on layer k of each run at every
// zoom and pan, and the delta tables equal `tpscope-cli compare --json` on the same trace files.

#include <QAction>
#include <QFile>
#include <QImage>
#include <QItemSelectionModel>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QSvgRenderer>
#include <QTableView>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include <sstream>

#include "charts/pdf_pages.h"
#include "compare_test_support.h"
#include "core/analysis/analysis_json.h"
#include "core/analysis/run_summary.h"
#include "core/util/json_writer.h"
#include "core/util/units.h"
#include "json_numbers.h"
#include "test_support.h"
#include "ui/compare/compare_tables.h"
#include "ui/compare/compare_view.h"
#include "ui/timeline/kind_palette.h"
#include "ui/timeline/time_axis.h"
#include "ui/timeline/timeline_view.h"
#include "ui/window/compare_controller.h"
#include "ui/window/runs_model.h"

namespace tpscope::ui {
namespace {

struct Compare : test::AppGuard, ::testing::Test {};

CompareRun compareRunOf(const RunRecord& r, const QString& label) {
    return {r.id, label, r.trace, r.timeline, r.analysis};
}

double layerCentre(const CompareRun& run, int layer) {
    const auto span = core::analysis::firstLayerSpan(run.analysis->breakdown, layer);
    EXPECT_TRUE(span.has_value()) << "layer " << layer;
    return span ? (static_cast<double>(span->startNs) + static_cast<double>(span->endNs)) / 2 : 0;
}

double visibleCentre(const TimelineView* v) {
    return (static_cast<double>(v->viewStartNs()) + static_cast<double>(v->viewEndNs())) / 2;
}

TEST_F(Compare, AligningOnLayerKCentresEveryPaneOnItsOwnLayerKAtEveryZoomAndPan) {
    CompareView view;
    view.resize(1400, 900);
    view.show();
    std::vector<CompareRun> runs;
    for (const int tp : {2, 4, 8}) {
        // Graph replay: the GPU sets the pace, so a higher TP runs each layer faster (an eager host
        // would launch every TP's layers at the same rate).
        RunRequest request = test::smallRequest(tp);
        request.runtime = core::sim::Runtime::CudaGraphs;
        const RunRecord r = test::simulatedRecord(request);
        runs.push_back(compareRunOf(r, QStringLiteral("TP %1").arg(tp)));
    }
    ASSERT_TRUE(view.setRuns(runs).ok());
    ASSERT_EQ(view.paneCount(), 3);
    const int lastLayer = view.comparison().layers.back().layer;
    ASSERT_GT(lastLayer, 4);
    // TP 2 runs every layer slower than TP 8: layer k starts at different times in the two runs, so
    // a shared range without anchors could not centre both.
    const double rel0 = layerCentre(runs[0], lastLayer) - static_cast<double>(view.paneView(0)->originNs());
    const double rel2 = layerCentre(runs[2], lastLayer) - static_cast<double>(view.paneView(2)->originNs());
    EXPECT_GT(std::abs(rel0 - rel2), 10'000.0);

    const auto expectCentred = [&](int layer, const char* step) {
        for (int i = 0; i < view.paneCount(); ++i) {
            EXPECT_NEAR(visibleCentre(view.paneView(i)), layerCentre(runs[static_cast<std::size_t>(i)], layer), 2.0)
                << step << ", layer " << layer << ", pane " << i;
        }
    };
    for (const int k : {0, 3, lastLayer}) {
        ASSERT_TRUE(view.alignOnLayer(k));
        EXPECT_EQ(view.alignedLayer(), k);
        expectCentred(k, "aligned");
        // The layer itself is on screen, with room either side.
        const auto span = core::analysis::firstLayerSpan(runs[0].analysis->breakdown, k);
        EXPECT_LT(view.paneView(0)->viewStartNs(), span->startNs);
        EXPECT_GT(view.paneView(0)->viewEndNs(), span->endNs);
    }
    view.zoomIn();
    expectCentred(lastLayer, "zoomed in");
    view.paneView(1)->zoomAt(0.5, view.paneView(1)->timeAreaLeft() + view.paneView(1)->timeAreaWidth() / 2.0);
    expectCentred(lastLayer, "zoomed in pane 2");
    // A pan in one pane moves every pane by the same time: all stay aligned on the layer.
    view.paneView(2)->panPixels(-150);
    const double shift = visibleCentre(view.paneView(0)) - layerCentre(runs[0], lastLayer);
    EXPECT_GT(std::abs(shift), 100.0);
    for (int i = 1; i < view.paneCount(); ++i) {
        EXPECT_NEAR(visibleCentre(view.paneView(i)) - layerCentre(runs[static_cast<std::size_t>(i)], lastLayer), shift,
                    2.0)
            << "pane " << i;
    }
    // The spin box aligns too.
    view.findChild<QSpinBox*>(QStringLiteral("compareAlignLayer"))->setValue(2);
    EXPECT_EQ(view.alignedLayer(), 2);
    expectCentred(2, "spin box");
    // Fit: every run whole from its own start, alignment off.
    view.fitView();
    EXPECT_EQ(view.alignedLayer(), -1);
    for (int i = 0; i < view.paneCount(); ++i) {
        const TimelineView* v = view.paneView(i);
        EXPECT_EQ(v->viewStartNs() - v->originNs(), view.paneView(0)->viewStartNs() - view.paneView(0)->originNs());
        EXPECT_LE(v->viewStartNs(), v->originNs());
    }
}

TEST_F(Compare, AMeasuredTraceOnItsOwnClockAndASimulatedRunAlignOnTheirLayerZero) {
    TPSCOPE_REQUIRE_PUBLIC("param-dlrm_kineto-8rank");
    // The public 8-rank PyTorch-profiler trace (epoch-microsecond clock) beside a simulated run (starts at 0).
    auto opened = defaultServices().open(
        QString::fromStdString((test::publicTraces() / "param-dlrm_kineto-8rank").string()), TaskControl{}, {});
    ASSERT_TRUE(opened.ok()) << opened.error().describe();
    ASSERT_EQ(opened->runs.size(), 1u);
    const RunRecord& measured = opened->runs.front();
    const RunRecord sim = test::simulatedRecord(test::smallRequest(8));
    const std::vector<CompareRun> runs{compareRunOf(measured, QStringLiteral("param")),
                                       compareRunOf(sim, QStringLiteral("sim"))};
    CompareView view;
    view.resize(1400, 900);
    view.show();
    ASSERT_TRUE(view.setRuns(runs).ok());
    ASSERT_EQ(view.alignedLayer(), 0);
    for (int i = 0; i < 2; ++i) {
        EXPECT_NEAR(visibleCentre(view.paneView(i)), layerCentre(runs[static_cast<std::size_t>(i)], 0), 2.0)
            << "pane " << i;
    }
}

TEST_F(Compare, ExportsTheStackedTimelinesAsPngSvgPdfAndTheTableOnScreenAsCsv) {
    CompareView view;
    view.resize(1200, 800);
    const RunRecord a = test::simulatedRecord(test::smallRequest(2));
    const RunRecord b = test::simulatedRecord(test::smallRequest(4));
    ASSERT_TRUE(view.setRuns({compareRunOf(a, QStringLiteral("TP 2")), compareRunOf(b, QStringLiteral("TP 4"))}).ok());
    QTemporaryDir dir;
    const QString png = dir.filePath(QStringLiteral("c.png"));
    ASSERT_TRUE(view.exportTo({png, QSize(1000, 600), 2.0}).ok());
    const QImage image(png);
    EXPECT_EQ(image.size(), QSize(2000, 1200));
    // Both panes are painted: the GEMM colour shows in the top and in the bottom half.
    const QRgb gemm = kindColor(core::EventKind::Gemm).rgb();
    int top = 0, bottom = 0;
    for (int y = 0; y < image.height(); y += 2) {
        for (int x = 2 * TimelineView::kGutterWidth; x < image.width(); x += 3) {
            if (image.pixel(x, y) == gemm) (y < image.height() / 2 ? top : bottom) += 1;
        }
    }
    EXPECT_GT(top, 100);
    EXPECT_GT(bottom, 100);
    const QString svg = dir.filePath(QStringLiteral("c.svg"));
    ASSERT_TRUE(view.exportTo({svg, QSize(1000, 600), 1.0}).ok());
    QSvgRenderer renderer(svg);
    EXPECT_TRUE(renderer.isValid());
    const QString pdf = dir.filePath(QStringLiteral("c.pdf"));
    ASSERT_TRUE(view.exportTo({pdf, QSize(1000, 600), 1.0}).ok());
    EXPECT_EQ(test::pdfPageCount(pdf), 1);
    // CSV: the per-layer table, one line per row plus the header, raw numbers.
    const QString csv = dir.filePath(QStringLiteral("c.csv"));
    ASSERT_TRUE(view.exportTo({csv, {}, 1.0}).ok());
    QFile file(csv);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    ASSERT_EQ(lines.size(), view.layerTable()->rowCount() + 1);
    EXPECT_TRUE(lines[0].startsWith(QStringLiteral("Layer,Run,Wall")));
    EXPECT_TRUE(
        lines[1].contains(QString::fromStdString(core::formatShortest(view.comparison().layers[0].runs[0].wallNs))))
        << lines[1].toStdString();
    // The Summary tab on screen: its table.
    view.tablesTabs()->setCurrentIndex(1);
    ASSERT_TRUE(view.exportTo({csv, {}, 1.0}).ok());
    file.close();
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    EXPECT_EQ(QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts).size(), 3);
    const auto bad = view.exportTo({dir.filePath(QStringLiteral("c.bmp")), QSize(1000, 600), 1.0});
    EXPECT_FALSE(bad.ok());
}

TEST_F(Compare, RefusesFewerThanTwoOrMoreThanFourRunsAndUnfinishedOnes) {
    CompareView view;
    const RunRecord r = test::simulatedRecord(test::smallRequest(2));
    const CompareRun one = compareRunOf(r, QStringLiteral("a"));
    const auto single = view.setRuns({one});
    ASSERT_FALSE(single.ok());
    EXPECT_NE(single.error().message.find("2 to 4"), std::string::npos);
    EXPECT_FALSE(view.setRuns({one, one, one, one, one}).ok());
    CompareRun pending = one;
    pending.analysis.reset();
    const auto unfinished = view.setRuns({one, pending});
    ASSERT_FALSE(unfinished.ok());
    EXPECT_NE(unfinished.error().message.find("not finished"), std::string::npos);
    EXPECT_FALSE(view.hasRuns());
    EXPECT_FALSE(view.exportTo({QStringLiteral("/tmp/none.png"), {}, 1.0}).ok());
}

using test::expectSameNumbers;
using test::parseJson;

double cell(const QStandardItemModel* model, int row, int column) {
    const QVariant v = model->data(model->index(row, column), Qt::UserRole);
    EXPECT_TRUE(v.isValid()) << "row " << row << " column " << column;
    return v.toDouble();
}

TEST_F(Compare, TheWindowsDeltaTablesEqualCompareJsonOnTheSameFiles) {
    QTemporaryDir dir;
    const QString tp4 = dir.filePath(QStringLiteral("tp4.json")), tp8 = dir.filePath(QStringLiteral("tp8.json"));
    ASSERT_TRUE(core::writeChromeJson(*test::simulatedRecord(test::smallRequest(4)).trace, tp4.toStdString()).ok());
    ASSERT_TRUE(core::writeChromeJson(*test::simulatedRecord(test::smallRequest(8)).trace, tp8.toStdString()).ok());

    MainWindow window(defaultServices());
    window.setUnsavedPrompt([](QWidget*) { return QMessageBox::Discard; });
    for (const QString& file : {tp4, tp8}) {
        QSignalSpy opened(&window, &MainWindow::documentOpened);
        window.openPath(file);
        ASSERT_TRUE(opened.wait(60'000)) << file.toStdString();
    }
    ASSERT_EQ(window.document()->size(), 2u);
    auto* controller = window.compareController();
    auto* table = window.runsTable();
    table->selectionModel()->select(table->model()->index(0, 0),
                                    QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    EXPECT_FALSE(controller->compareAction()->isEnabled());  // one run: nothing to compare
    table->selectionModel()->select(table->model()->index(1, 0),
                                    QItemSelectionModel::Select | QItemSelectionModel::Rows);
    ASSERT_TRUE(controller->compareAction()->isEnabled());
    controller->compareAction()->trigger();
    CompareView* view = controller->view();
    ASSERT_EQ(view->paneCount(), 2);
    EXPECT_EQ(window.tabs()->currentWidget(), view);
    EXPECT_FALSE(view->hasResidual());  // two simulated runs: no measured one

    const auto cli = test::runCli("compare --json " + tp4.toStdString() + " " + tp8.toStdString());
    ASSERT_EQ(cli.exitCode, 0) << cli.out;
    const QJsonObject json = parseJson(cli.out);
    // The whole comparison, field by field (the view's from core::analysis::compareRuns).
    std::ostringstream gui;
    core::JsonWriter w(gui);
    core::analysis::writeComparisonJson(w, view->comparison());
    const QJsonObject guiJson = parseJson(gui.str());
    expectSameNumbers(json, guiJson, "compare");
    expectSameNumbers(guiJson, json, "compare (the other way: no field more)");

    // And what the tables show is those numbers.
    const QJsonArray runs = json.value(QStringLiteral("runs")).toArray();
    const auto* summary = view->summaryTable();
    ASSERT_EQ(summary->rowCount(), runs.size());
    for (int i = 0; i < runs.size(); ++i) {
        const QJsonObject r = runs[i].toObject();
        EXPECT_EQ(cell(summary, i, col(SummaryColumn::Ranks)), r.value(QStringLiteral("ranks")).toDouble());
        EXPECT_EQ(cell(summary, i, col(SummaryColumn::StepLatency)),
                  r.value(QStringLiteral("step_latency_ns")).toDouble());
        EXPECT_EQ(cell(summary, i, col(SummaryColumn::TokensPerSec)),
                  r.value(QStringLiteral("tokens_per_sec")).toDouble());
        EXPECT_EQ(cell(summary, i, col(SummaryColumn::ExposedCommShare)),
                  r.value(QStringLiteral("exposed_comm_share")).toDouble());
        EXPECT_EQ(cell(summary, i, col(SummaryColumn::ExposedWaitShare)),
                  r.value(QStringLiteral("exposed_wait_share")).toDouble());
        if (i == 0) continue;
        EXPECT_EQ(cell(summary, i, col(SummaryColumn::StepLatencyDelta)),
                  r.value(QStringLiteral("latency_delta_fraction")).toDouble());
        EXPECT_EQ(cell(summary, i, col(SummaryColumn::TokensPerSecDelta)),
                  r.value(QStringLiteral("tokens_per_sec_delta_fraction")).toDouble());
        EXPECT_EQ(cell(summary, i, col(SummaryColumn::ExposedCommShareDelta)),
                  r.value(QStringLiteral("exposed_comm_share_delta")).toDouble());
    }
    const QJsonArray layers = json.value(QStringLiteral("layers")).toArray();
    const auto* perLayer = view->layerTable();
    ASSERT_EQ(perLayer->rowCount(), layers.size() * runs.size());
    int row = 0;
    for (const auto& value : layers) {
        const QJsonObject l = value.toObject();
        const QJsonArray cells = l.value(QStringLiteral("runs")).toArray();
        const QJsonObject base = cells[0].toObject();
        for (int i = 0; i < cells.size(); ++i, ++row) {
            const QJsonObject c = cells[i].toObject();
            const std::string where =
                "layer " + std::to_string(l.value(QStringLiteral("layer")).toInt()) + " run " + std::to_string(i);
            EXPECT_EQ(cell(perLayer, row, col(LayerDeltaColumn::Layer)), l.value(QStringLiteral("layer")).toDouble());
            EXPECT_EQ(cell(perLayer, row, col(LayerDeltaColumn::Wall)), c.value(QStringLiteral("wall_ns")).toDouble())
                << where;
            EXPECT_EQ(cell(perLayer, row, col(LayerDeltaColumn::Compute)),
                      c.value(QStringLiteral("compute_ns")).toDouble())
                << where;
            EXPECT_EQ(cell(perLayer, row, col(LayerDeltaColumn::ExposedTransfer)),
                      c.value(QStringLiteral("exposed_transfer_ns")).toDouble())
                << where;
            EXPECT_EQ(cell(perLayer, row, col(LayerDeltaColumn::ExposedWait)),
                      c.value(QStringLiteral("exposed_wait_ns")).toDouble())
                << where;
            EXPECT_EQ(cell(perLayer, row, col(LayerDeltaColumn::Idle)), c.value(QStringLiteral("idle_ns")).toDouble())
                << where;
            if (i == 0) continue;
            EXPECT_EQ(cell(perLayer, row, col(LayerDeltaColumn::WallDelta)),
                      l.value(QStringLiteral("wall_delta_ns")).toArray()[i].toDouble())
                << where;
            EXPECT_EQ(cell(perLayer, row, col(LayerDeltaColumn::WallDeltaFraction)),
                      l.value(QStringLiteral("wall_delta_fraction")).toArray()[i].toDouble())
                << where;
            for (const auto& [column, key] : {std::pair{LayerDeltaColumn::ComputeDelta, "compute_ns"},
                                              std::pair{LayerDeltaColumn::ExposedTransferDelta, "exposed_transfer_ns"},
                                              std::pair{LayerDeltaColumn::ExposedWaitDelta, "exposed_wait_ns"},
                                              std::pair{LayerDeltaColumn::IdleDelta, "idle_ns"}}) {
                EXPECT_DOUBLE_EQ(cell(perLayer, row, col(column)),
                                 c.value(QLatin1String(key)).toDouble() - base.value(QLatin1String(key)).toDouble())
                    << where << " " << key;
            }
        }
    }
}

}  // namespace
}  // namespace tpscope::ui
