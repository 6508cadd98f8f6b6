// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// The Calculator, Advice and Collective calls tabs inside the main window: after the default sweep
// they follow the selected run (its plan, its sweep's advice, its calls).

#include <qcustomplot.h>
#include <QImage>
#include <QStandardItemModel>
#include <QTabWidget>

#include <gtest/gtest.h>

#include "tests/ui/main_window_test_support.h"
#include "tests/ui/ui_test_support.h"
#include "ui/charts/chart_set.h"
#include "ui/collective_calls/collective_calls_page.h"
#include "ui/document/run_document.h"
#include "ui/planning/advice_page.h"
#include "ui/planning/calculator_page.h"
#include "ui/window/chart_tabs.h"
#include "ui/window/main_window.h"
#include "ui/window/planning_tabs.h"

namespace tpscope::ui {
namespace {

TEST(PlanningTabsInWindow, TheTabsFollowTheSelectedRun) {
    test::ensureApp();
    MainWindow window(defaultServices());
    ASSERT_NO_FATAL_FAILURE(test::runDefaultSweep(window));
    QStringList titles;
    for (int i = 0; i < window.tabs()->count(); ++i) titles << window.tabs()->tabText(i);
    for (const char* t : {"Calculator", "Advice", "Collective calls"}) {
        EXPECT_TRUE(titles.contains(QString::fromLatin1(t))) << t;
    }
    const auto* tabs = window.planningTabs();
    RunId tp4 = RunId::None;
    for (const RunId id : window.document()->ids()) {
        const RunRecord* r = window.document()->run(id);
        if (r->request.tp == 4 && r->status == RunStatus::Done) tp4 = id;
    }
    ASSERT_NE(tp4, RunId::None);
    window.selectRun(tp4);
    const RunRecord& run = *window.document()->run(tp4);
    const auto& in = tabs->calculator()->inputs();
    EXPECT_EQ(in.plan.model.id, run.request.model.id);
    EXPECT_EQ(in.gpu.id, run.request.gpu.id);
    EXPECT_EQ(in.plan.tp, 4);
    EXPECT_EQ(in.plan.batch, run.request.batch);
    // The sweep's advice: core's items for the window's own runs.
    const auto expected = adviceFor(scalingInputOf(window.document()->runs(), run.id),
                                    window.chartTabs()->charts()->controller()->pricePerGpuHour(), 0.8);
    ASSERT_TRUE(expected.ok());
    // Amdahl's S is the sweep's fit at the run's batch (to the field's 4 decimals).
    ASSERT_FALSE(expected->scaling.batches.empty());
    ASSERT_TRUE(expected->scaling.batches.front().fit.valid);
    EXPECT_NEAR(in.serialFraction, expected->scaling.batches.front().fit.serialFraction, 0.5e-4);
    EXPECT_TRUE(tabs->calculator()->serialSource().contains(QStringLiteral("Amdahl fit")));
    EXPECT_EQ(static_cast<std::size_t>(tabs->advice()->table()->rowCount()), expected->items.size());
    EXPECT_GT(tabs->advice()->table()->rowCount(), 0);
    // The run's calls, on its fabric.
    EXPECT_EQ(tabs->collectiveCalls()->fabricId(), run.request.fabric.id);
    EXPECT_EQ(static_cast<std::size_t>(tabs->collectiveCalls()->tableModel()->rowCount()),
              run.analysis->matching.calls.size());
    EXPECT_EQ(tabs->collectiveCalls()->curveRanks(), 4);

    // Screenshots a person can look at (build/dev/screenshots/planning-*.png): each tab drawn.
    window.resize(1600, 1000);
    for (QWidget* tab : std::initializer_list<QWidget*>{tabs->calculator(), tabs->advice(), tabs->collectiveCalls()}) {
        window.tabs()->setCurrentWidget(tab);
        QCoreApplication::processEvents();
        const QImage image = window.grab().toImage();
        const QString name = window.tabs()->tabText(window.tabs()->currentIndex()).toLower().replace(' ', '-');
        EXPECT_TRUE(image.save(test::screenshotDir() + QStringLiteral("/planning-%1.png").arg(name)));
        EXPECT_GT(tab->width(), 600);
    }
}

}  // namespace
}  // namespace tpscope::ui
