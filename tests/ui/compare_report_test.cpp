// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// The comparison pages of the PDF report (issue 13): headless `tpscope --report OUT.pdf A B` and
// File → Export report with two runs selected end with the runs side by side (stacked timelines, the
// delta tables and, for a measured run against its model, the residual).

#include <QItemSelectionModel>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include "charts/pdf_pages.h"
#include "compare_test_support.h"
#include "test_support.h"
#include "ui/compare/compare_view.h"
#include "ui/window/compare_controller.h"
#include "ui/window/report_export.h"

namespace tpscope::ui {
namespace {

std::string pdfText(const QString& pdf) {
    const auto r = test::runCommand("pdftotext -layout '" + pdf.toStdString() + "' -");
    EXPECT_EQ(r.exitCode, 0) << r.out;
    return r.out;
}

int pagesSaid(const std::string& out) {
    const auto said = out.find(" pages)");
    if (said == std::string::npos) return -1;
    return std::stoi(out.substr(out.rfind('(', said) + 1));
}

TEST(CompareReport, HeadlessReportOfTwoFilesEndsWithTheirComparisonSideBySide) {
    test::ensureApp();
    QTemporaryDir dir;
    const QString tp4 = dir.filePath(QStringLiteral("tp4.json")), tp8 = dir.filePath(QStringLiteral("tp8.json"));
    ASSERT_TRUE(core::writeChromeJson(*test::simulatedRecord(test::smallRequest(4)).trace, tp4.toStdString()).ok());
    ASSERT_TRUE(core::writeChromeJson(*test::simulatedRecord(test::smallRequest(8)).trace, tp8.toStdString()).ok());
    const std::string tpscope = "env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM " +
                                std::string(TPSCOPE_BINARY_DIR) + "/app/gui/tpscope --report ";
    const QString one = dir.filePath(QStringLiteral("one.pdf")), two = dir.filePath(QStringLiteral("two.pdf"));
    const auto single = test::runCommand(tpscope + one.toStdString() + " " + tp4.toStdString());
    ASSERT_EQ(single.exitCode, 0) << single.out;
    const auto pair = test::runCommand(tpscope + two.toStdString() + " " + tp4.toStdString() + " " + tp8.toStdString());
    ASSERT_EQ(pair.exitCode, 0) << pair.out;
    EXPECT_EQ(test::pdfPageCount(two), pagesSaid(pair.out));
    // The sweep part (summary, three charts, a layer table) and then at least the timelines page and
    // the tables page of the comparison.
    EXPECT_GE(test::pdfPageCount(two), test::pdfPageCount(one) + 2);
    const std::string text = pdfText(two);
    EXPECT_NE(text.find("Compare: timelines side by side, aligned on layer 0"), std::string::npos) << text;
    EXPECT_NE(text.find("#1 tp4.json"), std::string::npos);
    EXPECT_NE(text.find("#2 tp8.json"), std::string::npos);
    EXPECT_NE(text.find("Compare: per layer"), std::string::npos);
    EXPECT_NE(text.find("Δ wall vs"), std::string::npos);  // the header wraps before "#1"
    EXPECT_EQ(text.find("Residual"), std::string::npos);   // two simulated runs: no measured one
    EXPECT_EQ(pdfText(one).find("Compare:"), std::string::npos);
}

TEST(CompareReport, ExportReportWithAMeasuredRunAndItsModelComparedHasTheResidualPages) {
    test::ensureApp();
    MainWindow window(defaultServices());
    window.setUnsavedPrompt([](QWidget*) { return QMessageBox::Discard; });
    const RunId measured =
        window.document()->add(test::simulatedRecord(test::smallRequest(4), core::TraceOrigin::Imported));
    const RunId model = window.document()->add(test::simulatedRecord(test::smallRequest(4, "pcie4")));
    ASSERT_NE(measured, model);
    QTemporaryDir dir;
    const QString without = dir.filePath(QStringLiteral("without.pdf")),
                  with = dir.filePath(QStringLiteral("with.pdf"));
    // Nothing in the Compare tab: no comparison pages, whatever the runs table selects (issue 45 §2).
    auto* table = window.runsTable();
    table->selectionModel()->select(table->model()->index(0, 0),
                                    QItemSelectionModel::Select | QItemSelectionModel::Rows);
    table->selectionModel()->select(table->model()->index(1, 0),
                                    QItemSelectionModel::Select | QItemSelectionModel::Rows);
    ASSERT_TRUE(window.reportExport()->exportReport(without).ok());
    ASSERT_TRUE(window.compareController()->compare({measured, model}).ok());
    table->clearSelection();  // the report follows the Compare tab, not the selection
    ASSERT_TRUE(window.reportExport()->exportReport(with).ok());
    // Timelines, tables, residual chart, residual table: four pages or more (tables may wrap).
    EXPECT_GE(test::pdfPageCount(with), test::pdfPageCount(without) + 4);
    const std::string text = pdfText(with);
    EXPECT_NE(text.find("Compare: timelines side by side"), std::string::npos) << text;
    EXPECT_NE(text.find("measured · measured-tp4.json"), std::string::npos);
    EXPECT_NE(text.find("Residual: measured − model per layer"), std::string::npos);
    EXPECT_NE(text.find("Residual per layer (measured − model)"), std::string::npos);
    EXPECT_EQ(pdfText(without).find("Compare:"), std::string::npos);
}

}  // namespace
}  // namespace tpscope::ui
