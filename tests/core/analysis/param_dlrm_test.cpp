// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Acceptance on a real capture: the 8 Kineto files of one param/DLRM step (V100, NCCL 2.1x,
// shared/traces/public/param-dlrm_kineto-8rank, see SOURCES.md there). The kernels are read here
// with a few lines of simdjson (support/raw_kineto.h: ph "X", cat "kernel") so this test does not wait
// for core/io; once the Kineto importer is merged a twin test reads the folder through it.
// Expected values are computed from the raw timestamps, independently of the analysis.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>

#include "core/analysis/analysis.h"
#include "core/io/import/trace_reader.h"
#include "core/trace/kernel_classifier.h"
#include "support/raw_kineto.h"
#include "test_support.h"

namespace tpscope::core::analysis {
namespace {

constexpr const char* kFolder = "param-dlrm_kineto-8rank";

using test::RawKernel;

std::map<int, std::vector<RawKernel>> readKernels() {
    return test::readRawKernels(test::publicTraces() / kFolder);
}

std::shared_ptr<const Trace> buildTrace(const std::map<int, std::vector<RawKernel>>& kernels) {
    auto trace = std::make_shared<Trace>();
    trace->origin = TraceOrigin::Imported;
    for (const auto& [rank, list] : kernels) {
        auto& s = trace->rank(RankId{static_cast<std::uint32_t>(rank)}).stream(StreamId{7}, "kernels");
        for (const auto& k : list) {
            const auto c = KernelClassifier::builtin().classify(k.name);
            const PayloadId payload =
                c.kind == EventKind::Collective ? trace->intern(Payload::of(c.collective)) : kNoPayload;
            s.events.append({k.startNs, k.endNs - k.startNs, trace->intern(k.name), c.kind, 0, payload});
        }
    }
    trace->finalize();
    return trace;
}

TEST(ParamDlrmTrace, LateRanksAndWaitTransferSplitMatchTheRawTimestamps) {
    TPSCOPE_REQUIRE_PUBLIC(kFolder);
    const auto kernels = readKernels();
    ASSERT_EQ(kernels.size(), 8u);
    // The k-th NCCL kernel of every rank is the k-th call (SOURCES.md: 8 per rank, one stream).
    std::map<int, std::vector<RawKernel>> nccl;
    for (const auto& [rank, list] : kernels) {
        for (const auto& k : list) {
            if (k.name.rfind("ncclKernel_", 0) == 0) nccl[rank].push_back(k);
        }
        ASSERT_EQ(nccl[rank].size(), 8u) << "rank " << rank;
    }
    const auto trace = buildTrace(kernels);
    const auto a = analyzeTrace(*trace);
    const auto& m = a.matching;
    ASSERT_EQ(m.calls.size(), 8u);
    EXPECT_EQ(m.incompleteCalls, 0u);
    std::map<int, std::size_t> lastCount;
    for (std::size_t k = 0; k < 8; ++k) {
        std::int64_t maxStart = INT64_MIN;
        int last = -1;
        std::vector<std::int64_t> ends;
        for (const auto& [rank, list] : nccl) {
            if (list[k].startNs > maxStart) {
                maxStart = list[k].startNs;
                last = rank;
            }
            ends.push_back(list[k].endNs);
        }
        std::sort(ends.begin(), ends.end());
        const std::int64_t median = ends[3] + (ends[4] - ends[3]) / 2;
        ++lastCount[last];
        const auto& call = m.calls[k];
        ASSERT_EQ(call.participantCount, 8u);
        EXPECT_EQ(call.lastStartNs, maxStart) << "call " << k;
        EXPECT_EQ(trace->ranks[call.lastRankIndex].id.value, static_cast<std::uint32_t>(last)) << "call " << k;
        EXPECT_EQ(call.transferNs(), std::max<std::int64_t>(0, median - maxStart)) << "call " << k;
        for (std::uint32_t i = 0; i < call.participantCount; ++i) {
            const auto& p = m.participants[call.firstParticipant + i];
            const auto& raw = nccl.at(static_cast<int>(trace->ranks[p.rankIndex].id.value))[k];
            EXPECT_EQ(participantStartNs(*trace, p), raw.startNs);
            EXPECT_EQ(m.waitNs(call.firstParticipant + i), std::min(maxStart - raw.startNs, raw.endNs - raw.startNs));
        }
    }
    // SOURCES.md: the 2nd all-reduce (7th NCCL call) lasts 601, 601, 572, 602, 70, 20, 602, 468 us on
    // ranks 0..7: ranks 4 and 5 arrive late (5 last) and the rest wait ~580 us for them.
    const auto& ar2 = m.calls[6];
    EXPECT_EQ(ar2.op, CollectiveOp::AllReduce);
    EXPECT_EQ(trace->ranks[ar2.lastRankIndex].id.value, 5u);
    EXPECT_EQ(ar2.transferNs(), 19'500);  // median end 438906.5 us - last start 438887 us
    for (std::uint32_t i = 0; i < ar2.participantCount; ++i) {
        const auto& p = m.participants[ar2.firstParticipant + i];
        const auto rank = trace->ranks[p.rankIndex].id.value;
        if (rank == 0) {
            EXPECT_EQ(m.waitNs(ar2.firstParticipant + i), 582'000);
        } else if (rank == 4) {
            EXPECT_EQ(m.waitNs(ar2.firstParticipant + i), 49'000);
        }
    }
    // The late ranks: 7 arrives last at the first five calls, 5 at two, 4 at the last.
    EXPECT_EQ(lastCount[7], 5u);
    EXPECT_EQ(lastCount[5], 2u);
    EXPECT_EQ(lastCount[4], 1u);
    EXPECT_EQ(a.summary.rankSummaries[7].lastArrivals, 5u);
    EXPECT_EQ(a.summary.slowestRankIndex, 7);
    // No NVTX: the pattern rule found layers, and every row still partitions its wall time.
    for (const auto& row : a.breakdown.rows) {
        const auto& t = row.time;
        EXPECT_EQ(t.computeNs + t.exposedCommNs + t.idleNs, t.wallNs);
    }
}

// The same step read by core/io's Kineto importer (all events, every stream, the files' own pids):
// the matching must find the same calls, late ranks and wait/transfer split as on the raw kernels.
TEST(ParamDlrmTrace, ImportedFolderGivesTheSameSplitAsTheRawTimestamps) {
    TPSCOPE_REQUIRE_PUBLIC(kFolder);
    const auto raw = buildTrace(readKernels());
    const auto imported = readTrace((test::publicTraces() / kFolder).string());
    ASSERT_TRUE(imported.ok()) << imported.error().describe();
    ASSERT_EQ((*imported)->ranks.size(), 8u);
    const auto a = analyzeTrace(*raw);
    const auto b = analyzeTrace(**imported);
    ASSERT_EQ(b.matching.calls.size(), a.matching.calls.size());
    EXPECT_EQ(b.matching.incompleteCalls, 0u);
    for (std::size_t k = 0; k < a.matching.calls.size(); ++k) {
        const auto& ca = a.matching.calls[k];
        const auto& cb = b.matching.calls[k];
        EXPECT_EQ((*imported)->ranks[cb.lastRankIndex].id, raw->ranks[ca.lastRankIndex].id) << "call " << k;
        EXPECT_EQ(cb.transferNs(), ca.transferNs()) << "call " << k;
        EXPECT_EQ(cb.lastStartNs, ca.lastStartNs) << "call " << k;
    }
    EXPECT_EQ((*imported)->ranks[static_cast<std::size_t>(b.summary.slowestRankIndex)].id.value, 7u);
}

}  // namespace
}  // namespace tpscope::core::analysis
