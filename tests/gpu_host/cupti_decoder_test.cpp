// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// The CUPTI record decoder on synthetic activity buffers: runs without a GPU or libcupti.

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "activity_buffer.h"
#include "core/workload/decode_plan.h"
#include "gpu/cupti_session.h"
#include "support/small_model.h"

namespace tpscope::gpu {
namespace {

using test::ActivityBuffer;
using test::externalTag;
using test::kernelRecord;
using test::marker;
using test::runtimeCall;

core::DecodePlan smallPlan(int tp, int batch) {
    const core::ModelSpec m =
        test::customModel({.hidden = 64, .ffn = 128, .heads = 4, .kvHeads = 4, .layers = 2, .vocab = 100});
    auto plan = core::buildDecodePlan({m, tp, batch, 32, core::Dtype::Bf16});
    EXPECT_TRUE(plan.ok());
    return *plan;
}

std::uint32_t opIndex(const core::DecodePlan& plan, core::OpKind kind, int layer) {
    for (std::size_t i = 0; i < plan.ops.size(); ++i) {
        if (plan.ops[i].kind == kind && plan.ops[i].layer == layer) return static_cast<std::uint32_t>(i);
    }
    ADD_FAILURE() << "op not in plan";
    return 0;
}

const core::Stream& onlyStream(const core::Trace& t, std::uint32_t rank) {
    const core::Rank* r = t.findRank(core::RankId(rank));
    EXPECT_NE(r, nullptr);
    EXPECT_EQ(r->streams.size(), 1u);
    return r->streams.front();
}

TEST(CuptiDecoder, KernelRecordBecomesDemangledClassifiedEventOnItsDeviceRankAndStream) {
    ActivityBuffer buf;
    buf.append(kernelRecord("_Z15silu_mul_kernelPK6__halfS1_PS_i", 3, 7, 1'000, 1'250, 11));
    CuptiDecoder decoder;
    buf.decodeInto(decoder);
    const core::Trace t = decoder.finish();

    ASSERT_EQ(t.ranks.size(), 1u);
    EXPECT_EQ(t.ranks[0].id, core::RankId(3));
    EXPECT_EQ(t.ranks[0].deviceIndex, 3);
    EXPECT_EQ(t.origin, core::TraceOrigin::Captured);
    const core::Stream& s = onlyStream(t, 3);
    EXPECT_EQ(s.id, core::StreamId(7));
    ASSERT_EQ(s.events.size(), 1u);
    EXPECT_EQ(s.events.startNs(0), 1'000);
    EXPECT_EQ(s.events.durNs(0), 250);
    EXPECT_EQ(s.events.correlationId(0), 11u);
    EXPECT_EQ(t.name(s.events.name(0)), "silu_mul_kernel(__half const*, __half const*, __half*, int)");
    EXPECT_EQ(s.events.kind(0), core::EventKind::Elementwise);
    EXPECT_EQ(decoder.stats().kernels, 1u);
}

TEST(CuptiDecoder, MappedDeviceAndLabelledStreamNameTheRankAndStream) {
    ActivityBuffer buf;
    buf.append(kernelRecord("ncclDevKernel_AllReduce_Sum_bf16_RING_LL", 0, 13, 500, 900, 1));
    CuptiDecoder decoder;
    decoder.mapDevice(0, core::RankId(5));
    decoder.labelStream(0, 13, "nccl");
    buf.decodeInto(decoder);
    const core::Trace t = decoder.finish();
    const core::Stream& s = onlyStream(t, 5);
    EXPECT_EQ(s.label, "nccl");
    EXPECT_EQ(s.events.kind(0), core::EventKind::Collective);
    const core::Payload& p = t.payload(s.events.payload(0));
    ASSERT_EQ(p.kind, core::PayloadKind::Collective);
    EXPECT_EQ(p.collective.op, core::CollectiveOp::AllReduce);
    EXPECT_EQ(p.collective.algo, core::CollectiveAlgo::Ring);
    EXPECT_EQ(p.collective.proto, core::CollectiveProto::LL);
    EXPECT_EQ(p.collective.bytes, 0u);  // not attributed to a plan op: the size is unknown
}

TEST(CuptiDecoder, TaggedCollectiveGetsPlanBytesAndGroupSize) {
    const core::DecodePlan plan = smallPlan(2, 3);
    const std::uint32_t op = opIndex(plan, core::OpKind::MlpAllReduce, 1);
    ActivityBuffer buf;
    buf.append(externalTag(21, encodeOpTag(4, op)));
    buf.append(kernelRecord("ncclDevKernel_AllReduce_Sum_bf16_RING_LL", 0, 13, 500, 900, 21));
    CuptiDecoder decoder;
    decoder.setPlan(plan);
    buf.decodeInto(decoder);
    const core::Trace t = decoder.finish();
    const core::Payload& p = t.payload(onlyStream(t, 0).events.payload(0));
    ASSERT_EQ(p.kind, core::PayloadKind::Collective);
    EXPECT_EQ(p.collective.bytes, 3u * 64u * 2u);  // batch x hidden x sizeof(bf16)
    EXPECT_EQ(p.collective.groupSize, 2u);
    EXPECT_EQ(p.collective.dtype, core::Dtype::Bf16);
    EXPECT_EQ(decoder.stats().externalCorrelations, 1u);
    EXPECT_EQ(decoder.stats().attributedEvents, 1u);
}

TEST(CuptiDecoder, OverlapHalvesCarryTheirRowsNotTheWholeOpsBytesAndM) {
    const int batch = 5;
    const core::DecodePlan plan = smallPlan(2, batch);
    const std::uint32_t down = opIndex(plan, core::OpKind::DownGemm, 0);
    const std::uint32_t allReduce = opIndex(plan, core::OpKind::MlpAllReduce, 0);
    const std::uint32_t rowsA = batch / 2, rowsB = batch - rowsA;  // how the runner splits the batch
    ActivityBuffer buf;
    buf.append(externalTag(1, encodeOpTag(7, down, rowsA)));
    buf.append(kernelRecord("gemm_kernel", 0, 7, 100, 140, 1));
    buf.append(externalTag(2, encodeOpTag(7, allReduce, rowsA)));
    buf.append(kernelRecord("ncclDevKernel_AllReduce_Sum_bf16_RING_LL", 0, 13, 150, 300, 2));
    buf.append(externalTag(3, encodeOpTag(7, down, rowsB)));
    buf.append(kernelRecord("gemm_kernel", 0, 7, 145, 190, 3));
    buf.append(externalTag(4, encodeOpTag(7, allReduce, rowsB)));
    buf.append(kernelRecord("ncclDevKernel_AllReduce_Sum_bf16_RING_LL", 0, 13, 310, 450, 4));
    CuptiDecoder decoder;
    decoder.setPlan(plan);
    buf.decodeInto(decoder);
    const core::Trace t = decoder.finish();
    const core::PlanOp& downOp = plan.ops[down];
    const core::PlanOp& arOp = plan.ops[allReduce];
    std::uint64_t gemmRows = 0, bytes = 0;
    for (const auto& rank : t.ranks) {
        for (const auto& stream : rank.streams) {
            for (std::size_t i = 0; i < stream.events.size(); ++i) {
                const core::Payload& p = t.payload(stream.events.payload(i));
                if (p.kind == core::PayloadKind::Gemm) {
                    EXPECT_TRUE(p.gemm.m == rowsA || p.gemm.m == rowsB) << p.gemm.m;
                    EXPECT_EQ(p.gemm.n, downOp.gemm.n);
                    gemmRows += p.gemm.m;
                } else if (p.kind == core::PayloadKind::Collective) {
                    EXPECT_TRUE(p.collective.bytes == arOp.messageBytes / batch * rowsA ||
                                p.collective.bytes == arOp.messageBytes / batch * rowsB)
                        << p.collective.bytes;
                    bytes += p.collective.bytes;
                }
            }
        }
    }
    // The two halves add up to the op once, not twice.
    EXPECT_EQ(gemmRows, downOp.gemm.m);
    EXPECT_EQ(bytes, arOp.messageBytes);
    EXPECT_EQ(rowsOfTag(encodeOpTag(7, down, rowsB)), rowsB);
    EXPECT_EQ(opIndexOfTag(encodeOpTag(7, down, rowsB)), down);
}

TEST(CuptiDecoder, TaggedGemmHelperKernelTakesTheOpKindAndShape) {
    const core::DecodePlan plan = smallPlan(2, 3);
    const std::uint32_t op = opIndex(plan, core::OpKind::GateUpGemm, 0);
    ActivityBuffer buf;
    buf.append(externalTag(8, encodeOpTag(0, op)));
    buf.append(kernelRecord("vendor_helper<32>", 0, 7, 100, 140, 8));  // classified Other by name
    CuptiDecoder decoder;
    decoder.setPlan(plan);
    buf.decodeInto(decoder);
    const core::Trace t = decoder.finish();
    const auto& events = onlyStream(t, 0).events;
    EXPECT_EQ(events.kind(0), core::EventKind::Gemm);
    const core::Payload& p = t.payload(events.payload(0));
    ASSERT_EQ(p.kind, core::PayloadKind::Gemm);
    EXPECT_EQ(p.gemm.m, 3u);
    EXPECT_EQ(p.gemm.n, 2u * 128u / 2u);  // gate and up, ffn split over tp
    EXPECT_EQ(p.gemm.k, 64u);
}

TEST(CuptiDecoder, MemcpyAndMemsetRecordsBecomeCopyEventsWithBytes) {
    MemcpyRecord copy{};
    copy.kind = CUPTI_ACTIVITY_KIND_MEMCPY;
    copy.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_HTOD;
    copy.bytes = 4096;
    copy.start = 10;
    copy.end = 30;
    copy.deviceId = 1;
    copy.streamId = 2;
    copy.correlationId = 3;
    MemsetRecord set{};
    set.kind = CUPTI_ACTIVITY_KIND_MEMSET;
    set.bytes = 512;
    set.start = 40;
    set.end = 45;
    set.deviceId = 1;
    set.streamId = 2;
    set.correlationId = 4;
    ActivityBuffer buf;
    buf.append(copy);
    buf.append(set);
    CuptiDecoder decoder;
    buf.decodeInto(decoder);
    const core::Trace t = decoder.finish();
    const auto& events = onlyStream(t, 1).events;
    ASSERT_EQ(events.size(), 2u);
    EXPECT_EQ(events.kind(0), core::EventKind::Memcpy);
    EXPECT_EQ(t.name(events.name(0)), "Memcpy HtoD");
    EXPECT_EQ(events.durNs(0), 20);
    EXPECT_EQ(t.payload(events.payload(0)).copy.kind, core::CopyKind::HostToDevice);
    EXPECT_EQ(t.payload(events.payload(0)).copy.bytes, 4096u);
    EXPECT_EQ(events.kind(1), core::EventKind::Memset);
    EXPECT_EQ(t.payload(events.payload(1)).copy.bytes, 512u);
    EXPECT_EQ(decoder.stats().memcpys, 1u);
    EXPECT_EQ(decoder.stats().memsets, 1u);
}

TEST(CuptiDecoder, NestedMarkersBecomeDepthsProjectedOntoTheirGpuWork) {
    // Host: step [100, 1000] > layer [110, 900] > attention [120, 500]; the thread launches one
    // kernel inside attention (corr 1) and one after it inside the layer (corr 2).
    ActivityBuffer buf;
    buf.append(marker(3, false, 500, 9));  // ends may arrive before their starts
    buf.append(marker(1, true, 100, 9, "step 0"));
    buf.append(marker(2, true, 110, 9, "layer 0"));
    buf.append(marker(3, true, 120, 9, "attention"));
    buf.append(marker(2, false, 900, 9));
    buf.append(marker(1, false, 1000, 9));
    buf.append(runtimeCall(9, 130, 1));
    buf.append(runtimeCall(9, 510, 2));
    buf.append(kernelRecord("decode_attention_kernel", 0, 7, 2'000, 2'100, 1));
    buf.append(kernelRecord("rms_norm_kernel", 0, 7, 2'200, 2'500, 2));
    CuptiDecoder decoder;
    buf.decodeInto(decoder);
    const core::Trace t = decoder.finish();
    const auto& ranges = t.ranks.at(0).ranges;
    ASSERT_EQ(ranges.size(), 3u);
    EXPECT_EQ(t.name(ranges[0].name), "step 0");
    EXPECT_EQ(ranges[0].depth, 0);
    EXPECT_EQ(ranges[0].startNs, 2'000);
    EXPECT_EQ(ranges[0].endNs, 2'500);
    EXPECT_EQ(t.name(ranges[1].name), "layer 0");
    EXPECT_EQ(ranges[1].depth, 1);
    EXPECT_EQ(ranges[1].endNs, 2'500);
    EXPECT_EQ(t.name(ranges[2].name), "attention");
    EXPECT_EQ(ranges[2].depth, 2);
    EXPECT_EQ(ranges[2].startNs, 2'000);
    EXPECT_EQ(ranges[2].endNs, 2'100);
    EXPECT_EQ(onlyStream(t, 0).events.kind(0), core::EventKind::Attention);
}

TEST(CuptiDecoder, RangesOfAnotherNvtxDomainAreSkippedAndDoNotShiftDepths) {
    // NCCL's own ranges (domain "NCCL") open inside the runner's step and layer ranges; an end half
    // may carry no domain, and may arrive before its start.
    ActivityBuffer buf;
    buf.append(marker(5, false, 450, 9));
    buf.append(marker(1, true, 100, 9, "step 0"));
    buf.append(marker(4, true, 105, 9, "ncclCommInitRank", "NCCL"));
    buf.append(marker(4, false, 108, 9, nullptr, "NCCL"));
    buf.append(marker(2, true, 110, 9, "layer 0"));
    buf.append(marker(5, true, 400, 9, "ncclAllReduce", "NCCL"));
    buf.append(marker(3, true, 420, 9, "mlp"));
    buf.append(marker(3, false, 800, 9));
    buf.append(marker(2, false, 900, 9));
    buf.append(marker(1, false, 1000, 9));
    CuptiDecoder decoder;
    decoder.setProjectRangesOnGpu(false);
    buf.decodeInto(decoder);
    const core::Trace t = decoder.finish();
    const auto& ranges = t.ranks.at(0).ranges;
    ASSERT_EQ(ranges.size(), 3u);
    EXPECT_EQ(t.name(ranges[0].name), "step 0");
    EXPECT_EQ(ranges[0].depth, 0);
    EXPECT_EQ(t.name(ranges[1].name), "layer 0");
    EXPECT_EQ(ranges[1].depth, 1);
    EXPECT_EQ(t.name(ranges[2].name), "mlp");
    EXPECT_EQ(ranges[2].depth, 2);  // not 3: the NCCL range open around it is not counted
    EXPECT_EQ(decoder.stats().foreignMarkers, 4u);
    EXPECT_EQ(decoder.stats().unmatchedMarkers, 0u);
    EXPECT_EQ(t.metadataValue("cupti.foreign_markers"), "4");
}

TEST(CuptiDecoder, AKernelRecordLargerThanTheHeadersKnowIsReadByItsCommonPrefix) {
    // A CUPTI newer than the headers may write a longer kernel record (fields appended at the end):
    // the decoder reads only the fields its struct has, so the extra bytes change nothing.
    struct NewerKernelRecord {
        KernelRecord known;
        std::uint64_t appended[6];
    };
    NewerKernelRecord newer{};
    newer.known = kernelRecord("silu_mul_kernel", 2, 7, 1'000, 1'250, 11);
    for (auto& v : newer.appended) v = ~std::uint64_t{0};
    ActivityBuffer buf;
    buf.append(newer);
    buf.append(kernelRecord("rms_norm_kernel", 2, 7, 1'300, 1'400, 12));
    EXPECT_EQ(buf.bytes(), (sizeof(NewerKernelRecord) + 7) / 8 * 8 + (sizeof(KernelRecord) + 7) / 8 * 8);
    CuptiDecoder decoder;
    buf.decodeInto(decoder);
    const core::Trace t = decoder.finish();
    const auto& events = onlyStream(t, 2).events;
    ASSERT_EQ(events.size(), 2u);
    EXPECT_EQ(t.name(events.name(0)), "silu_mul_kernel");
    EXPECT_EQ(events.startNs(0), 1'000);
    EXPECT_EQ(events.durNs(0), 250);
    EXPECT_EQ(events.correlationId(0), 11u);
    EXPECT_EQ(t.name(events.name(1)), "rms_norm_kernel");
    EXPECT_EQ(decoder.stats().kernels, 2u);
    EXPECT_EQ(decoder.stats().invalidTimestamps, 0u);
}

TEST(CuptiDecoder, KernelsWithoutAnOpTagAreCountedOnceAPlanIsSet) {
    const core::DecodePlan plan = smallPlan(1, 1);
    ActivityBuffer buf;
    buf.append(externalTag(1, encodeOpTag(0, opIndex(plan, core::OpKind::QkvGemm, 0))));
    buf.append(kernelRecord("sm90_xmma_gemm_f16f16_f32", 0, 7, 100, 200, 1));
    buf.append(kernelRecord("stray_kernel", 0, 7, 300, 400, 2));  // launched outside any tagged op
    CuptiDecoder decoder;
    decoder.setPlan(plan);
    buf.decodeInto(decoder);
    const core::Trace t = decoder.finish();
    EXPECT_EQ(decoder.stats().attributedEvents, 1u);
    EXPECT_EQ(decoder.stats().unattributedKernels, 1u);
    EXPECT_EQ(t.metadataValue("cupti.unattributed_kernels"), "1");
}

TEST(CuptiDecoder, RangeWithoutGpuWorkKeepsHostTimesOnTheDefaultRank) {
    ActivityBuffer buf;
    buf.append(marker(1, true, 100, 9, "warm-up"));
    buf.append(marker(1, false, 300, 9));
    CuptiDecoder decoder;
    decoder.setDefaultRank(core::RankId(2));
    buf.decodeInto(decoder);
    const core::Trace t = decoder.finish();
    const core::Rank* r = t.findRank(core::RankId(2));
    ASSERT_NE(r, nullptr);
    ASSERT_EQ(r->ranges.size(), 1u);
    EXPECT_EQ(r->ranges[0].startNs, 100);
    EXPECT_EQ(r->ranges[0].endNs, 300);
}

TEST(CuptiDecoder, UnmatchedMarkersAreCountedAndNotEmitted) {
    ActivityBuffer buf;
    buf.append(marker(1, true, 100, 9, "never closed"));
    buf.append(marker(2, false, 200, 9));
    CuptiDecoder decoder;
    buf.decodeInto(decoder);
    const core::Trace t = decoder.finish();
    EXPECT_TRUE(t.ranks.empty());
    EXPECT_EQ(decoder.stats().unmatchedMarkers, 2u);
    EXPECT_EQ(t.metadataValue("cupti.unmatched_markers"), "2");
}

TEST(CuptiDecoder, DroppedRecordsAreCountedInTheMetadata) {
    ActivityBuffer buf;
    buf.append(kernelRecord("gemm_kernel", 0, 7, 10, 20, 1));
    CuptiDecoder decoder;
    buf.decodeInto(decoder);
    decoder.addDroppedRecords(17);
    decoder.addDroppedRecords(3);
    const core::Trace t = decoder.finish();
    EXPECT_EQ(decoder.stats().droppedRecords, 20u);
    EXPECT_EQ(t.metadataValue("cupti.dropped_records"), "20");
    EXPECT_EQ(t.metadataValue("cupti.kernels"), "1");
}

TEST(CuptiBufferWalk, AnIncompleteRecordEndsTheWalkAndIsCountedNotDropped) {
    CUpti_Activity records[4] = {};
    int at = 0;
    // Three records, then CUPTI cannot step past the fourth (incomplete): the walk reports it.
    const BufferWalk cut = walkActivityBuffer([&](CUpti_Activity** r) {
        if (at == 3) return CUPTI_ERROR_INVALID_KIND;
        *r = &records[at++];
        return CUPTI_SUCCESS;
    });
    EXPECT_EQ(cut.records.size(), 3u);
    EXPECT_TRUE(cut.incomplete);
    at = 0;
    const BufferWalk whole = walkActivityBuffer([&](CUpti_Activity** r) {
        if (at == 4) return CUPTI_ERROR_MAX_LIMIT_REACHED;  // the buffer's normal end
        *r = &records[at++];
        return CUPTI_SUCCESS;
    });
    EXPECT_EQ(whole.records.size(), 4u);
    EXPECT_FALSE(whole.incomplete);

    CuptiDecoder decoder;
    decoder.addIncompleteRecords(cut.incomplete ? 1 : 0);
    decoder.addIncompleteRecords(whole.incomplete ? 1 : 0);
    const core::Trace t = decoder.finish();
    EXPECT_EQ(t.metadataValue("cupti.incomplete_records"), "1");
}

TEST(CuptiDecoder, RecordsWithoutValidTimestampsAreSkippedAndCounted) {
    ActivityBuffer buf;
    buf.append(kernelRecord("gemm_kernel", 0, 7, 0, 20, 1));   // start never written
    buf.append(kernelRecord("gemm_kernel", 0, 7, 50, 40, 2));  // ends before it starts
    buf.append(kernelRecord("gemm_kernel", 0, 7, 60, 70, 3));
    CuptiDecoder decoder;
    buf.decodeInto(decoder);
    const core::Trace t = decoder.finish();
    EXPECT_EQ(onlyStream(t, 0).events.size(), 1u);
    EXPECT_EQ(decoder.stats().invalidTimestamps, 2u);
}

TEST(CuptiDecoder, UnusedRecordKindsAreCountedAndSkipped) {
    CUpti_ActivityAPI driver{};
    driver.kind = CUPTI_ACTIVITY_KIND_DRIVER;
    CUpti_Activity overhead{};
    overhead.kind = CUPTI_ACTIVITY_KIND_OVERHEAD;
    ActivityBuffer buf;
    buf.append(driver);
    buf.append(overhead);
    CuptiDecoder decoder;
    buf.decodeInto(decoder);
    EXPECT_EQ(decoder.stats().otherRecords, 1u);
    EXPECT_EQ(decoder.stats().runtimeCalls, 1u);
}

TEST(CuptiDecoder, GraphReplayedKernelsGetLayerAndBlockRangesFromTheirNodes) {
    const core::DecodePlan plan = smallPlan(1, 1);
    const std::uint32_t qkv = opIndex(plan, core::OpKind::QkvGemm, 0);
    const std::uint32_t down = opIndex(plan, core::OpKind::DownGemm, 0);
    const std::uint32_t qkv1 = opIndex(plan, core::OpKind::QkvGemm, 1);
    CuptiDecoder decoder;
    decoder.setPlan(plan);
    decoder.tagGraphNode(100, qkv);  // original nodes from the captured graph ...
    decoder.tagGraphNode(101, down);
    decoder.tagGraphNode(102, qkv1);
    decoder.aliasGraphNode(900, 100);  // ... cloned when the graph was instantiated
    decoder.aliasGraphNode(901, 101);
    decoder.aliasGraphNode(902, 102);
    auto k1 = kernelRecord("gemm_a", 0, 7, 1'000, 1'100, 50);
    auto k2 = kernelRecord("gemm_b", 0, 7, 1'150, 1'300, 50);
    auto k3 = kernelRecord("gemm_c", 0, 7, 1'350, 1'400, 50);
    k1.graphNodeId = 900;
    k2.graphNodeId = 901;
    k3.graphNodeId = 902;
    ActivityBuffer buf;
    buf.append(k1);
    buf.append(k2);
    buf.append(k3);
    buf.decodeInto(decoder);
    const core::Trace t = decoder.finish();
    const auto& ranges = t.ranks.at(0).ranges;
    ASSERT_EQ(ranges.size(), 5u);  // layer 0 > attention, mlp; layer 1 > attention
    EXPECT_EQ(t.name(ranges[0].name), "layer 0");
    EXPECT_EQ(ranges[0].depth, 1);
    EXPECT_EQ(ranges[0].startNs, 1'000);
    EXPECT_EQ(ranges[0].endNs, 1'300);
    EXPECT_EQ(t.name(ranges[1].name), "attention");
    EXPECT_EQ(ranges[1].endNs, 1'100);
    EXPECT_EQ(t.name(ranges[2].name), "mlp");
    EXPECT_EQ(ranges[2].startNs, 1'150);
    EXPECT_EQ(ranges[2].depth, 2);
    EXPECT_EQ(t.name(ranges[3].name), "layer 1");
    EXPECT_EQ(ranges[3].startNs, 1'350);
    EXPECT_EQ(decoder.stats().attributedEvents, 3u);
}

// Two ranks (devices 0 and 1, host threads 8 and 9) replay a two-node graph twice, each replay under
// a host "step N" range around its cudaGraphLaunch. `kernelCorrelation` gives the id the kernels
// of (rank, replay) carry; the launches are 10 + 2 * replay + rank.
struct GraphRun {
    core::DecodePlan plan = smallPlan(1, 1);
    CuptiDecoder decoder;
    ActivityBuffer buf;
    template <typename Corr>
    explicit GraphRun(Corr kernelCorrelation) {
        decoder.setPlan(plan);
        decoder.mapDevice(0, core::RankId(0));
        decoder.mapDevice(1, core::RankId(1));
        decoder.tagGraphNode(100, opIndex(plan, core::OpKind::QkvGemm, 0));
        decoder.tagGraphNode(101, opIndex(plan, core::OpKind::DownGemm, 0));
        std::uint32_t markerId = 1;
        for (std::uint32_t replay = 0; replay < 2; ++replay) {
            for (std::uint32_t rank = 0; rank < 2; ++rank) {
                const std::uint64_t host = 100 + 1'000 * replay + 10 * rank;
                const std::uint32_t thread = 8 + rank;
                buf.append(marker(markerId, true, host, thread, replay == 0 ? "step 0" : "step 1"));
                buf.append(runtimeCall(thread, host + 1, 10 + 2 * replay + rank));
                buf.append(marker(markerId, false, host + 5, thread));
                ++markerId;
                const std::uint64_t gpu = 5'000 + 1'000 * replay + 7 * rank;
                auto a = kernelRecord("gemm_qkv", rank, 7, gpu, gpu + 100, kernelCorrelation(rank, replay));
                auto b = kernelRecord("gemm_down", rank, 7, gpu + 150, gpu + 400, kernelCorrelation(rank, replay));
                a.graphNodeId = 100;
                b.graphNodeId = 101;
                buf.append(a);
                buf.append(b);
            }
        }
        buf.decodeInto(decoder);
    }
};

std::vector<core::NvtxRange> stepRanges(const core::Trace& t, std::uint32_t rank) {
    std::vector<core::NvtxRange> steps;
    for (const core::NvtxRange& r : t.findRank(core::RankId(rank))->ranges) {
        if (r.depth == 0) steps.push_back(r);
    }
    std::sort(steps.begin(), steps.end(), [](const auto& a, const auto& b) { return a.startNs < b.startNs; });
    return steps;
}

TEST(CuptiDecoder, GraphReplaysUnderTheirOwnLaunchIdsKeepTheProjectedSteps) {
    GraphRun run([](std::uint32_t rank, std::uint32_t replay) { return 10 + 2 * replay + rank; });
    const core::Trace t = run.decoder.finish();
    EXPECT_EQ(t.metadataValue("cupti.graph_correlation_mismatches"), "0");
    EXPECT_EQ(t.metadataValue("cupti.steps_from_graph_nodes"), "0");
    for (std::uint32_t rank = 0; rank < 2; ++rank) {
        const auto steps = stepRanges(t, rank);
        ASSERT_EQ(steps.size(), 2u);
        for (std::uint32_t replay = 0; replay < 2; ++replay) {
            const std::int64_t gpu = 5'000 + 1'000 * replay + 7 * rank;
            EXPECT_EQ(t.name(steps[replay].name), "step " + std::to_string(replay));
            EXPECT_EQ(steps[replay].startNs, gpu);
            EXPECT_EQ(steps[replay].endNs, gpu + 400);
        }
    }
}

TEST(CuptiDecoder, BrokenGraphLaunchCorrelationIsDetectedAndStepsComeFromTheNodes) {
    // CUPTI 13.0/13.1 in a process's second session: every replay's kernels carry one stale id
    // that no launch of this session has. Projection through it would find no GPU work, and the
    // steps would keep host times on the default rank.
    GraphRun run([](std::uint32_t, std::uint32_t) { return 3u; });
    const core::Trace t = run.decoder.finish();
    EXPECT_EQ(t.metadataValue("cupti.graph_correlation_mismatches"), "4");
    EXPECT_EQ(t.metadataValue("cupti.steps_from_graph_nodes"), "4");
    for (std::uint32_t rank = 0; rank < 2; ++rank) {
        const auto steps = stepRanges(t, rank);
        ASSERT_EQ(steps.size(), 2u) << "rank " << rank;
        for (std::uint32_t replay = 0; replay < 2; ++replay) {
            const std::int64_t gpu = 5'000 + 1'000 * replay + 7 * rank;
            EXPECT_EQ(t.name(steps[replay].name), "step " + std::to_string(replay));
            EXPECT_EQ(steps[replay].startNs, gpu);
            EXPECT_EQ(steps[replay].endNs, gpu + 400);
        }
    }
}

TEST(CuptiDecoder, AReplayWhoseKernelsCarryTwoIdsIsAMismatch) {
    // Ids that exist but are crossed (rank 0's second replay carries rank 1's launch id) are caught
    // too: each replay must own one launch id, used by no other replay.
    GraphRun run([](std::uint32_t rank, std::uint32_t replay) { return replay == 1 ? 13u : 10 + rank; });
    const core::Trace t = run.decoder.finish();
    EXPECT_EQ(t.metadataValue("cupti.graph_correlation_mismatches"), "1");
    EXPECT_EQ(stepRanges(t, 0).size(), 2u);
    EXPECT_EQ(stepRanges(t, 1).size(), 2u);
}

}  // namespace
}  // namespace tpscope::gpu
