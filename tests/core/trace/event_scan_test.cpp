// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// EventScan (core/trace/event_scan.h): a stream's events decoded a block at a time give what
// EventColumns' accessors give, for label blocks of every width and base.
#include "core/trace/event_scan.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "core/trace/event_columns.h"
#include "event_record_fixtures.h"

namespace tpscope::core {
namespace {

constexpr std::size_t kB = EventColumns::kBlock;

// Labels in order of first appearance are indices 0, 1, ...: each block below uses its own range of
// them, so that a block's smallest label index (its base) is seldom 0 and its span sets its width.
struct LabelBlock {
    std::uint32_t first;     // the block's labels: first + (j % count) * step
    std::uint32_t count;     // 1: width 0
    std::uint32_t step = 1;  // a span over 255: two bytes
    std::size_t events = kB;
};

TEST(EventScan, KindsAndNamesOfLabelBlocksOfEveryWidthAndBase) {
    // Names 1000 + label index, kinds (label / 2) % 5 (one a label: kept per label, read through the
    // label index): a block read with another block's base, or through the wrong width, gives other
    // kinds and names.
    const std::vector<LabelBlock> blocks = {
        {0, 40},  {40, 1},    {41, 64},   {105, 64}, {169, 64},       {233, 64}, {297, 64},  // labels 0-360
        {10, 30}, {0, 64, 5}, {3, 64, 5}, {360, 1},  {200, 7, 1, 23},                        // ... a partial last block
    };
    EventColumns c;
    std::vector<EventRecord> want;
    std::uint32_t labels = 0;  // labels met so far (the next new one's index)
    for (const LabelBlock& b : blocks) {
        for (std::size_t j = 0; j < b.events; ++j) {
            const std::uint32_t label = b.first + static_cast<std::uint32_t>(j % b.count) * b.step;
            ASSERT_LE(label, labels) << "a block uses a label before it is met";
            labels = std::max(labels, label + 1);
            EventRecord e = ev(static_cast<std::int64_t>(want.size()) * 100, 7 + static_cast<std::int64_t>(label));
            e.name = NameId{1000 + label};
            e.kind = static_cast<EventKind>((label / 2) % 5);
            c.append(e);
            want.push_back(e);
        }
    }
    c.finalize();
    ASSERT_EQ(c.size(), want.size());
    EventScan scan(c, EventScan::kStarts | EventScan::kDurations | EventScan::kKinds | EventScan::kNames);
    for (std::size_t i = 0; i < want.size(); ++i) {
        const std::string where = "block " + std::to_string(i / kB) + ", event " + std::to_string(i % kB);
        ASSERT_EQ(c.name(i), want[i].name) << where;  // the columns themselves
        ASSERT_EQ(c.kind(i), want[i].kind) << where;
        const EventScan::Event e = scan.at(i);
        ASSERT_EQ(e.name, want[i].name) << where;
        ASSERT_EQ(e.kind, static_cast<std::uint8_t>(want[i].kind)) << where;
        ASSERT_EQ(e.startNs, want[i].startNs) << where;
        ASSERT_EQ(e.durNs, want[i].durNs) << where;
    }
    // One column asked for, read from the last event back: every block entered again.
    EventScan kinds(c, EventScan::kKinds);
    for (std::size_t i = want.size(); i-- > 0;) {
        ASSERT_EQ(kinds.kind(i), static_cast<std::uint8_t>(want[i].kind)) << "backwards, event " << i;
    }
}

}  // namespace
}  // namespace tpscope::core
