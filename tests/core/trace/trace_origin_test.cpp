// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// A trace's origin as text (workspace, Chrome JSON): every origin reads back as itself.

#include <gtest/gtest.h>

#include "core/trace/trace.h"

namespace tpscope::core {
namespace {

TEST(TraceOrigin, EveryOriginRoundTripsThroughItsName) {
    for (int i = 0; i < kTraceOriginCount; ++i) {
        const auto origin = static_cast<TraceOrigin>(i);
        const auto back = parseTraceOrigin(toString(origin));
        ASSERT_TRUE(back.has_value()) << toString(origin);
        EXPECT_EQ(*back, origin);
    }
    EXPECT_EQ(toString(TraceOrigin::Synthetic), "synthetic");
    EXPECT_NE(toString(TraceOrigin::Synthetic), toString(TraceOrigin::Captured));
}

TEST(TraceOrigin, UnknownTextIsNotAnOrigin) {
    EXPECT_FALSE(parseTraceOrigin("measured").has_value());
    EXPECT_FALSE(parseTraceOrigin("").has_value());
}

}  // namespace
}  // namespace tpscope::core
