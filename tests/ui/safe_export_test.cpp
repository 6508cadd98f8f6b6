// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Exports write through a QSaveFile (issue 28 §2): a failure leaves the previous file as it was. The
// failure is real, not mocked: the process's file size limit (RLIMIT_FSIZE, which binds root too,
// unlike permissions) is lowered below the size of the export, so its writes fail with EFBIG half-way
// like a full disk's; a folder where the file should be is the other. Export view uses the filter the
// user chose when the typed name has no suffix.

#include <QFile>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include <sys/resource.h>
#include <csignal>

#include "main_window_test_support.h"
#include "ui/charts/chart_set.h"
#include "ui/charts/layers_page.h"
#include "ui/document/run_document.h"
#include "ui/jobs/sim_service.h"
#include "ui/window/chart_tabs.h"
#include "ui/window/main_window.h"

namespace tpscope::ui {
namespace {

using test::kWaitMs;

// Writes beyond `bytes` fail (EFBIG) while it lives; SIGXFSZ ignored so they fail instead of killing us.
class FileSizeLimit {
  public:
    explicit FileSizeLimit(rlim_t bytes) {
        m_handler = std::signal(SIGXFSZ, SIG_IGN);
        getrlimit(RLIMIT_FSIZE, &m_old);
        rlimit lowered = m_old;
        lowered.rlim_cur = bytes;
        m_ok = setrlimit(RLIMIT_FSIZE, &lowered) == 0;
    }
    ~FileSizeLimit() {
        setrlimit(RLIMIT_FSIZE, &m_old);
        std::signal(SIGXFSZ, m_handler);
    }
    FileSizeLimit(const FileSizeLimit&) = delete;
    FileSizeLimit& operator=(const FileSizeLimit&) = delete;
    bool ok() const { return m_ok; }

  private:
    rlimit m_old{};
    void (*m_handler)(int) = nullptr;
    bool m_ok = false;
};

QByteArray contents(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return f.readAll();
}

struct SafeExport : test::AppGuard, ::testing::Test {
    SafeExport() : window(quick.services()) {}
    void SetUp() override {
        quick.steps = 1;
        window.setUnsavedPrompt([](QWidget*) { return QMessageBox::Discard; });
        auto sweep = defaultSweepRequest(window.catalog(), 2.0);
        ASSERT_TRUE(sweep.ok());
        sweep->tps = {1, 2};
        sweep->batches = {1};
        QSignalSpy finished(&window, &MainWindow::sweepFinished);
        ASSERT_EQ(window.startSweepRequest(*sweep).size(), 2u);
        ASSERT_TRUE(finished.wait(kWaitMs));
        window.resize(1200, 800);
        window.tabs()->setCurrentWidget(window.chartTabs()->charts()->layers());
        ASSERT_TRUE(dir.isValid());
    }
    test::SlowRuns quick;
    MainWindow window;
    QTemporaryDir dir;
};

TEST_F(SafeExport, AnExportThatFailsHalfWayLeavesThePreviousFile) {
    for (const QString& suffix : {QStringLiteral("png"), QStringLiteral("svg"), QStringLiteral("pdf")}) {
        SCOPED_TRACE(suffix.toStdString());
        const QString path = dir.filePath(QStringLiteral("layers.") + suffix);
        ASSERT_TRUE(window.exportCurrentViewTo(path, QString())) << window.lastError().toStdString();
        const QByteArray previous = contents(path);
        ASSERT_GT(previous.size(), 2048);  // larger than the limit below: the second write must hit it
        bool exported = true;
        {
            FileSizeLimit limit(1024);
            ASSERT_TRUE(limit.ok());
            exported = window.exportCurrentViewTo(path, QString());
        }
        EXPECT_FALSE(exported) << "a write past the size limit must fail";
        EXPECT_TRUE(window.lastError().contains(QStringLiteral("Could not export")))
            << window.lastError().toStdString();
        EXPECT_EQ(contents(path), previous) << "the previous file was damaged";
        // Nothing half-written is left next to it either.
        EXPECT_EQ(QDir(dir.path()).entryList(QDir::Files).filter(QStringLiteral("layers.") + suffix).size(), 1);
    }
}

TEST_F(SafeExport, AFolderWhereTheFileShouldBeIsAnErrorAndStaysAFolder) {
    const QString path = dir.filePath(QStringLiteral("chart.png"));
    ASSERT_TRUE(QDir().mkpath(path + QStringLiteral("/inside")));
    EXPECT_FALSE(window.exportCurrentViewTo(path, QString()));
    EXPECT_TRUE(window.lastError().contains(QStringLiteral("folder"))) << window.lastError().toStdString();
    EXPECT_TRUE(QFileInfo(path + QStringLiteral("/inside")).isDir());
}

TEST_F(SafeExport, ExportViewUsesTheChosenFilterForANameWithoutSuffix) {
    ASSERT_TRUE(window.exportCurrentViewTo(dir.filePath(QStringLiteral("layers")), QStringLiteral("SVG (*.svg)")));
    EXPECT_TRUE(contents(dir.filePath(QStringLiteral("layers.svg"))).contains("<svg"));
    ASSERT_TRUE(window.exportCurrentViewTo(dir.filePath(QStringLiteral("layers")), QStringLiteral("PDF (*.pdf)")));
    EXPECT_TRUE(contents(dir.filePath(QStringLiteral("layers.pdf"))).startsWith("%PDF"));
    EXPECT_FALSE(QFileInfo::exists(dir.filePath(QStringLiteral("layers"))));
}

}  // namespace
}  // namespace tpscope::ui
