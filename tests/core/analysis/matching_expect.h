// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Two collective matchings compared field for field (the thread-count and the split tests).

#include <gtest/gtest.h>

#include <tuple>

#include "core/analysis/collective_matching.h"

namespace tpscope::test {

inline void expectSameMatching(const core::analysis::CollectiveMatching& a,
                               const core::analysis::CollectiveMatching& b) {
    EXPECT_EQ(a.notes, b.notes);
    EXPECT_EQ(a.incompleteCalls, b.incompleteCalls);
    EXPECT_EQ(a.unmatchedKernels, b.unmatchedKernels);
    ASSERT_EQ(a.participants.size(), b.participants.size());
    for (std::size_t i = 0; i < a.participants.size(); ++i) {
        const auto& x = a.participants[i];
        const auto& y = b.participants[i];
        EXPECT_EQ(std::tie(x.rankIndex, x.streamIndex, x.eventIndex, x.narrowWaitNs),
                  std::tie(y.rankIndex, y.streamIndex, y.eventIndex, y.narrowWaitNs))
            << "participant " << i;
    }
    EXPECT_EQ(a.longWaits, b.longWaits);
    ASSERT_EQ(a.calls.size(), b.calls.size());
    for (std::size_t i = 0; i < a.calls.size(); ++i) {
        const auto& x = a.calls[i];
        const auto& y = b.calls[i];
        EXPECT_EQ(
            std::tie(x.firstParticipant, x.participantCount, x.expectedParticipants, x.groupSize, x.op, x.bytes,
                     x.communicator, x.firstStartNs, x.lastStartNs, x.medianEndNs, x.lastRankIndex, x.step, x.layer),
            std::tie(y.firstParticipant, y.participantCount, y.expectedParticipants, y.groupSize, y.op, y.bytes,
                     y.communicator, y.firstStartNs, y.lastStartNs, y.medianEndNs, y.lastRankIndex, y.step, y.layer))
            << "call " << i;
    }
    ASSERT_EQ(a.ranks.size(), b.ranks.size());
    for (std::size_t r = 0; r < a.ranks.size(); ++r) {
        const auto& x = a.ranks[r];
        const auto& y = b.ranks[r];
        EXPECT_EQ(std::tie(x.rankIndex, x.kernels, x.lastArrivals, x.extraKernels, x.waitNs, x.kernelNs),
                  std::tie(y.rankIndex, y.kernels, y.lastArrivals, y.extraKernels, y.waitNs, y.kernelNs))
            << "rank " << r;
    }
}

}  // namespace tpscope::test
