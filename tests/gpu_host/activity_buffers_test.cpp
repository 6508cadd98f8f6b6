// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// CUPTI's activity buffers counted per session (activity_buffers.h): two sessions in one process, the
// first's buffers handed back while the second runs, must leave the second's count alone. Before,
// one shared size was subtracted from whichever session was current: its count wrapped below zero
// and it refused every buffer after that.

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "gpu/activity_buffers.h"

namespace tpscope::gpu {
namespace {

constexpr std::size_t kKiB = 1024;

TEST(ActivityBuffers, BuffersBeyondTheMaximumAreRefusedAndCounted) {
    ActivityBuffers session(64 * kKiB, 128 * kKiB);
    std::uint8_t* a = session.take();
    std::uint8_t* b = session.take();
    ASSERT_NE(a, nullptr);
    ASSERT_NE(b, nullptr);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(a) % 8, 0u);  // CUPTI's records need 8-byte alignment
    EXPECT_EQ(session.take(), nullptr);
    EXPECT_EQ(session.refused(), 1u);
    EXPECT_EQ(session.outstandingBytes(), 128 * kKiB);
    ActivityBuffers::giveBack(&session, a);
    EXPECT_EQ(session.outstandingBytes(), 64 * kKiB);
    std::uint8_t* c = session.take();
    EXPECT_NE(c, nullptr);
    ActivityBuffers::giveBack(&session, b);
    ActivityBuffers::giveBack(&session, c);
    EXPECT_EQ(session.outstandingBytes(), 0u);
}

TEST(ActivityBuffers, TwoSessionsInOneProcessAnEarlierSessionsLateBufferLeavesTheCountAlone) {
    std::vector<std::uint8_t*> late;
    {
        ActivityBuffers first(256 * kKiB, 1024 * kKiB);  // a larger buffer size than the second's
        late.push_back(first.take());
        late.push_back(first.take());
        ASSERT_NE(late[0], nullptr);
        ASSERT_NE(late[1], nullptr);
    }  // the first session ends with two buffers still held by CUPTI
    ActivityBuffers second(64 * kKiB, 128 * kKiB);
    std::uint8_t* own = second.take();
    ASSERT_NE(own, nullptr);
    for (std::uint8_t* b : late) ActivityBuffers::giveBack(&second, b);  // CUPTI completes them now
    EXPECT_EQ(second.outstandingBytes(), 64 * kKiB);
    ActivityBuffers::giveBack(&second, own);
    EXPECT_EQ(second.outstandingBytes(), 0u);
    // Still able to hand out its maximum, and nothing refused.
    std::uint8_t* x = second.take();
    std::uint8_t* y = second.take();
    EXPECT_NE(x, nullptr);
    EXPECT_NE(y, nullptr);
    EXPECT_EQ(second.refused(), 0u);
    ActivityBuffers::giveBack(&second, x);
    ActivityBuffers::giveBack(&second, y);
    ActivityBuffers::giveBack(nullptr, nullptr);  // no session, no buffer: nothing to do
}

TEST(ActivityBuffers, ABufferHandedBackWithNoSessionRunningIsFreed) {
    std::uint8_t* b = nullptr;
    {
        ActivityBuffers session(64 * kKiB, 64 * kKiB);
        b = session.take();
        ASSERT_NE(b, nullptr);
    }
    ActivityBuffers::giveBack(nullptr, b);  // LeakSanitizer would name a leak
}

}  // namespace
}  // namespace tpscope::gpu
