// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// The Nsight Systems SQLite reader: the two public exports (SOURCES.md reference values), and
// hand-made databases for schema variations across nsys versions.

#include <gtest/gtest.h>
#include <sqlite3.h>

#include "core/analysis/analysis.h"
#include "core/io/import/trace_reader.h"
#include "io_test_util.h"
#include "test_support.h"

namespace tpscope::test {
namespace {

TEST(NsysReader, CloverleafExportMatchesTheReference) {
    const char* file = "pipit-nsys-sqlite/perlmutter-cloverleaf-cuda.sqlite";
    TPSCOPE_REQUIRE_PUBLIC(file);
    core::ImportStats stats;
    auto trace = core::readTrace((publicTraces() / file).string(), {}, &stats);
    ASSERT_TRUE(trace) << trace.error().describe();
    const core::Trace& t = **trace;
    // SOURCES.md: 1312 kernels on deviceId 0, Σ 294404540 ns; par_ranged2d_kernel 331 / 267056876 ns.
    const auto all = tally(t, [](std::string_view) { return true; });
    EXPECT_EQ(all.count, 1312u);
    EXPECT_EQ(all.sumNs, 294404540);
    const auto ranged =
        tally(t, [](std::string_view n) { return n.find("par_ranged2d_kernel") != std::string_view::npos; });
    EXPECT_EQ(ranged.count, 331u);
    EXPECT_EQ(ranged.sumNs, 267056876);
    ASSERT_EQ(t.ranks.size(), 1u);  // four GPUs in TARGET_INFO_GPU, only device 0 ran kernels
    EXPECT_EQ(t.ranks[0].deviceIndex, 0);
    EXPECT_EQ(t.ranks[0].deviceName, "NVIDIA A100-SXM4-80GB");
    EXPECT_EQ(stats.memcpys, 279u);             // 254 HtoD + 25 DtoH
    EXPECT_EQ(stats.cpuRecordsSkipped, 3048u);  // CUPTI_ACTIVITY_KIND_RUNTIME rows
    // Times are ns since the session start (utcEpochNs 1696392839587175550), placed on the epoch.
    EXPECT_GT(t.startNs(), 1696392839587175550LL);
    EXPECT_LT(t.startNs(), 1696392839587175550LL + 60'000'000'000LL);
    EXPECT_EQ(t.metadataValue("format"), "nsys-sqlite");
}

TEST(NsysReader, SaxpyExportOfAnOlderSchemaHasNvtxRangesAndTheMpiRank) {
    const char* file = "pipit-nsys-sqlite/saxpy-mpi-cuda_nsys_perlmutter0.sqlite";
    TPSCOPE_REQUIRE_PUBLIC(file);
    auto trace = core::readTrace((publicTraces() / file).string());
    ASSERT_TRUE(trace) << trace.error().describe();
    const core::Trace& t = **trace;
    const auto all = tally(t, [](std::string_view n) { return n.substr(0, 6) == "saxpy("; });  // demangled
    EXPECT_EQ(all.count, 5u);  // SOURCES.md: 5 saxpy, Σ 88573480 ns
    EXPECT_EQ(all.sumNs, 88573480);
    ASSERT_EQ(t.ranks.size(), 1u);
    EXPECT_EQ(t.ranks[0].id.value, 0u);  // "MPI Rank 0"
    EXPECT_EQ(t.ranks[0].deviceName, "NVIDIA A100-SXM4-40GB");
    // 24 NVTX rows: one domain create (75), one thread name (39), 22 push/pop ranges (59).
    EXPECT_EQ(t.ranks[0].ranges.size(), 22u);
    std::size_t saxpyRanges = 0;
    for (const auto& r : t.ranks[0].ranges) saxpyRanges += t.name(r.name) == "saxpy" ? 1 : 0;
    EXPECT_EQ(saxpyRanges, 5u);  // text ranges; the others take their text from StringIds (textId)
}

TEST(NsysReader, ToleratesMissingColumnsAndTextNames) {
    TempDir dir;
    // No StringIds, no correlationId, names in a TEXT column, no session start, no GPU table.
    const auto path = makeDb(dir, "old.sqlite", R"sql(
      CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL(start INTEGER, end INTEGER, deviceId INTEGER, streamId INTEGER, shortName TEXT);
      INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES(100, 400, 1, 7, 'ncclKernel_AllReduce_RING_LL_Sum_half'),
                                                   (500, 450, 1, 7, 'backwards'), (NULL, 10, 1, 7, 'broken');)sql");
    core::ImportStats stats;
    auto trace = core::readTrace(path.string(), {}, &stats);
    ASSERT_TRUE(trace) << trace.error().describe();
    const auto& ev = (*trace)->ranks.at(0).streams.at(0).events;
    ASSERT_EQ(ev.size(), 2u);
    EXPECT_EQ(ev.kind(0), core::EventKind::Collective);
    EXPECT_EQ((*trace)->payload(ev.payload(0)).collective.dtype, core::Dtype::Fp16);
    EXPECT_EQ(ev.durNs(0), 300);
    EXPECT_EQ(ev.durNs(1), 0);
    EXPECT_EQ(stats.negativeDurations, 1u);
    EXPECT_EQ(stats.badRecords, 1u);
    EXPECT_EQ((*trace)->ranks[0].deviceIndex, 1);
}

TEST(NsysReader, NvtxRangesOfSeveralProcessesGoToTheirOwnGpus) {
    TempDir dir;
    // Two processes (pid 10 on device 0, pid 11 on device 1), each with its MPI rank and one range.
    const auto path = makeDb(dir, "multi.sqlite", R"sql(
      CREATE TABLE StringIds(id INTEGER, value TEXT);
      INSERT INTO StringIds VALUES(1, 'gemm_kernel');
      CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL(start INTEGER, end INTEGER, deviceId INTEGER, streamId INTEGER,
                                              correlationId INTEGER, globalPid INTEGER, demangledName INTEGER);
      INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES(100, 200, 0, 7, 1, 10 << 24, 1), (100, 300, 1, 7, 2, 11 << 24, 1);
      CREATE TABLE NVTX_EVENTS(start INTEGER, end INTEGER, eventType INTEGER, text TEXT, globalTid INTEGER);
      INSERT INTO NVTX_EVENTS VALUES(0, NULL, 39, 'MPI Rank 1', (10 << 24) + 5), (0, NULL, 39, 'MPI Rank 0', (11 << 24) + 6),
                                    (50, 250, 59, 'step a', (10 << 24) + 5), (60, 350, 60, 'step b', (11 << 24) + 6),
                                    (70, NULL, 59, 'open', (11 << 24) + 6);)sql");
    core::ImportStats stats;
    auto trace = core::readTrace(path.string(), {}, &stats);
    ASSERT_TRUE(trace) << trace.error().describe();
    const core::Trace& t = **trace;
    ASSERT_EQ(t.ranks.size(), 2u);
    EXPECT_EQ(t.ranks[0].deviceIndex, 1);  // MPI rank 0 ran on device 1
    EXPECT_EQ(t.ranks[1].deviceIndex, 0);
    ASSERT_EQ(t.ranks[0].ranges.size(), 1u);
    EXPECT_EQ(t.name(t.ranks[0].ranges[0].name), "step b");
    ASSERT_EQ(t.ranks[1].ranges.size(), 1u);
    EXPECT_EQ(t.name(t.ranks[1].ranges[0].name), "step a");
    EXPECT_EQ(stats.unmatchedBegins, 1u);  // the range that never ended
}

TEST(NsysReader, TensorRtLlmForwardStepsMoveOntoTheKernelsTheyLaunched) {
    // Hand-written from TensorRT-LLM's public NVTX step name ("[Executor] _forward_step <i>: <C> ctx reqs,
    // <G> gen reqs"): a prefill step launching two kernels, then a decode step replaying one CUDA graph
    // (both kernels carry the cudaGraphLaunch's correlation 3). Thread (10 << 24) + 5 launches all.
    TempDir dir;
    const auto path = makeDb(dir, "trtllm.sqlite", R"sql(
      CREATE TABLE StringIds(id INTEGER, value TEXT);
      INSERT INTO StringIds VALUES(1, 'sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize64x64x64');
      CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL(start INTEGER, end INTEGER, deviceId INTEGER, streamId INTEGER,
                                              correlationId INTEGER, globalPid INTEGER, demangledName INTEGER);
      INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES(5000, 5400, 0, 7, 1, 10 << 24, 1), (5410, 5900, 0, 7, 2, 10 << 24, 1),
                                                   (9000, 9100, 0, 7, 3, 10 << 24, 1), (9120, 9300, 0, 7, 3, 10 << 24, 1);
      CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME(start INTEGER, end INTEGER, correlationId INTEGER, globalTid INTEGER);
      INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES(110, 120, 1, (10 << 24) + 5), (130, 140, 2, (10 << 24) + 5),
                                                    (2100, 2110, 3, (10 << 24) + 5);
      CREATE TABLE NVTX_EVENTS(start INTEGER, end INTEGER, eventType INTEGER, text TEXT, globalTid INTEGER);
      INSERT INTO NVTX_EVENTS VALUES
        (100, 200, 59, '[Executor] _forward_step 7: 1 ctx reqs, 1 gen reqs', (10 << 24) + 5),
        (2000, 2200, 59, '[Executor] _forward_step 8: 0 ctx reqs, 2 gen reqs', (10 << 24) + 5);)sql");
    core::ImportStats stats;
    auto trace = core::readTrace(path.string(), {}, &stats);
    ASSERT_TRUE(trace) << trace.error().describe();
    EXPECT_EQ(stats.projectedSteps, 2u);
    const auto& ranges = (*trace)->ranks.at(0).ranges;
    ASSERT_EQ(ranges.size(), 2u);
    EXPECT_EQ(ranges[0].startNs, 5000);  // first kernel of correlations 1 and 2
    EXPECT_EQ(ranges[0].endNs, 5900);
    EXPECT_EQ(ranges[1].startNs, 9000);  // the graph's kernels
    EXPECT_EQ(ranges[1].endNs, 9300);
    const auto a = core::analysis::analyzeTrace(**trace);
    ASSERT_EQ(a.summary.steps.size(), 2u);
    EXPECT_EQ(a.summary.steps[0].step, 7);
    EXPECT_TRUE(a.summary.steps[0].prefill);
    EXPECT_EQ(a.summary.steps[1].phase, core::StepPhase::Decode);
    EXPECT_EQ(a.summary.batch, 2);
    EXPECT_TRUE(a.summary.batchKnown);
    EXPECT_DOUBLE_EQ(a.summary.latencyMeanNs, 9300.0 - 9000.0);
}

}  // namespace
}  // namespace tpscope::test
