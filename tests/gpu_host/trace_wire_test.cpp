// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// The wire form between MPI processes and the merge onto process 0's timeline.

#include <gtest/gtest.h>

#include "gpu/trace_merge.h"
#include "gpu/trace_wire.h"

namespace tpscope::gpu {
namespace {

// One rank with a GEMM and a collective on a stream, a step range, and metadata.
core::Trace rankTrace(std::uint32_t rankId, std::int64_t t0, const std::string& kernel) {
    core::Trace t;
    core::Rank& r = t.rank(core::RankId(rankId));
    r.deviceIndex = static_cast<int>(rankId);
    r.deviceName = "H200";
    core::Stream& s = r.stream(core::StreamId(7), "compute");
    const auto gemm = t.intern(core::Payload::of(core::GemmPayload{16, 4096, 4096, core::Dtype::Bf16}));
    core::CollectivePayload c;
    c.op = core::CollectiveOp::AllReduce;
    c.bytes = 131072;
    c.groupSize = 2;
    c.communicator = t.intern("tp");
    const auto coll = t.intern(core::Payload::of(c));
    s.events.append({t0, 500, t.intern(kernel), core::EventKind::Gemm, 3, gemm});
    s.events.append(
        {t0 + 600, 900, t.intern("ncclDevKernel_AllReduce_Sum_bf16_RING_LL"), core::EventKind::Collective, 4, coll});
    r.ranges.push_back({t0, t0 + 1500, t.intern("step 0"), 0});
    t.metadata.emplace_back("cupti.dropped_records", "2");
    t.metadata.emplace_back("model", "llama3-8b");
    t.origin = core::TraceOrigin::Captured;
    t.source = "capture";
    t.finalize();
    return t;
}

TEST(TraceWire, RoundTripKeepsEventsRangesPayloadsAndMetadata) {
    const core::Trace t = rankTrace(1, 1'000, "gemm_kernel");
    auto back = deserializeTrace(serializeTrace(t));
    ASSERT_TRUE(back.ok()) << back.error().describe();
    EXPECT_TRUE(back->sameEvents(t));
    EXPECT_EQ(back->metadata, t.metadata);
    EXPECT_EQ(back->ranks[0].deviceName, "H200");
    EXPECT_EQ(back->ranks[0].ranges, t.ranks[0].ranges);
    EXPECT_EQ(back->source, "capture");
    const auto& e = back->ranks[0].streams[0].events;
    EXPECT_EQ(back->payload(e.payload(1)).collective.bytes, 131072u);
    EXPECT_EQ(back->name(back->payload(e.payload(1)).collective.communicator), "tp");
}

TEST(TraceWire, EveryTruncationIsAParseErrorNotACrash) {
    const std::vector<std::uint8_t> bytes = serializeTrace(rankTrace(0, 10, "k"));
    for (std::size_t n = 0; n < bytes.size(); ++n) {
        const std::vector<std::uint8_t> cut(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(n));
        auto r = deserializeTrace(cut);
        ASSERT_FALSE(r.ok()) << "prefix of " << n << " bytes decoded";
        EXPECT_EQ(r.error().code, core::ErrorCode::ParseError);
    }
}

TEST(TraceWire, AnOriginOutsideTheEnumIsRejected) {
    core::Trace t = rankTrace(0, 10, "k");
    t.origin = core::TraceOrigin::Synthetic;
    t.source.clear();
    t.metadata.clear();
    std::vector<std::uint8_t> bytes = serializeTrace(t);
    // The trailer is origin (1 byte), empty source (length 0), no metadata (count 0).
    ASSERT_GE(bytes.size(), 3u);
    ASSERT_EQ(bytes[bytes.size() - 3], static_cast<std::uint8_t>(core::TraceOrigin::Synthetic));
    auto back = deserializeTrace(bytes);
    ASSERT_TRUE(back.ok()) << back.error().describe();
    EXPECT_EQ(back->origin, core::TraceOrigin::Synthetic);

    bytes[bytes.size() - 3] = static_cast<std::uint8_t>(core::kTraceOriginCount);
    auto bad = deserializeTrace(bytes);
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().code, core::ErrorCode::ParseError);
    EXPECT_NE(bad.error().message.find("origin"), std::string::npos) << bad.error().message;
}

TEST(TraceWire, AnEventKindOutsideTheEnumIsRejected) {
    core::Trace t;
    core::Stream& s = t.rank(core::RankId(0)).stream(core::StreamId(1), "s");
    s.events.append({5, 1, t.intern("k"), core::EventKind::Gemm, 0, core::kNoPayload});
    t.finalize();
    std::vector<std::uint8_t> bytes = serializeTrace(t);
    // One event: its kind byte is the only byte equal to the Gemm kind inside the chunk, found by
    // serializing the same trace with another kind and comparing.
    core::Trace other = t;
    other.ranks[0].streams[0].events = core::EventColumns{};
    other.ranks[0].streams[0].events.append({5, 1, other.intern("k"), core::EventKind::Memset, 0, core::kNoPayload});
    const std::vector<std::uint8_t> otherBytes = serializeTrace(other);
    ASSERT_EQ(bytes.size(), otherBytes.size());
    std::size_t differing = 0, at = 0;
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        if (bytes[i] != otherBytes[i]) {
            ++differing;
            at = i;
        }
    }
    ASSERT_EQ(differing, 1u);
    bytes[at] = static_cast<std::uint8_t>(core::kEventKindCount);
    auto bad = deserializeTrace(bytes);
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().code, core::ErrorCode::ParseError);
    EXPECT_NE(bad.error().message.find("kind"), std::string::npos) << bad.error().message;
}

TEST(TraceWire, ProcessEnvelopeCarriesHostErrorOffsetAndIdHash) {
    ProcessTrace p{3, "node7", -12345, "NCCL error: unhandled system error", 0xabcdefULL, rankTrace(3, 5, "k")};
    auto back = deserializeProcessTrace(serializeProcessTrace(p));
    ASSERT_TRUE(back.ok()) << back.error().describe();
    EXPECT_EQ(back->process, 3);
    EXPECT_EQ(back->host, "node7");
    EXPECT_EQ(back->clockOffsetNs, -12345);
    EXPECT_EQ(back->error, p.error);
    EXPECT_EQ(back->launchIdHash, 0xabcdefULL);
    EXPECT_TRUE(back->trace.sameEvents(p.trace));
}

TEST(TraceMerge, RanksFromTwoHostsAreShiftedByTheirClockOffset) {
    std::vector<ProcessTrace> parts;
    parts.push_back({1, "b", -1'000'000, "", 9, rankTrace(1, 1'001'000, "gemm_b")});
    parts.push_back({0, "a", 0, "", 9, rankTrace(0, 1'000, "gemm_a")});
    auto merged = mergeProcessTraces(std::move(parts));
    ASSERT_TRUE(merged.ok()) << merged.error().describe();
    ASSERT_EQ(merged->ranks.size(), 2u);
    const core::Rank& r1 = merged->ranks[1];
    EXPECT_EQ(r1.clockOffsetNs, -1'000'000);
    EXPECT_EQ(r1.host, "b");
    EXPECT_EQ(r1.streams[0].events.startNs(0), 1'000);
    EXPECT_EQ(r1.ranges[0].startNs, 1'000);
    EXPECT_EQ(r1.ranges[0].endNs, 2'500);
    EXPECT_EQ(merged->name(r1.streams[0].events.name(0)), "gemm_b");
    EXPECT_EQ(merged->name(merged->ranks[0].streams[0].events.name(0)), "gemm_a");
    EXPECT_EQ(merged->metadataValue("cupti.dropped_records"), "4");  // summed over processes
    EXPECT_EQ(merged->metadataValue("model"), "llama3-8b");
    EXPECT_EQ(merged->metadataValue("capture.processes"), "2");
    EXPECT_EQ(merged->metadataValue("launch.id_agreed"), "yes");
}

TEST(TraceMerge, AFailedProcessIsRecordedAndItsPartialTraceKept) {
    std::vector<ProcessTrace> parts;
    parts.push_back({0, "a", 0, "", 9, rankTrace(0, 0, "k")});
    parts.push_back({1, "a", 0, "out of memory", 8, rankTrace(1, 0, "k")});
    auto merged = mergeProcessTraces(std::move(parts));
    ASSERT_TRUE(merged.ok());
    EXPECT_EQ(merged->metadataValue("capture.error.process 1"), "out of memory");
    EXPECT_EQ(merged->ranks.size(), 2u);
    EXPECT_EQ(merged->metadataValue("launch.id_agreed"), "no: process 1 differs");
}

TEST(TraceMerge, OneRankCapturedByTwoProcessesIsAnError) {
    std::vector<ProcessTrace> parts;
    parts.push_back({0, "a", 0, "", 1, rankTrace(0, 0, "k")});
    parts.push_back({1, "a", 0, "", 1, rankTrace(0, 0, "k")});
    auto merged = mergeProcessTraces(std::move(parts));
    ASSERT_FALSE(merged.ok());
    EXPECT_NE(merged.error().message.find("rank 0 was captured by two processes"), std::string::npos);
}

}  // namespace
}  // namespace tpscope::gpu
