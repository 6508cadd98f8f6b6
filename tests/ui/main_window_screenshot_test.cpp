// Screenshots of the whole window a person can look at (<build>/screenshots/): the embedded default
// sweep, and a real public Kineto trace of 8 ranks when the shared traces and an importer exist.

#include <QSignalSpy>
#include <QTest>

#include <gtest/gtest.h>

#include "test_support.h"
#include "ui/main_window.h"
#include "ui/runs_model.h"
#include "ui_test_support.h"

namespace tpscope::ui {
namespace {

constexpr int kWaitMs = 60'000;

TEST(MainWindowScreenshot, DefaultSweepShowsTheLargestTpOnTwoLayers) {
    test::ensureApp();
    MainWindow window(defaultServices());
    window.setUnsavedPrompt([](QWidget*) { return QMessageBox::Discard; });
    window.resize(1600, 1000);
    window.show();
    QSignalSpy finished(&window, &MainWindow::sweepFinished);
    window.startDefaultSweep();
    ASSERT_TRUE(finished.wait(kWaitMs));
    window.focusTimelineOnExample();
    QApplication::processEvents();
    const QImage image = window.grab().toImage();
    EXPECT_EQ(image.size(), QSize(1600, 1000));
    EXPECT_TRUE(image.save(test::screenshotDir() + "/main-default.png"));
}

TEST(MainWindowScreenshot, PublicKinetoTraceOfEightRanks) {
    TPSCOPE_REQUIRE_PUBLIC("param-dlrm_kineto-8rank");
    test::ensureApp();
    MainWindow window(defaultServices());
    window.setUnsavedPrompt([](QWidget*) { return QMessageBox::Discard; });
    window.resize(1600, 1000);
    window.show();
    QSignalSpy opened(&window, &MainWindow::documentOpened);
    QSignalSpy failed(&window, &MainWindow::openFailed);
    window.openPath(QString::fromStdString((test::publicTraces() / "param-dlrm_kineto-8rank").string()));
    ASSERT_TRUE(QTest::qWaitFor([&] { return opened.count() + failed.count() > 0; }, kWaitMs));
    if (!failed.isEmpty() && window.lastError().contains(QStringLiteral("core/io"))) {
        GTEST_SKIP() << "no trace importer in this build: " << window.lastError().toStdString();
    }
    ASSERT_EQ(failed.count(), 0) << window.lastError().toStdString();
    window.focusTimelineOnExample();
    QApplication::processEvents();
    EXPECT_TRUE(window.grab().save(test::screenshotDir() + "/main-dlrm-8rank.png"));
}

}  // namespace
}  // namespace tpscope::ui
