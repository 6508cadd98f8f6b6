// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// For the event chunk codec's tests (event_codec_test.cpp, event_blocks_test.cpp): random events (starts
// one to four bytes apart and now and then 4.3 s or more, an escape; durations of 0 to past 32 bits;
// correlation ids that grow by small steps with now and then a smaller one or 0; payloads on a third),
// and one event compared field by field. The shape's flags change values, never the draws, so a shape's
// events stay what they were for its seed.

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "core/io/codec/event_codec.h"

namespace tpscope::core::codec {

struct RandomShape {
    std::size_t events = 0;
    std::uint32_t names = 0;  // name ids drawn from [0, names)
    bool outOfOrder = false;  // some starts before the previous one
    bool jumpyIds = false;    // correlation ids that do not fit 16 bits within a block
    std::uint64_t seed = 0;
    bool kindsByName = false;  // each name one kind, as importers classify (else any kind an event)
    bool correlations = true;  // false: every correlation id 0
    bool rebasedIds = true;    // now and then an id below the one before (false: ids never fall)
};

inline std::vector<EventRecord> randomEvents(const RandomShape& shape) {
    std::mt19937_64 rng(shape.seed);
    auto pick = [&](std::uint64_t n) { return rng() % n; };
    std::vector<EventRecord> events;
    std::int64_t t = 1'000'000'000;
    std::uint32_t id = 70'000;
    for (std::size_t i = 0; i < shape.events; ++i) {
        const std::uint64_t r = pick(1000);
        if (r < 3) {
            t += 5'000'000'000 + static_cast<std::int64_t>(pick(1'000'000));  // a gap past 32 bits: an escape
        } else if (shape.outOfOrder && r < 40) {
            t -= static_cast<std::int64_t>(pick(200'000));
        } else {
            t += static_cast<std::int64_t>(pick(r < 500 ? 100 : 3'000'000));  // one- to four-byte deltas
        }
        const std::uint64_t d = pick(1000);
        const std::int64_t dur = d < 3    ? std::int64_t{UINT32_MAX} + static_cast<std::int64_t>(pick(1ULL << 40))
                                 : d < 5  ? std::int64_t{UINT32_MAX}
                                 : d < 7  ? std::int64_t{UINT32_MAX} - 1
                                 : d < 20 ? 0
                                          : static_cast<std::int64_t>(pick(d < 500 ? 120 : 200'000));
        id += static_cast<std::uint32_t>(pick(4));
        std::uint32_t correlation = id;
        if (pick(10) == 0) {
            const auto fall = static_cast<std::uint32_t>(pick(1000));  // a smaller id: the block re-based
            if (shape.rebasedIds) correlation -= fall;
        }
        if (pick(100) == 0) correlation = 0;  // a host call without a kernel
        if (shape.jumpyIds && pick(50) == 0) correlation = static_cast<std::uint32_t>(rng());
        const auto name = static_cast<std::uint32_t>(pick(shape.names));
        const auto kind = static_cast<EventKind>(pick(kEventKindCount));
        events.push_back(EventRecord{
            t, dur, NameId{name}, shape.kindsByName ? static_cast<EventKind>(name % kEventKindCount) : kind,
            shape.correlations ? correlation : 0, pick(3) == 0 ? static_cast<PayloadId>(1 + pick(5)) : kNoPayload});
    }
    return events;
}

// 500 NVTX ranges (not finalized): starts 10 s or less apart, lengths up to 2^45 ns, 40 names, depths 0-3.
inline NvtxRanges randomRanges(std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    NvtxRanges ranges;
    std::int64_t t = 77;
    for (int i = 0; i < 500; ++i) {
        t += static_cast<std::int64_t>(rng() % (i % 7 == 0 ? 10'000'000'000ULL : 300));
        const auto length = static_cast<std::int64_t>(rng() % (i % 5 == 0 ? 1ULL << 45 : 1'000));
        ranges.push_back(NvtxRange{t, t + length, NameId{static_cast<std::uint32_t>(rng() % 40)},
                                   static_cast<std::uint8_t>(rng() % 4)});
    }
    return ranges;
}

// True when decodeRanges refuses the bytes with a parse error.
inline bool rangesRefused(const std::string& bytes, std::size_t names) {
    NvtxRanges out;
    const Status s = decodeRanges(bytes, names, out);
    return !s && s.error().code == ErrorCode::ParseError;
}

// Every field of b equals a's; the first that does not, named.
inline ::testing::AssertionResult sameEvent(const EventRecord& a, const EventRecord& b) {
    if (b.startNs != a.startNs) return ::testing::AssertionFailure() << "start " << b.startNs << " vs " << a.startNs;
    if (b.durNs != a.durNs) return ::testing::AssertionFailure() << "duration " << b.durNs << " vs " << a.durNs;
    if (b.name != a.name) return ::testing::AssertionFailure() << "name " << b.name.value << " vs " << a.name.value;
    if (b.kind != a.kind) return ::testing::AssertionFailure() << "kind";
    if (b.correlationId != a.correlationId) return ::testing::AssertionFailure() << "correlation id";
    if (b.payload != a.payload) return ::testing::AssertionFailure() << "payload";
    return ::testing::AssertionSuccess();
}

}  // namespace tpscope::core::codec
