// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/trace/event_kind.h"

#include <gtest/gtest.h>

namespace tpscope::core {
namespace {

TEST(EventKind, EveryKindRoundTripsThroughItsName) {
    for (int k = 0; k < kEventKindCount; ++k) {
        const auto kind = static_cast<EventKind>(k);
        EXPECT_EQ(parseEventKind(toString(kind)), kind);
    }
}

TEST(EventKind, CollectiveOpsParseInEveryCommonSpelling) {
    EXPECT_EQ(parseCollectiveOp("allreduce"), CollectiveOp::AllReduce);
    EXPECT_EQ(parseCollectiveOp("all_reduce"), CollectiveOp::AllReduce);
    EXPECT_EQ(parseCollectiveOp("AllReduce"), CollectiveOp::AllReduce);
    EXPECT_EQ(parseCollectiveOp("_allgather_base"), CollectiveOp::AllGather);
    EXPECT_EQ(parseCollectiveOp("all_to_all"), CollectiveOp::AllToAll);
    EXPECT_FALSE(parseCollectiveOp("Sum").has_value());
}

TEST(EventKind, DtypeSizes) {
    EXPECT_EQ(dtypeBytes(*parseDtype("fp16")), 2);
    EXPECT_EQ(dtypeBytes(*parseDtype("BFloat16")), 2);
    EXPECT_EQ(dtypeBytes(*parseDtype("float")), 4);
    EXPECT_EQ(dtypeBytes(*parseDtype("fp8")), 1);
    EXPECT_EQ(dtypeBytes(Dtype::Unknown), 0);
    EXPECT_FALSE(parseDtype("int4").has_value());
}

}  // namespace
}  // namespace tpscope::core
