// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// The tpscope executable's headless modes, run as a user (or ./setup.sh gui without a display)
// would: no DISPLAY, no QT_QPA_PLATFORM.

#include <QDir>
#include <QFile>
#include <QImage>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include <string>

#include "charts/pdf_pages.h"
#include "test_support.h"

namespace {

std::string tpscope() {
    return std::string(TPSCOPE_BINARY_DIR) + "/app/gui/tpscope";
}

std::string withoutDisplay(const std::string& args) {
    return "env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM " + tpscope() + " " + args;
}

// `tpscope --report OUT FILES` without a display; OUT/summary.md's text (empty, with the failure
// recorded, when the run or the file failed).
QString reportSummary(const QString& out, const std::string& files = {}) {
    const auto r =
        tpscope::test::runCommand(withoutDisplay("--report " + out.toStdString() + (files.empty() ? "" : " " + files)));
    EXPECT_EQ(r.exitCode, 0) << r.out;
    QFile summary(out + QStringLiteral("/summary.md"));
    EXPECT_TRUE(summary.open(QIODevice::ReadOnly)) << summary.fileName().toStdString();
    return QString::fromUtf8(summary.readAll());
}

TEST(TpscopeApp, ReportModeWritesTheSummaryAndScreenshotsWithoutADisplay) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString text = reportSummary(dir.path());
    ASSERT_FALSE(text.isEmpty());
    QImage main(dir.filePath(QStringLiteral("screenshot-main.png")));
    EXPECT_EQ(main.size(), QSize(1600, 1000));
    EXPECT_FALSE(QImage(dir.filePath(QStringLiteral("timeline-overview.png"))).isNull());
    EXPECT_TRUE(text.contains(QStringLiteral("Llama-3 70B")));
    EXPECT_TRUE(text.contains(QStringLiteral("| 8 | done |")));
    EXPECT_TRUE(text.contains(QStringLiteral("does not fit")));  // TP 1: 70B fp16 weights exceed 80 GB
    // The screenshot's description names the selected call's op and kernel, and they agree
    // (the selection is the largest arrival skew of any collective, often an all-gather).
    const QRegularExpression selected(QStringLiteral("selected: the (all_reduce|all_gather|[a-z_]+) call `([^`]+)`"));
    const auto m = selected.match(text);
    ASSERT_TRUE(m.hasMatch()) << text.toStdString();
    const QString camel = m.captured(1) == QStringLiteral("all_reduce")   ? QStringLiteral("AllReduce")
                          : m.captured(1) == QStringLiteral("all_gather") ? QStringLiteral("AllGather")
                                                                          : QString();
    ASSERT_FALSE(camel.isEmpty()) << m.captured(1).toStdString();
    EXPECT_TRUE(m.captured(2).contains(camel)) << m.captured(0).toStdString();
}

// Issue 49: `tpscope --report DIR FILE` writes every file in DIR from FILE, none from the default sweep.
TEST(TpscopeApp, ReportFolderOfAFileIsAllOfThatFile) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const std::string run = dir.filePath(QStringLiteral("small.tpscope")).toStdString();
    const auto sim = tpscope::test::runCli("simulate --model llama3-8b --tp 2 --tokens 2 --out " + run);
    ASSERT_EQ(sim.exitCode, 0) << sim.out;
    const QString out = dir.filePath(QStringLiteral("report"));
    const QString text = reportSummary(out, run);
    ASSERT_FALSE(text.isEmpty());
    EXPECT_TRUE(text.contains(QString::fromStdString(run))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("Llama-3 8B"))) << text.toStdString();
    EXPECT_FALSE(text.contains(QStringLiteral("70B"))) << "nothing of the default sweep: " << text.toStdString();
    EXPECT_FALSE(text.contains(QStringLiteral("default sweep"))) << text.toStdString();
    EXPECT_GE(tpscope::test::pdfPageCount(out + QStringLiteral("/report.pdf")), 1);
    EXPECT_FALSE(QImage(out + QStringLiteral("/screenshot-main.png")).isNull());
}

// An opened trace has no simulation request: its summary says what the file records, never an
// empty "Model ****, batch 0 … over ;" line or an empty "Trace source".
TEST(TpscopeApp, ReportOfAnOpenedTraceDescribesTheTraceNotAnEmptyRequest) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const std::string trace = std::string(TPSCOPE_SOURCE_DIR) + "/tests/golden/fixtures/kineto_2rank";
    const QString out = dir.filePath(QStringLiteral("report"));
    const QString text = reportSummary(out, trace);
    ASSERT_FALSE(text.isEmpty());
    EXPECT_TRUE(text.contains(QStringLiteral("Opened trace (imported), 2 ranks"))) << text.toStdString();
    EXPECT_FALSE(text.contains(QStringLiteral("****"))) << text.toStdString();
    EXPECT_FALSE(text.contains(QStringLiteral("batch 0"))) << text.toStdString();
    EXPECT_FALSE(text.contains(QStringLiteral("Trace source: ."))) << text.toStdString();
}

TEST(TpscopeApp, VersionIsTheProjectVersion) {
    const auto r = tpscope::test::runCommand(withoutDisplay("--version"));
    EXPECT_EQ(r.exitCode, 0) << r.out;
    EXPECT_NE(r.out.find(std::string("tpscope ") + TPSCOPE_PROJECT_VERSION), std::string::npos) << r.out;
}

TEST(TpscopeApp, ReportToAPdfWritesEveryPageWithoutADisplay) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString pdf = dir.filePath(QStringLiteral("sub/out.pdf"));
    const auto r = tpscope::test::runCommand(withoutDisplay("--report " + pdf.toStdString()));
    ASSERT_EQ(r.exitCode, 0) << r.out;
    // The pages the program says it wrote are the page objects in the file.
    const auto said = r.out.find(" pages)");
    ASSERT_NE(said, std::string::npos) << r.out;
    const int pages = std::stoi(r.out.substr(r.out.rfind('(', said) + 1));
    EXPECT_GE(pages, 5);  // summary, three charts, the per-layer table
    EXPECT_EQ(tpscope::test::pdfPageCount(pdf), pages);
}

TEST(TpscopeApp, ExportChartsWritesEveryChartInEveryFormat) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const auto r = tpscope::test::runCommand(withoutDisplay("--export-charts " + dir.path().toStdString()));
    ASSERT_EQ(r.exitCode, 0) << r.out;
    for (const char* chart : {"layers", "scaling", "cost"}) {
        for (const char* ext : {"png", "svg", "pdf", "csv"}) {
            const QString file = dir.filePath(QStringLiteral("%1.%2").arg(QLatin1String(chart), QLatin1String(ext)));
            EXPECT_GT(QFile(file).size(), 0) << file.toStdString();
        }
        EXPECT_EQ(QImage(dir.filePath(QStringLiteral("%1.png").arg(QLatin1String(chart)))).size(), QSize(1600, 1000));
    }
}

TEST(TpscopeApp, ReportOfAFileThatIsNotATraceFailsWithTheReason) {
    QTemporaryDir dir;
    const QString junk = dir.filePath(QStringLiteral("notes.json"));
    QFile f(junk);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write("{\"hello\": 1}");
    f.close();
    const auto r = tpscope::test::runCommand(
        withoutDisplay("--report " + dir.filePath(QStringLiteral("x.pdf")).toStdString() + " " + junk.toStdString()));
    EXPECT_NE(r.exitCode, 0);
    EXPECT_NE(r.out.find("notes.json"), std::string::npos) << r.out;
    EXPECT_FALSE(QFile::exists(dir.filePath(QStringLiteral("x.pdf"))));
}

TEST(TpscopeApp, ScreenshotOfAnUnreadableFileShowsTheReasonAndFails) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString bad = dir.filePath(QStringLiteral("notes.json"));
    QFile f(bad);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write("this is not a trace");
    f.close();
    const QString out = dir.filePath(QStringLiteral("shot.png"));
    const auto r =
        tpscope::test::runCommand(withoutDisplay("--screenshot " + out.toStdString() + " " + bad.toStdString()));
    EXPECT_EQ(r.exitCode, 2) << r.out;
    EXPECT_NE(r.out.find("notes.json"), std::string::npos) << r.out;
    EXPECT_FALSE(QImage(out).isNull());
}

TEST(TpscopeApp, HeadlessModesLeaveTheUsersSettingsAlone) {
    TPSCOPE_REQUIRE_PUBLIC("tracelens-h100-qwen/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz");
    QTemporaryDir home;
    ASSERT_TRUE(home.isValid());
    const std::string trace =
        (tpscope::test::publicTraces() / "tracelens-h100-qwen/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz").string();
    const QString out = home.filePath(QStringLiteral("shot.png"));
    // Opening a file remembers its folder and the recent files: in the user's settings, were it not headless.
    const auto r = tpscope::test::runCommand("HOME=" + home.path().toStdString() + " XDG_CONFIG_HOME=" +
                                             home.filePath(QStringLiteral("config")).toStdString() + " " +
                                             withoutDisplay("--screenshot " + out.toStdString() + " " + trace));
    ASSERT_EQ(r.exitCode, 0) << r.out;
    EXPECT_FALSE(QImage(out).isNull());
    EXPECT_FALSE(QDir(home.filePath(QStringLiteral("config/tpscope"))).exists()) << "settings were written";
    EXPECT_FALSE(QDir(home.filePath(QStringLiteral(".config/tpscope"))).exists()) << "settings were written";
}

TEST(TpscopeApp, HelpNamesTheHeadlessModes) {
    const auto r = tpscope::test::runCommand(withoutDisplay("--help"));
    EXPECT_EQ(r.exitCode, 0) << r.out;
    EXPECT_NE(r.out.find("--screenshot"), std::string::npos);
    EXPECT_NE(r.out.find("--report"), std::string::npos);
}

TEST(TpscopeApp, StartingTheWindowWithoutADisplaySaysWhatToDoInstead) {
    const auto r = tpscope::test::runCommand(withoutDisplay(""));
    EXPECT_EQ(r.exitCode, 1) << r.out;
    EXPECT_NE(r.out.find("no display"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("--report"), std::string::npos) << r.out;
}

}  // namespace
