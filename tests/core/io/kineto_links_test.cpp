// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// launcherOp: which collective a CPU op's name launches (kineto_links.h), including names longer than
// the characters it keeps for the comparison.

#include <gtest/gtest.h>

#include <string>

#include "core/io/import/kineto_links.h"

namespace tpscope::test {
namespace {

using core::CollectiveOp;
using core::launcherOp;

TEST(LauncherOp, NamesTheCollectiveFromTheOpAfterTheLastDoubleColon) {
    EXPECT_EQ(launcherOp("nccl:all_reduce"), CollectiveOp::AllReduce);
    EXPECT_EQ(launcherOp("vllm::all_reduce"), CollectiveOp::AllReduce);
    EXPECT_EQ(launcherOp("_C_custom_ar::all_reduce"), CollectiveOp::AllReduce);
    EXPECT_EQ(launcherOp("symm_mem::multimem_all_reduce_"), CollectiveOp::AllReduce);
    EXPECT_EQ(launcherOp("trtllm::allreduce"), CollectiveOp::AllReduce);
    EXPECT_EQ(launcherOp("c10d::All_Gather_Into_Tensor"), CollectiveOp::AllGather);
    EXPECT_EQ(launcherOp("c10d::_reduce_scatter_tensor"), CollectiveOp::ReduceScatter);
    EXPECT_EQ(launcherOp("aten::mm"), std::nullopt);
    EXPECT_EQ(launcherOp("all_reduce"), std::nullopt);  // no namespace: not a custom op
    EXPECT_EQ(launcherOp("vllm::all_reduce_done"), std::nullopt);
    EXPECT_EQ(launcherOp("vllm::"), std::nullopt);
}

TEST(LauncherOp, LongOpNamesAreJudgedByTheirEnd) {
    // Longer than the kept tail (24 characters without '_'): only the end decides.
    const std::string prefix(200, 'x');
    EXPECT_EQ(launcherOp("ns::" + prefix + "_all_reduce"), CollectiveOp::AllReduce);
    EXPECT_EQ(launcherOp("ns::" + prefix + "_reduce_scatter_tensor"), CollectiveOp::ReduceScatter);
    EXPECT_EQ(launcherOp("ns::" + prefix + "_all_reduce_" + prefix), std::nullopt);
    // Underscores do not count towards the tail: 30 of them between the words change nothing.
    EXPECT_EQ(launcherOp("ns::all" + std::string(30, '_') + "gather"), CollectiveOp::AllGather);
}

}  // namespace
}  // namespace tpscope::test
