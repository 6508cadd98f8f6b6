// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Exports are valid: PNGs have the size asked for, SVGs parse, PDFs have the right page count,
// CSVs hold the table's raw numbers, and the report's pages are what it says it wrote.
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QXmlStreamReader>

#include <gtest/gtest.h>

#include <algorithm>

#include "chart_fixture.h"
#include "pdf_pages.h"
#include "ui/charts/cost_page.h"
#include "ui/charts/layers_page.h"
#include "ui/charts/scaling_page.h"
#include "ui/export/plot_export.h"
#include "ui/report/sweep_report.h"

namespace tpscope::ui {
namespace {

// poppler's count, where poppler-utils is installed.
int pdfinfoPages(const QString& path) {
    if (QStandardPaths::findExecutable(QStringLiteral("pdfinfo")).isEmpty()) return -1;
    QProcess p;
    p.start(QStringLiteral("pdfinfo"), {path});
    p.waitForFinished(10000);
    for (const auto& line : QString::fromUtf8(p.readAllStandardOutput()).split(QLatin1Char('\n'))) {
        if (line.startsWith(QStringLiteral("Pages:"))) return line.mid(6).trimmed().toInt();
    }
    return -1;
}

bool svgParses(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return false;
    QXmlStreamReader xml(&f);
    bool sawSvg = false;
    while (!xml.atEnd()) {
        if (xml.readNext() == QXmlStreamReader::StartElement && xml.name() == QLatin1String("svg")) sawSvg = true;
    }
    return !xml.hasError() && sawSvg && QSvgRenderer(path).isValid();
}

struct ChartExport : test::ChartsFixture {
    QTemporaryDir dir;
    QString path(const char* name) const { return dir.filePath(QString::fromLatin1(name)); }
};

TEST_F(ChartExport, PngIsTheLogicalSizeTimesThePixelRatio) {
    ASSERT_TRUE(dir.isValid());
    for (const double dpr : {1.0, 2.0}) {
        const QString file = path(dpr == 1.0 ? "scaling1.png" : "scaling2.png");
        const auto status = charts->scaling()->exportTo({file, QSize(900, 560), dpr});
        ASSERT_TRUE(status.ok()) << status.error().describe();
        const QImage image(file);
        EXPECT_EQ(image.size(), QSize(900, 560) * dpr);  // sizePx is logical: the image is sizePx × dpr
        EXPECT_NEAR(image.dotsPerMeterX() * 0.0254, 96 * dpr, 1.0);
    }
}

TEST_F(ChartExport, SvgParsesAndPdfIsOnePage) {
    for (auto* page : charts->pages()) {
        const QString svg = dir.filePath(page->tabTitle() + QStringLiteral(".svg"));
        const QString pdf = dir.filePath(page->tabTitle() + QStringLiteral(".pdf"));
        ASSERT_TRUE(page->exportTo({svg, QSize(800, 500), 1.0}).ok());
        ASSERT_TRUE(page->exportTo({pdf, QSize(800, 500), 1.0}).ok());
        EXPECT_TRUE(svgParses(svg)) << svg.toStdString();
        EXPECT_EQ(test::pdfPageCount(pdf), 1) << pdf.toStdString();
    }
}

TEST_F(ChartExport, CsvHoldsTheTablesRawNumbers) {
    const QString csv = path("layers.csv");
    ASSERT_TRUE(charts->layers()->exportTo({csv, {}, 1.0}).ok());
    QFile f(csv);
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    auto* table = charts->layers()->tableModel();
    ASSERT_EQ(lines.size(), table->rowCount() + 1);
    EXPECT_TRUE(lines[0].startsWith(QStringLiteral("layer,wall_ns,"))) << lines[0].toStdString();
    // Row 1, column "Wall": the raw nanoseconds, written with a point whatever the locale.
    const double wall = table->item(0, 1)->data(Qt::UserRole).toDouble();
    EXPECT_DOUBLE_EQ(lines[1].split(QLatin1Char(','))[1].toDouble(), wall);
}

// Issue 49: a CSV header names its unit. "Step latency" was ms in cost.csv and ns in scaling.csv
// under one title; now each column says which, and every column is a snake_case name.
TEST_F(ChartExport, EveryCsvHeaderNamesItsUnit) {
    const QRegularExpression snake(QStringLiteral("^[a-z][a-z0-9_]*$"));
    const QStringList units{QStringLiteral("_ns"),      QStringLiteral("_ms"),    QStringLiteral("_us"),
                            QStringLiteral("_per_sec"), QStringLiteral("_share"), QStringLiteral("_fraction"),
                            QStringLiteral("_ratio"),   QStringLiteral("_tokens")};
    const QStringList unitless{QStringLiteral("layer"), QStringLiteral("batch"), QStringLiteral("gpus"),
                               QStringLiteral("meets_target")};
    QStringList latencyColumns;
    for (auto* page : {static_cast<ChartPage*>(charts->layers()), static_cast<ChartPage*>(charts->scaling()),
                       static_cast<ChartPage*>(charts->cost())}) {
        const QString csv = dir.filePath(page->tabTitle() + QStringLiteral(".csv"));
        ASSERT_TRUE(page->exportTo({csv, {}, 1.0}).ok());
        QFile f(csv);
        ASSERT_TRUE(f.open(QIODevice::ReadOnly));
        const QStringList header = QString::fromUtf8(f.readLine()).trimmed().split(QLatin1Char(','));
        for (const auto& name : header) {
            EXPECT_TRUE(snake.match(name).hasMatch()) << name.toStdString();
            const bool hasUnit =
                std::any_of(units.begin(), units.end(), [&](const QString& u) { return name.endsWith(u); });
            EXPECT_TRUE(hasUnit || unitless.contains(name))
                << page->tabTitle().toStdString() << ": " << name.toStdString();
            if (name.startsWith(QStringLiteral("step_latency"))) latencyColumns << name;
        }
    }
    // Scaling keeps ns, cost ms (their raw numbers): the names say so.
    EXPECT_EQ(latencyColumns, (QStringList{QStringLiteral("step_latency_ns"), QStringLiteral("step_latency_ms")}));
}

TEST_F(ChartExport, BadExportRequestsGetOneClearError) {
    const auto wrongKind = charts->cost()->exportTo({path("cost.bmp"), QSize(100, 100), 1.0});
    ASSERT_FALSE(wrongKind.ok());
    EXPECT_NE(wrongKind.error().message.find(".png, .svg or .pdf"), std::string::npos);
    const auto unwritable = charts->cost()->exportTo({QStringLiteral("/nonexistent-dir/x.png"), QSize(100, 100), 1.0});
    EXPECT_FALSE(unwritable.ok());
}

TEST_F(ChartExport, ReportPdfHasTheSummaryEveryChartAndTheLayerTable) {
    const QString pdf = path("report.pdf");
    const auto& runs = test::smallSweep();
    const auto pages = writeSweepReport(pdf, runs.context, *charts);
    ASSERT_TRUE(pages.ok()) << pages.error().describe();
    // At least: summary, three charts, the per-layer table (32 layers fit on one page each).
    EXPECT_GE(*pages, 5);
    EXPECT_EQ(test::pdfPageCount(pdf), *pages);
    const int poppler = pdfinfoPages(pdf);
    if (poppler >= 0) {
        EXPECT_EQ(poppler, *pages);
    }
}

TEST_F(ChartExport, ExportAllWritesEveryFormatOfEveryChart) {
    const auto written = exportAllCharts(dir.filePath(QStringLiteral("charts")), *charts, QSize(640, 400), 1.0);
    ASSERT_TRUE(written.ok()) << written.error().describe();
    EXPECT_EQ(written->size(), 12);  // 3 charts × png, svg, pdf, csv
    for (const auto& f : *written) EXPECT_GT(QFile(f).size(), 0) << f.toStdString();
}

}  // namespace
}  // namespace tpscope::ui
