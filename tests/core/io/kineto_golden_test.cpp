// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Golden tests on the public real traces (shared/traces/public, see SOURCES.md there): kernel,
// NCCL, all-reduce and GEMM counts and summed durations must equal the reference values computed
// there with a plain Python json parse and the name rules in io_test_util.h. Skipped when absent.

#include <gtest/gtest.h>

#include <algorithm>
#include <array>

#include "core/io/import/trace_reader.h"
#include "io_test_util.h"
#include "support/raw_kineto.h"
#include "test_support.h"

namespace tpscope::test {
namespace {

struct Reference {
    const char* file;
    std::size_t kernels;
    double kernelUs;
    std::size_t nccl;
    double ncclUs;
    std::size_t allReduce;
    double allReduceUs;
    std::size_t gemm;
    double gemmUs;
    int rank;
    const char* gpu;  // "" when the file has no deviceProperties
};

// SOURCES.md "What each trace contains".
const std::array<Reference, 6> kReferences = {{
    {"hta-nccl_parser_config/nccl_data.json.gz", 2700, 162532.34, 21, 46876.493, 15, 46762.159, 498, 38778.451, 0,
     "NVIDIA A100-PG509-200"},
    {"hta-trace_filter/sampled_rank-0.json.gz", 1154, 606519, 10, 396199, 0, 0, 350, 67294, 0, ""},
    {"hta-trace_filter/sampled_rank-1.json.gz", 1104, 651026, 10, 379053, 0, 0, 350, 68677, 1, ""},
    {"hta-trace_diff-control/control.json.gz", 8568, 446813, 60, 163535, 18, 32880, 1752, 77442, 3,
     "NVIDIA A100-PG509-200"},
    {"hta-df_index_resolver/df_index_resolver.json.gz", 19370, 977859, 2020, 357343, 2020, 357343, 2665, 400891, 1,
     "Tesla V100-SXM2-32GB"},
    {"tracelens-h100-qwen/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz", 1465, 45432.698, 0, 0, 0, 0, 242, 12793.438, 0,
     "NVIDIA H100 80GB HBM3"},
}};

// A failing case names its trace instead of printing the struct's bytes.
void PrintTo(const Reference& r, std::ostream* os) {  // NOLINT(readability-identifier-naming): gtest looks up PrintTo
    *os << r.file;
}

class KinetoGolden : public ::testing::TestWithParam<Reference> {};

TEST_P(KinetoGolden, CountsAndDurationsEqualTheReference) {
    const Reference& ref = GetParam();
    TPSCOPE_REQUIRE_PUBLIC(ref.file);
    core::ImportStats stats;
    auto trace = core::readTrace((publicTraces() / ref.file).string(), {}, &stats);
    ASSERT_TRUE(trace) << trace.error().describe();
    const core::Trace& t = **trace;

    const auto all = tally(t, [](std::string_view) { return true; });
    const auto nccl = tally(t, referenceNccl);
    const auto allReduce = tally(t, referenceAllReduce);
    const auto gemm = tally(t, referenceGemm);
    EXPECT_EQ(all.count, ref.kernels);
    EXPECT_NEAR(all.sumUs(), ref.kernelUs, 0.01);
    EXPECT_EQ(nccl.count, ref.nccl);
    EXPECT_NEAR(nccl.sumUs(), ref.ncclUs, 0.01);
    EXPECT_EQ(allReduce.count, ref.allReduce);
    EXPECT_NEAR(allReduce.sumUs(), ref.allReduceUs, 0.01);
    EXPECT_EQ(gemm.count, ref.gemm);
    EXPECT_NEAR(gemm.sumUs(), ref.gemmUs, 0.01);
    EXPECT_EQ(stats.kernels, ref.kernels);

    // Our classifier: every NCCL kernel (and nothing else here) is a collective.
    EXPECT_EQ(countKind(t, core::EventKind::Collective), ref.nccl);
    // Every reference GEMM is a GEMM for us too. The classifier's rules are wider on purpose
    // (resources/kernel_rules.json matches "Gemm", "cublasLt", "cutlass"): cuBLAS split-K reductions
    // and epilogues (cublasLt::splitKreduce_kernel, epilogue::impl::globalKernel<..Gemm..>) and
    // gemv kernels (cublasGemv...) belong to the GEMM's time, so it may count a few more.
    const auto gemmBoth = tally(t, [&](std::string_view name) { return referenceGemm(name); });
    std::size_t classifiedGemmAmongReference = 0;
    for (const auto& r : t.ranks) {
        for (const auto& s : r.streams) {
            for (std::size_t i = 0; i < s.events.size(); ++i) {
                if (referenceGemm(t.name(s.events.name(i))) && s.events.kind(i) == core::EventKind::Gemm) {
                    ++classifiedGemmAmongReference;
                }
            }
        }
    }
    EXPECT_EQ(classifiedGemmAmongReference, gemmBoth.count);
    EXPECT_GE(countKind(t, core::EventKind::Gemm), ref.gemm);

    ASSERT_EQ(t.ranks.size(), 1u);
    EXPECT_EQ(t.ranks[0].id.value, static_cast<std::uint32_t>(ref.rank));
    EXPECT_EQ(t.ranks[0].deviceName, ref.gpu);
    EXPECT_EQ(t.origin, core::TraceOrigin::Imported);
}

INSTANTIATE_TEST_SUITE_P(PublicTraces, KinetoGolden, ::testing::ValuesIn(kReferences),
                         [](const ::testing::TestParamInfo<Reference>& p) {
                             std::string name = std::filesystem::path(p.param.file).filename().string();
                             name = name.substr(0, name.find('.'));
                             std::replace_if(
                                 name.begin(), name.end(), [](char c) { return !std::isalnum(c); }, '_');
                             return name;
                         });

TEST(KinetoGolden, NewestSchemaCarriesCollectivePayloadFromKernelArgs) {
    TPSCOPE_REQUIRE_PUBLIC("hta-nccl_parser_config/nccl_data.json.gz");
    auto trace = core::readTrace((publicTraces() / "hta-nccl_parser_config/nccl_data.json.gz").string());
    ASSERT_TRUE(trace) << trace.error().describe();
    const core::Trace& t = **trace;
    // ts are float µs relative to baseTimeNanoseconds 1711964646000000000 (2024-04-01).
    EXPECT_GT(t.startNs(), 1711964646000000000LL);
    EXPECT_LT(t.startNs(), 1711964646000000000LL + 10'000'000'000'000'000LL);
    EXPECT_EQ(t.metadataValue("world_size"), "2");
    std::size_t withSize = 0;
    bool sawKnownMessage = false;
    for (const auto& s : t.ranks.at(0).streams) {
        for (std::size_t i = 0; i < s.events.size(); ++i) {
            if (!referenceAllReduce(t.name(s.events.name(i)))) continue;
            const auto& c = t.payload(s.events.payload(i)).collective;
            EXPECT_EQ(s.id.value, 40u);  // NCCL runs on stream 40
            EXPECT_EQ(c.op, core::CollectiveOp::AllReduce);
            EXPECT_EQ(c.dtype, core::Dtype::Fp32);
            EXPECT_EQ(c.groupSize, 2u);
            EXPECT_EQ(t.name(c.communicator), "default_pg");
            withSize += c.bytes > 0 ? 1 : 0;
            sawKnownMessage =
                sawKnownMessage || c.bytes == std::uint64_t{6637568} * 4;  // "In msg nelems": 6637568, Float
        }
    }
    EXPECT_EQ(withSize, 15u);
    EXPECT_TRUE(sawKnownMessage);
    EXPECT_NE(t.ranks[0].findStream(core::StreamId{7}), nullptr);
    EXPECT_GE(t.ranks[0].ranges.size(), 30u);  // 30 gpu_user_annotation ranges at least
}

TEST(KinetoGolden, EightParamRanksMergeOntoOneTimelineWithTheLateRanksVisible) {
    TPSCOPE_REQUIRE_PUBLIC("param-dlrm_kineto-8rank");
    core::ImportStats stats;
    auto trace = core::readTrace((publicTraces() / "param-dlrm_kineto-8rank").string(), {}, &stats);
    ASSERT_TRUE(trace) << trace.error().describe();
    const core::Trace& t = **trace;
    ASSERT_EQ(t.ranks.size(), 8u);
    EXPECT_EQ(stats.files, 8u);
    EXPECT_EQ(stats.rankConflicts, 0u);
    // Per-rank kernel counts and the 2nd all-reduce's duration, read from the raw files with simdjson
    // (support/raw_kineto.h), independently of the importer.
    const auto raw = readRawKernels(publicTraces() / "param-dlrm_kineto-8rank");
    ASSERT_EQ(raw.size(), 8u);
    std::vector<std::int64_t> starts, ends;
    for (std::uint32_t r = 0; r < 8; ++r) {
        const core::Rank& rank = t.ranks[r];
        EXPECT_EQ(rank.id.value, r);
        EXPECT_EQ(rank.deviceIndex, static_cast<int>(r));  // GPU pid = device index = rank
        EXPECT_EQ(rank.deviceName, "Tesla V100-SXM2-32GB");
        std::size_t kernels = 0, nccl = 0, sendRecvKernels = 0, allToAll = 0;
        std::vector<std::pair<std::int64_t, std::pair<std::int64_t, core::PayloadId>>> allReduces;
        for (const auto& s : rank.streams) {
            for (std::size_t i = 0; i < s.events.size(); ++i) {
                if (!isKernel(s.events.kind(i))) continue;
                ++kernels;
                const auto name = t.name(s.events.name(i));
                nccl += referenceNccl(name) ? 1 : 0;
                if (name.find("SendRecv") != std::string_view::npos) {
                    ++sendRecvKernels;
                    // Launched inside nccl:all_to_all annotations: all_to_all, not send_recv.
                    if (t.payload(s.events.payload(i)).collective.op == core::CollectiveOp::AllToAll) ++allToAll;
                }
                if (referenceAllReduce(name)) {
                    allReduces.push_back({s.events.startNs(i), {s.events.durNs(i), s.events.payload(i)}});
                }
            }
        }
        const auto& rawKernels = raw.at(static_cast<int>(r));
        EXPECT_EQ(kernels, rawKernels.size()) << "rank " << r;
        EXPECT_EQ(nccl, 8u) << "rank " << r;
        const auto rawSendRecv = std::count_if(rawKernels.begin(), rawKernels.end(), [](const RawKernel& k) {
            return k.name.find("SendRecv") != std::string::npos;
        });
        EXPECT_EQ(sendRecvKernels, static_cast<std::size_t>(rawSendRecv)) << "rank " << r;
        EXPECT_GT(sendRecvKernels, 0u) << "rank " << r;
        EXPECT_EQ(allToAll, sendRecvKernels) << "rank " << r;
        ASSERT_EQ(allReduces.size(), 3u) << "rank " << r;
        std::sort(allReduces.begin(), allReduces.end());
        const auto& second = allReduces[1];
        std::vector<RawKernel> rawAllReduces;
        for (const auto& k : rawKernels) {
            if (referenceAllReduce(k.name)) rawAllReduces.push_back(k);
        }
        ASSERT_EQ(rawAllReduces.size(), 3u) << "rank " << r;
        EXPECT_EQ(second.first, rawAllReduces[1].startNs) << "rank " << r;
        EXPECT_EQ(second.second.first, rawAllReduces[1].endNs - rawAllReduces[1].startNs) << "rank " << r;
        // Old trace: the size comes from the nccl:all_reduce annotation around the launch.
        const auto& payload = t.payload(second.second.second).collective;
        EXPECT_EQ(payload.bytes, 112u * 4u) << "rank " << r;
        EXPECT_EQ(payload.dtype, core::Dtype::Fp32);
        starts.push_back(second.first);
        ends.push_back(second.first + second.second.first);
    }
    // One clock: the kernels all end within a few µs, and ranks 4 and 5 start > 400 µs late.
    EXPECT_LE(*std::max_element(ends.begin(), ends.end()) - *std::min_element(ends.begin(), ends.end()), 5000);
    EXPECT_GT(starts[4] - starts[0], 400'000);
    EXPECT_GT(starts[5] - starts[0], 400'000);
}

}  // namespace
}  // namespace tpscope::test
