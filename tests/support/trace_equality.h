// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// One definition of "the same trace" for round-trip tests (workspace, Chrome JSON, simulated runs):
// every event of every stream, the origin, source and metadata, and the rank/stream layout with labels.

#include <gtest/gtest.h>

#include "core/trace/trace.h"

namespace tpscope::test {

inline void expectSameTrace(const core::Trace& a, const core::Trace& b) {
    EXPECT_TRUE(a.sameEvents(b));
    EXPECT_EQ(a.eventCount(), b.eventCount());
    EXPECT_EQ(a.origin, b.origin);
    EXPECT_EQ(a.source, b.source);
    EXPECT_EQ(a.metadata, b.metadata);
    ASSERT_EQ(a.ranks.size(), b.ranks.size());
    for (std::size_t r = 0; r < a.ranks.size(); ++r) {
        ASSERT_EQ(a.ranks[r].streams.size(), b.ranks[r].streams.size());
        for (std::size_t s = 0; s < a.ranks[r].streams.size(); ++s) {
            EXPECT_EQ(a.ranks[r].streams[s].label, b.ranks[r].streams[s].label);
        }
    }
}

}  // namespace tpscope::test
