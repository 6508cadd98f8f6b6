// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Issue 45 (GUI V): the main window at the screenshots' size (1600 x 1000, the default) and at a
// smaller desktop (1280 px wide), on the default sweep: the timeline's legend keeps every entry inside
// itself and the panel ("exposed comm" was cut at the right edge), and the runs table shows the Status
// column, where "does not fit: needs X GiB ..." is, without scrolling sideways.
#include <QApplication>
#include <QHeaderView>
#include <QScrollBar>
#include <QTableView>

#include <gtest/gtest.h>

#include "main_window_test_support.h"
#include "ui/timeline/timeline_legend.h"
#include "ui/timeline/timeline_panel.h"
#include "ui/window/main_window.h"
#include "ui/window/runs_model.h"

namespace tpscope::ui {
namespace {

struct WindowFits : test::AppGuard, ::testing::Test {
    MainWindow window{defaultServices()};
    WindowFits() {
        window.resize(1600, 1000);
        window.show();
    }
};

TEST_F(WindowFits, TheTimelineLegendKeepsEveryEntryInsideAt1600And1280Px) {
    ASSERT_NO_FATAL_FAILURE(test::runDefaultSweep(window));
    TimelinePanel* panel = window.timelinePanel();
    auto* legend = panel->findChild<TimelineLegend*>();
    ASSERT_NE(legend, nullptr);
    for (const int width : {1600, 1280}) {
        window.resize(width, 1000);
        QApplication::processEvents();
        ASSERT_EQ(window.width(), width);
        ASSERT_TRUE(legend->isVisible());
        const QRect inPanel(legend->mapTo(panel, QPoint(0, 0)), legend->size());
        EXPECT_TRUE(panel->rect().contains(inPanel)) << width << " px: the legend leaves the panel";
        const auto entries = legend->entryRects(legend->width());
        ASSERT_EQ(entries.size(), legend->labels().size());
        for (qsizetype i = 0; i < entries.size(); ++i) {
            EXPECT_TRUE(legend->rect().contains(entries[i]))
                << width << " px: \"" << legend->labels()[i].toStdString() << "\" is cut (" << entries[i].right()
                << " > " << legend->width() - 1 << ")";
            // Wide enough for its label as the font measures it, and clear of the next entry.
            EXPECT_GT(entries[i].width(), legend->fontMetrics().horizontalAdvance(legend->labels()[i]));
            if (i + 1 < entries.size()) {
                EXPECT_FALSE(entries[i].intersects(entries[i + 1]));
            }
        }
        EXPECT_TRUE(window.grab().save(test::screenshotDir() + QStringLiteral("/legend-%1.png").arg(width)));
    }
}

TEST_F(WindowFits, TheRunsTableShowsTheStatusColumnWithoutScrollingSideways) {
    ASSERT_NO_FATAL_FAILURE(test::runDefaultSweep(window));
    QApplication::processEvents();
    QTableView* table = window.runsTable();
    const QHeaderView* header = table->horizontalHeader();
    EXPECT_EQ(table->horizontalScrollBar()->value(), 0);
    for (const int column : {RunsModel::Name, RunsModel::TokensPerSec, RunsModel::StepLatency, RunsModel::StepBreakdown,
                             RunsModel::Efficiency, RunsModel::Status}) {
        const int left = header->sectionViewportPosition(column);
        EXPECT_GE(left, 0) << column;
        EXPECT_LE(left + header->sectionSize(column), table->viewport()->width())
            << "column " << column << " needs a horizontal scroll";
    }
    // The run that does not fit (TP 1 of the 70B model): its reason is elided in the cell and whole in
    // the tooltip; the name keeps room for its distinguishing start ("TP 1 · batch 1").
    const auto* model = window.runsModel();
    int notFitting = 0;
    for (int row = 0; row < model->rowCount(); ++row) {
        const RunRecord* run = window.document()->run(model->idAt(row));
        ASSERT_NE(run, nullptr);
        if (run->status != RunStatus::DoesNotFit) continue;
        ++notFitting;
        EXPECT_EQ(model->data(model->index(row, RunsModel::Status), Qt::ToolTipRole).toString(), run->error);
        const QString name = model->data(model->index(row, RunsModel::Name), Qt::DisplayRole).toString();
        EXPECT_GE(header->sectionSize(RunsModel::Name),
                  table->fontMetrics().horizontalAdvance(name.section(QStringLiteral(" · "), 0, 1)));
    }
    EXPECT_EQ(notFitting, 1);
    EXPECT_TRUE(window.grab().save(test::screenshotDir() + QStringLiteral("/runs-table-fits.png")));
}

}  // namespace
}  // namespace tpscope::ui
