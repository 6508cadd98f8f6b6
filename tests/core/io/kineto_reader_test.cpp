// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// The Kineto / Chrome JSON reader on small inline fixtures: every mapping rule of kineto_reader.h
// and every counted problem of ImportStats.

#include <gtest/gtest.h>

#include <simdjson.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <initializer_list>
#include <string_view>

#include "core/io/import/json_trace_scanner.h"
#include "core/io/import/kineto_fields.h"
#include "core/io/import/kineto_reader.h"
#include "core/io/import/trace_reader.h"
#include "io_test_util.h"

namespace tpscope::test {
namespace {

struct Imported {
    std::shared_ptr<core::Trace> trace;
    core::ImportStats stats;
};

Imported importText(const std::string& json, const std::string& fileName = "t.json") {
    TempDir dir;
    const auto path = dir / fileName;
    std::ofstream(path) << json;
    Imported out;
    auto trace = core::readTrace(path.string(), {}, &out.stats);
    EXPECT_TRUE(trace) << trace.error().describe();
    if (trace) out.trace = *trace;
    return out;
}

std::string kernel(const std::string& name, const std::string& ts, const std::string& dur,
                   const std::string& extraArgs = "", int stream = 7) {
    return R"({"ph": "X", "cat": "kernel", "name": ")" + name + R"(", "pid": 0, "tid": )" + std::to_string(stream) +
           R"(, "ts": )" + ts + R"(, "dur": )" + dur + R"(, "args": {"device": 0, "stream": )" +
           std::to_string(stream) + R"(, "correlation": 9)" + extraArgs + "}}";
}

// The records, comma-separated, as one {"traceEvents": [...]} document.
std::string traceOf(std::initializer_list<std::string_view> records) {
    std::string json = R"({"traceEvents": [)";
    for (const auto r : records) {
        if (json.back() != '[') json += ',';
        json += r;
    }
    return json += "]}";
}

const core::Stream& onlyStream(const core::Trace& t, std::uint64_t id) {
    const auto* s = t.ranks.at(0).findStream(core::StreamId{id});
    EXPECT_NE(s, nullptr);
    return *s;
}

TEST(KinetoReader, FloatAndIntegerMicrosecondsConvertToExactNanoseconds) {
    const auto in = importText(R"({"traceEvents": [)" + kernel("a", "1000.001", "2.5") + "," +
                               kernel("b", "1694128201438305", "601") + R"(], "baseTimeNanoseconds": 5})");
    const auto& ev = onlyStream(*in.trace, 7).events;
    ASSERT_EQ(ev.size(), 2u);
    EXPECT_EQ(ev.startNs(0), 5 + 1'000'001);  // relative float µs + baseTimeNanoseconds
    EXPECT_EQ(ev.durNs(0), 2'500);
    EXPECT_EQ(ev.startNs(1), 5 + 1'694'128'201'438'305'000LL);  // integer epoch µs
    EXPECT_EQ(ev.durNs(1), 601'000);
    EXPECT_EQ(ev.correlationId(0), 9u);
}

// The reader rounds float µs by hand (no library call): it must give std::llround's value, halves
// away from zero included, and refuse what llround cannot hold.
TEST(KinetoReader, FloatMicrosecondsRoundLikeLlroundHalvesAwayFromZero) {
    // 0.0625 and 0.1875 µs are exactly 62.5 and 187.5 ns: true halves.
    const std::array<double, 16> values = {0.0625,
                                           -0.0625,
                                           0.1875,
                                           -0.1875,
                                           0.0005,
                                           -0.0005,
                                           0.0015,
                                           -0.0025,
                                           1000.001,
                                           2.4999,
                                           4458676400011.056,
                                           -4458676400011.056,
                                           1e15,
                                           4.6e15,
                                           -4.6e15,
                                           1e-9};
    simdjson::dom::parser parser;
    for (const double v : values) {
        char buf[64];
        const int n = std::snprintf(buf, sizeof buf, "[%.17g]", v);
        simdjson::dom::element e;
        ASSERT_EQ(parser.parse(buf, static_cast<std::size_t>(n)).at(0).get(e), simdjson::SUCCESS) << buf;
        const auto ns = core::kineto::microsToNs(e);
        ASSERT_TRUE(ns.has_value()) << buf;
        EXPECT_EQ(*ns, std::llround(e.get_double().value() * 1000.0)) << buf;
    }
    simdjson::dom::element big;
    ASSERT_EQ(parser.parse(std::string_view("[4.7e15]")).at(0).get(big), simdjson::SUCCESS);
    EXPECT_FALSE(core::kineto::microsToNs(big).has_value());  // beyond 2^62 ns
}

TEST(KinetoReader, StringPidsAndTidsAndTheArrayFormatWithoutClosingBracketAreRead) {
    const auto in = importText(R"([{"ph":"X","cat":"kernel","name":"k","pid":"GPU 3","tid":"stream 12","ts":1,"dur":2},
{"ph":"X","cat":"kernel","name":"k","pid":"GPU 3","tid":"stream 12","ts":5,"dur":2},)");
    ASSERT_EQ(in.trace->ranks.size(), 1u);
    EXPECT_EQ(in.trace->ranks[0].deviceIndex, 3);
    EXPECT_EQ(onlyStream(*in.trace, 12).events.size(), 2u);
}

TEST(KinetoReader, KernelArgsOverrideTheNameDerivedCollectiveFields) {
    // The name says all_gather/f32; the args say allreduce of 1024 bf16 elements in a group of 4.
    const auto in =
        importText(R"({"traceEvents": [)" +
                   kernel("ncclDevKernel_AllGather_f32_RING_LL", "10", "5",
                          R"(, "Collective name": "allreduce", "In msg nelems": 1024, "Out msg nelems": 1024,
                                       "Group size": 4, "dtype": "BFloat16", "Process Group Name": "3",
                                       "Process Group Description": "tp_group")",
                          20) +
                   "]}");
    const auto& t = *in.trace;
    const auto& ev = onlyStream(t, 20).events;
    ASSERT_EQ(ev.size(), 1u);
    EXPECT_EQ(ev.kind(0), core::EventKind::Collective);
    const auto& c = t.payload(ev.payload(0)).collective;
    EXPECT_EQ(c.op, core::CollectiveOp::AllReduce);
    EXPECT_EQ(c.dtype, core::Dtype::Bf16);
    EXPECT_EQ(c.algo, core::CollectiveAlgo::Ring);  // kept from the name
    EXPECT_EQ(c.proto, core::CollectiveProto::LL);
    EXPECT_EQ(c.groupSize, 4u);
    EXPECT_EQ(c.bytes, 1024u * 2u);
    EXPECT_EQ(t.name(c.communicator), "tp_group");
    EXPECT_EQ(in.stats.collectivesWithArgs, 1u);
}

TEST(KinetoReader, CollectiveSizeComesFromTheCpuOpWithTheSameExternalId) {
    const auto in = importText(R"({"traceEvents": [
      {"ph": "X", "cat": "cpu_op", "name": "record_param_comms", "pid": 1, "tid": 2, "ts": 1, "dur": 9,
       "args": {"External id": 77, "Collective name": "all_gather", "In msg nelems": 100, "Out msg nelems": 800,
                "dtype": "Float", "Group size": 8}},)" +
                               kernel("ncclDevKernel_Generic", "10", "5", R"(, "External id": 77)", 20) + "]}");
    const auto& t = *in.trace;
    const auto& c = t.payload(onlyStream(t, 20).events.payload(0)).collective;
    EXPECT_EQ(c.op, core::CollectiveOp::AllGather);
    EXPECT_EQ(c.bytes, 800u * 4u);  // nccl-tests size: max(in, out) elements
    EXPECT_EQ(c.groupSize, 8u);
}

TEST(KinetoReader, OldTracesTakeTheSizeFromTheEnclosingNcclAnnotation) {
    const auto in = importText(R"json({"traceEvents": [
      {"ph": "X", "cat": "user_annotation", "name": "nccl:all_reduce", "pid": 1, "tid": 2, "ts": 100, "dur": 50,
       "args": {"External id": 5, "Input Dims": [[4, 28]], "Input type": ["float"]}},
      {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 2, "ts": 120, "dur": 5,
       "args": {"External id": 6, "correlation": 4242}},
      {"ph": "X", "cat": "kernel", "name": "ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)", "pid": 0, "tid": 20,
       "ts": 130, "dur": 70, "args": {"device": 0, "stream": 20, "correlation": 4242}}]})json");
    const auto& t = *in.trace;
    const auto& c = t.payload(onlyStream(t, 20).events.payload(0)).collective;
    EXPECT_EQ(c.op, core::CollectiveOp::AllReduce);
    EXPECT_EQ(c.bytes, 4u * 28u * 4u);
    // The annotation is kept as a range (CPU side) on the rank.
    ASSERT_EQ(t.ranks[0].ranges.size(), 1u);
    EXPECT_EQ(t.name(t.ranks[0].ranges[0].name), "nccl:all_reduce");
}

// Links are collected in file order and resolved at the end: the exact record wins in either order.
TEST(KinetoReader, RecordParamCommsArgsWinOverALauncherWithTheSameExternalIdInEitherOrder) {
    const std::string launcher = R"json(
      {"ph": "X", "cat": "user_annotation", "name": "nccl:all_reduce", "pid": 1, "tid": 2, "ts": 100, "dur": 50,
       "args": {"External id": 77, "Input Dims": [[10]], "Input type": ["float"]}})json";
    const std::string comms = R"json(
      {"ph": "X", "cat": "cpu_op", "name": "record_param_comms", "pid": 1, "tid": 2, "ts": 101, "dur": 9,
       "args": {"External id": 77, "Collective name": "allreduce", "In msg nelems": 100, "dtype": "Float"}})json";
    const std::string k = kernel("ncclDevKernel_Generic", "130", "5", R"(, "External id": 77)", 20);
    const std::array<std::string, 2> orders = {launcher + "," + comms, comms + "," + launcher};
    for (const auto& records : orders) {
        const auto in = importText(traceOf({records, k}));
        const auto& t = *in.trace;
        const auto& c = t.payload(onlyStream(t, 20).events.payload(0)).collective;
        EXPECT_EQ(c.bytes, 100u * 4u) << records;
    }
}

TEST(KinetoReader, ARuntimeLaunchWinsOverAFlowStartWithTheSameCorrelationInEitherOrder) {
    // The launch on thread 2 lies in an all_reduce of 4 x 28 floats; the flow start names thread 3,
    // inside an all_gather of 8 floats. The runtime record is the launch itself: it wins.
    const std::string annotations = R"json(
      {"ph": "X", "cat": "user_annotation", "name": "nccl:all_reduce", "pid": 1, "tid": 2, "ts": 100, "dur": 50,
       "args": {"External id": 5, "Input Dims": [[4, 28]], "Input type": ["float"]}},
      {"ph": "X", "cat": "user_annotation", "name": "nccl:all_gather", "pid": 1, "tid": 3, "ts": 100, "dur": 50,
       "args": {"External id": 6, "Input Dims": [[8]], "Input type": ["float"]}})json";
    const std::string launch = R"json(
      {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 2, "ts": 120, "dur": 5,
       "args": {"correlation": 4242}})json";
    const std::string flow = R"json(
      {"ph": "s", "cat": "ac2g", "name": "ac2g", "id": 4242, "pid": 1, "tid": 3, "ts": 121})json";
    const std::string k = R"json(
      {"ph": "X", "cat": "kernel", "name": "ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)", "pid": 0, "tid": 20,
       "ts": 130, "dur": 70, "args": {"device": 0, "stream": 20, "correlation": 4242}})json";
    const std::array<std::string, 2> orders = {launch + "," + flow, flow + "," + launch};
    for (const auto& records : orders) {
        const auto in = importText(traceOf({annotations, records, k}));
        const auto& t = *in.trace;
        const auto& c = t.payload(onlyStream(t, 20).events.payload(0)).collective;
        EXPECT_EQ(c.bytes, 4u * 28u * 4u) << records;
    }
}

TEST(KinetoReader, SendRecvKernelsTakeTheCollectiveTheirCpuLauncherNames) {
    // NCCL runs all_to_all as SendRecv kernels; the nccl:all_to_all annotation around the launch says
    // which collective it is. The second SendRecv kernel has no launch record and stays send_recv.
    const auto in = importText(R"json({"traceEvents": [
      {"ph": "X", "cat": "user_annotation", "name": "nccl:all_to_all", "pid": 1, "tid": 2, "ts": 100, "dur": 50,
       "args": {"External id": 5, "Input Dims": [[6144]], "Input type": ["float"]}},
      {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 2, "ts": 120, "dur": 5,
       "args": {"External id": 6, "correlation": 4242}},
      {"ph": "X", "cat": "kernel", "name": "ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclDevComm*, unsigned long, ncclWork*)",
       "pid": 0, "tid": 20, "ts": 130, "dur": 70, "args": {"device": 0, "stream": 20, "correlation": 4242}},
      {"ph": "X", "cat": "kernel", "name": "ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclDevComm*, unsigned long, ncclWork*)",
       "pid": 0, "tid": 20, "ts": 300, "dur": 70, "args": {"device": 0, "stream": 20, "correlation": 4343}}]})json");
    const auto& t = *in.trace;
    const auto& ev = onlyStream(t, 20).events;
    ASSERT_EQ(ev.size(), 2u);
    const auto& launched = t.payload(ev.payload(0)).collective;
    EXPECT_EQ(launched.op, core::CollectiveOp::AllToAll);
    EXPECT_EQ(launched.dtype, core::Dtype::Fp32);
    EXPECT_EQ(launched.bytes, 6144u * 4u);
    EXPECT_EQ(t.payload(ev.payload(1)).collective.op, core::CollectiveOp::SendRecv);
}

TEST(KinetoReader, ASendRecvKernelUnderAnAllReduceLauncherStaysSendRecv) {
    // NCCL never runs an all-reduce as SendRecv kernels: the kernel's name wins over the launcher.
    const auto in = importText(R"json({"traceEvents": [
      {"ph": "X", "cat": "user_annotation", "name": "nccl:all_reduce", "pid": 1, "tid": 2, "ts": 100, "dur": 50,
       "args": {"External id": 5, "Input Dims": [[6144]], "Input type": ["float"]}},
      {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 2, "ts": 120, "dur": 5,
       "args": {"External id": 6, "correlation": 4242}},
      {"ph": "X", "cat": "kernel", "name": "ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclDevComm*, unsigned long, ncclWork*)",
       "pid": 0, "tid": 20, "ts": 130, "dur": 70, "args": {"device": 0, "stream": 20, "correlation": 4242}}]})json");
    const auto& ev = onlyStream(*in.trace, 20).events;
    ASSERT_EQ(ev.size(), 1u);
    EXPECT_EQ(in.trace->payload(ev.payload(0)).collective.op, core::CollectiveOp::SendRecv);
}

TEST(KinetoReader, GpuAnnotationsReplaceTheirCpuMirrorsAndNestIntoDepths) {
    const auto in = importText(R"({"traceEvents": [
      {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 2, "ts": 0, "dur": 1000, "args": {"External id": 1}},
      {"ph": "X", "cat": "user_annotation", "name": "## forward ##", "pid": 1, "tid": 2, "ts": 10, "dur": 100, "args": {"External id": 2}},
      {"ph": "X", "cat": "gpu_user_annotation", "name": "ProfilerStep#1", "pid": 0, "tid": 7, "ts": 5, "dur": 990, "args": {"External id": 1}},)" +
                               kernel("k", "20", "3") + "]}");
    const auto& t = *in.trace;
    EXPECT_EQ(in.stats.mirroredAnnotations, 1u);
    const auto& ranges = t.ranks.at(0).ranges;
    ASSERT_EQ(ranges.size(), 2u);
    EXPECT_EQ(t.name(ranges[0].name), "ProfilerStep#1");
    EXPECT_EQ(ranges[0].startNs, 5000);  // the GPU copy
    EXPECT_EQ(ranges[0].depth, 0);
    EXPECT_EQ(t.name(ranges[1].name), "## forward ##");
    EXPECT_EQ(ranges[1].depth, 1);
}

TEST(KinetoReader, ProblemsAreCountedNotFatal) {
    const auto in = importText(R"({"traceEvents": [
      {"ph": "B", "cat": "kernel", "name": "paired", "pid": 0, "tid": 7, "ts": 100, "args": {"stream": 7}},
      {"ph": "E", "pid": 0, "tid": 7, "ts": 130},
      {"ph": "E", "pid": 0, "tid": 8, "ts": 140},
      {"ph": "B", "cat": "kernel", "name": "never ends", "pid": 0, "tid": 9, "ts": 150},
      {"ph": "Z", "name": "what", "pid": 0, "tid": 7, "ts": 1},
      {"ph": "X", "cat": "kernel", "name": "no time", "pid": 0, "tid": 7},
      42,)" + kernel("neg", "200", "-4") +
                               "," + kernel("first", "300", "50") + "," + kernel("overlaps", "320", "10") + "]}");
    const auto& s = in.stats;
    EXPECT_EQ(s.unmatchedEnds, 1u);
    EXPECT_EQ(s.unmatchedBegins, 1u);
    EXPECT_EQ(s.unknownPhases, 1u);
    EXPECT_EQ(s.badRecords, 2u);  // the record without ts, and 42
    EXPECT_EQ(s.negativeDurations, 1u);
    EXPECT_EQ(s.overlappingKernels, 1u);
    EXPECT_FALSE(s.notes.empty());
    const auto& ev = onlyStream(*in.trace, 7).events;
    ASSERT_EQ(ev.size(), 4u);  // paired (from B/E), neg (clamped), first, overlaps
    EXPECT_EQ(in.trace->name(ev.name(0)), "paired");
    EXPECT_EQ(ev.durNs(0), 30'000);
    EXPECT_EQ(ev.durNs(1), 0);
}

TEST(KinetoReader, OneMalformedRecordDoesNotCostItsNeighbours) {
    // Valid JSON structure but invalid UTF-8 inside one name: simdjson rejects that record only.
    std::string bad = kernel("bad\xff", "20", "1");
    const auto in =
        importText(R"({"traceEvents": [)" + kernel("a", "10", "1") + "," + bad + "," + kernel("b", "30", "1") + "]}");
    EXPECT_EQ(onlyStream(*in.trace, 7).events.size(), 2u);
    EXPECT_EQ(in.stats.badRecords, 1u);
}

TEST(KinetoReader, RankComesFromDistributedInfoElseFromTheFileName) {
    TempDir dir;
    std::ofstream(dir / "a.json") << R"({"distributedInfo": {"rank": 5, "world_size": 8}, "traceEvents": [)" +
                                         kernel("k", "1", "1") + "]}";
    std::ofstream(dir / "rank-2.json") << R"({"traceEvents": [)" + kernel("k", "1", "1") + "]}";
    std::ofstream(dir / "notes.txt") << "ignored";
    core::ImportStats stats;
    auto t = core::readTrace(dir.path().string(), {}, &stats);
    ASSERT_TRUE(t) << t.error().describe();
    ASSERT_EQ((*t)->ranks.size(), 2u);
    EXPECT_EQ((*t)->ranks[0].id.value, 2u);
    EXPECT_EQ((*t)->ranks[1].id.value, 5u);
    EXPECT_EQ(stats.files, 2u);
}

TEST(KinetoReader, TwoFilesClaimingOneRankAreRenumberedAndCounted) {
    TempDir dir;
    for (const char* f : {"x.json", "y.json"}) {
        std::ofstream(dir / f) << R"({"distributedInfo": {"rank": 0}, "traceEvents": [)" + kernel("k", "1", "1") + "]}";
    }
    core::ImportStats stats;
    auto t = core::readTrace(dir.path().string(), {}, &stats);
    ASSERT_TRUE(t);
    ASSERT_EQ((*t)->ranks.size(), 2u);
    EXPECT_EQ((*t)->ranks[1].id.value, 1u);
    EXPECT_EQ(stats.rankConflicts, 1u);
}

// The ranks' columns are built one task per rank: the trace and every count must be those of one thread.
TEST(KinetoReader, MergedTraceAndCountsDoNotDependOnTheThreads) {
    TempDir dir;
    for (int r = 0; r < 5; ++r) {
        std::string events;
        for (int i = 0; i < 300; ++i) {
            // Per rank its own names (interned in file order), kernels that overlap their predecessor
            // on one stream, and a step annotation over them.
            events += kernel("gemm_r" + std::to_string(r % 3) + "_" + std::to_string(i % 4), std::to_string(i * 10),
                             i % 50 == 0 ? "25" : "5", "", 7 + i % 2) +
                      ",";
        }
        events +=
            R"({"ph": "X", "cat": "user_annotation", "name": "step 0", "pid": 1, "tid": 1, "ts": 0, "dur": 3000},)";
        // A kernel whose start does not fit the time base: counted as a bad record at the merge.
        events += kernel("late", "1000000000000000", "1");
        std::ofstream(dir / ("rank-" + std::to_string(4 - r) + ".json"))
            << R"({"baseTimeNanoseconds": 4000000000000000000, "traceEvents": [)" + events + "]}";
    }
    auto read = [&](unsigned threads) {
        core::ReadOptions opts;
        opts.threads = threads;
        Imported out;
        auto t = core::readTrace(dir.path().string(), opts, &out.stats);
        EXPECT_TRUE(t) << t.error().describe();
        if (t) out.trace = *t;
        return out;
    };
    const Imported one = read(1);
    ASSERT_TRUE(one.trace);
    ASSERT_EQ(one.trace->ranks.size(), 5u);
    EXPECT_EQ(one.stats.badRecords, 5u);
    EXPECT_GT(one.stats.overlappingKernels, 0u);
    EXPECT_EQ(one.stats.ranges, 5u);
    for (const unsigned threads : {2u, 3u, 8u}) {
        const Imported many = read(threads);
        ASSERT_TRUE(many.trace);
        EXPECT_TRUE(many.trace->sameEvents(*one.trace)) << threads << " threads";
        ASSERT_EQ(many.trace->names.size(), one.trace->names.size());
        for (std::uint32_t n = 0; n < one.trace->names.size(); ++n) {
            EXPECT_EQ(many.trace->name(core::NameId{n}), one.trace->name(core::NameId{n}));
        }
        EXPECT_EQ(many.trace->ranks.front().ranges.size(), one.trace->ranks.front().ranges.size());
        EXPECT_EQ(many.stats.badRecords, one.stats.badRecords);
        EXPECT_EQ(many.stats.overlappingKernels, one.stats.overlappingKernels);
        EXPECT_EQ(many.stats.ranges, one.stats.ranges);
        EXPECT_EQ(many.stats.notes, one.stats.notes);
    }
}

TEST(KinetoReader, ProgressIsReportedAndCancelStopsTheImport) {
    TempDir dir;
    std::string json = R"({"traceEvents": [)";
    for (int i = 0; i < 20000; ++i) json += (i ? "," : "") + kernel("k", std::to_string(i * 10), "5");
    json += "]}";
    std::ofstream(dir / "big.json") << json;
    std::vector<double> seen;
    core::ReadOptions opts;
    opts.control.progress = [&](double f) { seen.push_back(f); };
    auto t = core::readTrace((dir / "big.json").string(), opts);
    ASSERT_TRUE(t);
    ASSERT_FALSE(seen.empty());
    EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end()));
    EXPECT_DOUBLE_EQ(seen.back(), 1.0);

    std::atomic<bool> cancel{true};
    opts.control.cancel = &cancel;
    auto cancelled = core::readTrace((dir / "big.json").string(), opts);
    ASSERT_FALSE(cancelled);
    EXPECT_EQ(cancelled.error().code, core::ErrorCode::Cancelled);
}

TEST(KinetoReader, RecordsSplitAcrossReadBlocksAreReassembled) {
    // Longer than several batches, with long names, so records straddle buffer refills.
    std::string json = R"({"traceEvents": [)";
    const std::string longName(3000, 'n');
    const int n = 4000;
    for (int i = 0; i < n; ++i) {
        json += (i ? ",\n" : "") + kernel(longName + std::to_string(i % 7), std::to_string(i * 10), "5");
    }
    json += R"(], "distributedInfo": {"rank": 3}})";
    ASSERT_GT(json.size(), std::size_t{9} << 20);
    const auto in = importText(json);
    EXPECT_EQ(onlyStream(*in.trace, 7).events.size(), static_cast<std::size_t>(n));
    EXPECT_EQ(in.trace->ranks[0].id.value, 3u);  // a member after traceEvents is still applied
    EXPECT_EQ(in.stats.badRecords, 0u);
}

TEST(KinetoReader, BatchEndsGuessedInsideAnEventFallBackToTheExactScan) {
    // The fast path guesses a batch's end at the last "}, {" in the buffer. Here that text also occurs
    // inside events (a list of objects in args, a string in a name), so guesses land inside events: they
    // must be rejected and those bytes scanned exactly, with every event read once, in order.
    std::string json = R"({"traceEvents": [)";
    const int n = 24000;  // ~5 MB: several buffer refills
    auto nameOf = [](int i) { return i % 3 == 1 ? "f}, {g" + std::to_string(i) : "k" + std::to_string(i); };
    for (int i = 0; i < n; ++i) {
        const std::string extra = i % 3 == 0 ? R"(, "list": [{"a": 1}, {"b": 2}])" : "";
        json += (i ? ",\n" : "") + kernel(nameOf(i), std::to_string(i * 10), "5", extra);
    }
    json += "]}";
    ASSERT_GT(json.size(), 3 * core::JsonTraceScanner::kBatchBytes);
    const auto in = importText(json);
    const auto& ev = onlyStream(*in.trace, 7).events;
    ASSERT_EQ(ev.size(), static_cast<std::size_t>(n));
    for (int i = 0; i < n; i += 997) {
        EXPECT_EQ(ev.startNs(static_cast<std::size_t>(i)) - ev.startNs(0), std::int64_t{i} * 10'000);
        EXPECT_EQ(in.trace->name(ev.name(static_cast<std::size_t>(i))), nameOf(i));
    }
    EXPECT_EQ(in.stats.records, static_cast<std::size_t>(n));
    EXPECT_EQ(in.stats.badRecords, 0u);
}

TEST(KinetoReader, NonObjectElementsInAGuessedBatchAreCountedAsBadRecords) {
    std::string json = R"({"traceEvents": [)";
    const int n = 15000;
    for (int i = 0; i < n; ++i) {
        json += (i ? ", " : "") + kernel("k", std::to_string(i * 10), "5") + (i % 3 == 2 ? ", 42" : "");
    }
    json += "]}";
    ASSERT_GT(json.size(), 2 * core::JsonTraceScanner::kBatchBytes);
    const auto in = importText(json);
    EXPECT_EQ(onlyStream(*in.trace, 7).events.size(), static_cast<std::size_t>(n));
    EXPECT_EQ(in.stats.badRecords, static_cast<std::size_t>(n / 3));  // a 42 after every third kernel
}

}  // namespace
}  // namespace tpscope::test
