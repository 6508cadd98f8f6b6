// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// The Selection pane's per-GPU table of a collective (arrival, wait, kernel per GPU) reads at 8 and
// at 16 GPUs: laid out in the pane's width, no number broken over two lines, every GPU present.

#include <QAbstractTextDocumentLayout>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextLayout>

#include <gtest/gtest.h>

#include "ui/timeline/event_details.h"
#include "ui/timeline/timeline_data.h"
#include "ui_test_support.h"

namespace tpscope::ui {
namespace {

// The details pane of the default window is about 560 px wide (main_window_layout.cpp's splitter).
constexpr int kPaneWidthPx = 540;

// One all-reduce on every rank; rank r arrives r × 365 µs after rank 0, so the late ranks' arrivals
// take five digits ("+5475").
struct Collective {
    std::shared_ptr<const core::Trace> trace;
    std::shared_ptr<const TimelineData> data;
    EventRef event{0, 1, 0};
    std::optional<CollectiveMatch> match;
    explicit Collective(int ranks) {
        trace = test::makeTrace(ranks, {}, {{0, 6'000'000, core::EventKind::Collective, "ncclDevKernel_AllReduce"}},
                                365'000);
        data = TimelineData::build(*trace);
        match = data->matchCollective(*trace, event);
    }
};

void expectReadable(int ranks) {
    test::ensureApp();
    const Collective c(ranks);
    ASSERT_TRUE(c.match.has_value());
    ASSERT_EQ(c.match->members.size(), static_cast<std::size_t>(ranks));
    const QString html = eventDetailsHtml(*c.trace, c.event, c.match, c.trace->startNs());
    QTextDocument doc;
    doc.setHtml(html);
    doc.setTextWidth(kPaneWidthPx);
    // Nothing wider than the pane (no horizontal scrolling to find a GPU).
    EXPECT_LE(doc.idealWidth(), kPaneWidthPx) << ranks << " GPUs";
    // Every cell on one line, and every GPU's arrival present.
    int arrivals = 0;
    for (QTextBlock b = doc.begin(); b.isValid(); b = b.next()) {
        if (b.text().isEmpty()) continue;
        EXPECT_EQ(b.layout()->lineCount(), 1) << "wrapped: " << b.text().toStdString() << " at " << ranks << " GPUs";
        if (b.text().startsWith(QLatin1Char('+'))) ++arrivals;
    }
    EXPECT_EQ(arrivals, ranks);
    // The last GPU's arrival, in µs from the first, as the trace has it: (ranks - 1) × 365 µs.
    EXPECT_TRUE(html.contains(QStringLiteral("+%1<").arg((ranks - 1) * 365))) << html.toStdString();
}

TEST(EventDetails, PerGpuTableReadsAtEightGpus) {
    expectReadable(8);
}

TEST(EventDetails, PerGpuTableReadsAtSixteenGpus) {
    expectReadable(16);
}

}  // namespace
}  // namespace tpscope::ui
