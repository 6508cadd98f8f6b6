// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include <gtest/gtest.h>

#include "core/hw/catalog.h"
#include "core/sim/collective_model.h"
#include "sim_test_support.h"

namespace tpscope::test {
namespace {

using core::CollectiveAlgo;
using core::CollectiveProto;
using core::sim::CollectiveModel;

// A fabric with round numbers, so expected times are easy to write down.
core::FabricSpec roundFabric() {
    core::FabricSpec f;
    f.id = "round";
    f.name = "round numbers";
    f.linkBytesPerSec = 200e9;
    f.busbwBytesPerSec = 100e9;
    f.baseLatencyNs = 5000;
    f.hopLatencyNs = 500;
    f.maxGpus = 8;
    f.algorithms = {CollectiveAlgo::Ring};
    f.protocols[0] = {5000, 500, 0.5};
    f.protocols[1] = {5000, 1500, 0.9375};
    f.protocols[2] = {8000, 4000, 1.0};
    return f;
}

core::FabricSpec roundNetwork() {
    core::FabricSpec f = roundFabric();
    f.id = "round-net";
    f.scope = core::FabricScope::InterNode;
    f.busbwBytesPerSec = 10e9;
    f.maxGpus = 0;
    f.protocols[0] = {10000, 3000, 0.5};
    f.protocols[1] = {10000, 6000, 0.9375};
    f.protocols[2] = {12000, 9000, 1.0};
    f.algorithms = {CollectiveAlgo::Ring, CollectiveAlgo::Tree};
    return f;
}

TEST(CollectiveModel, RingTimeIsBasePlusStepsTimesHopPlusWireBytesOverBandwidth) {
    auto m = CollectiveModel::create(roundFabric(), std::nullopt, 4, 8);
    ASSERT_TRUE(m) << m.error().describe();
    const std::uint64_t bytes = 8 << 20;
    const double wire = bytes * 2.0 * 3 / 4;
    const auto simple = m->allReduce(bytes, CollectiveAlgo::Ring, CollectiveProto::Simple);
    EXPECT_DOUBLE_EQ(simple.latencyNs, 8000 + 6 * 4000);
    EXPECT_DOUBLE_EQ(simple.bandwidthNs, wire / 100e9 * 1e9);
    const auto ll = m->allReduce(bytes, CollectiveAlgo::Ring, CollectiveProto::LL);
    EXPECT_DOUBLE_EQ(ll.latencyNs, 5000 + 6 * 500);
    EXPECT_DOUBLE_EQ(ll.bandwidthNs, wire / (0.5 * 100e9) * 1e9);
}

TEST(CollectiveModel, SmallMessagesPickLowLatencyLlAndLargeOnesSimple) {
    auto m = CollectiveModel::create(roundFabric(), std::nullopt, 8, 8);
    ASSERT_TRUE(m);
    EXPECT_EQ(m->allReduce(16ULL * 1024).proto, CollectiveProto::LL);
    EXPECT_EQ(m->allReduce(1ULL << 30).proto, CollectiveProto::Simple);
    // The choice is the cheapest candidate.
    for (const std::uint64_t bytes : {1024ULL, 1ULL << 20, 64ULL << 20}) {
        const auto best = m->allReduce(bytes);
        for (const auto& c : m->allReduceCandidates(bytes)) EXPECT_LE(best.timeNs(), c.timeNs());
    }
}

TEST(CollectiveModel, OneRankCostsNothing) {
    auto m = CollectiveModel::create(roundFabric(), std::nullopt, 1, 8);
    ASSERT_TRUE(m);
    EXPECT_EQ(m->allReduce(1 << 20).timeNs(), 0.0);
}

TEST(CollectiveModel, MultiNodeRingIsBoundedByTheInterNodeFabric) {
    const auto intra = roundFabric();
    const auto net = roundNetwork();
    auto m = CollectiveModel::create(intra, net, 16, 8);
    ASSERT_TRUE(m) << m.error().describe();
    EXPECT_EQ(m->nodes(), 2);
    const std::uint64_t bytes = 256ULL << 20;
    const double wire = bytes * 2.0 * 15 / 16;
    // One port per GPU: the node moves 8 x 10 GB/s = 80 GB/s, below NVLink's 100 GB/s.
    const auto ring = m->allReduce(bytes, CollectiveAlgo::Ring, CollectiveProto::Simple);
    EXPECT_DOUBLE_EQ(ring.bandwidthNs, wire / 80e9 * 1e9);
    // 2 (K-1) = 2 of the 30 steps cross the network.
    EXPECT_DOUBLE_EQ(ring.latencyNs, 12000 + 28 * 4000 + 2 * 9000);
    // A faster NVLink changes nothing: the network is the slowest hop.
    auto fasterIntra = intra;
    fasterIntra.busbwBytesPerSec *= 4;
    auto m2 = CollectiveModel::create(fasterIntra, net, 16, 8);
    ASSERT_TRUE(m2);
    EXPECT_DOUBLE_EQ(m2->allReduce(bytes, CollectiveAlgo::Ring, CollectiveProto::Simple).bandwidthNs, ring.bandwidthNs);
    // One port per node: the network bound drops to 10 GB/s.
    auto onePort = net;
    onePort.nicsPerNode = 1;
    auto m3 = CollectiveModel::create(intra, onePort, 16, 8);
    ASSERT_TRUE(m3);
    EXPECT_DOUBLE_EQ(m3->allReduce(bytes, CollectiveAlgo::Ring, CollectiveProto::Simple).bandwidthNs,
                     wire / 10e9 * 1e9);
}

TEST(CollectiveModel, TreeIsOfferedAcrossNodesOnly) {
    auto single = CollectiveModel::create(roundFabric(), roundNetwork(), 8, 8);
    ASSERT_TRUE(single);
    EXPECT_FALSE(single->allReduce(1 << 20, CollectiveAlgo::Tree, CollectiveProto::LL).valid());
    auto multi = CollectiveModel::create(roundFabric(), roundNetwork(), 32, 8);
    ASSERT_TRUE(multi);
    const auto tree = multi->allReduce(1 << 20, CollectiveAlgo::Tree, CollectiveProto::LL);
    ASSERT_TRUE(tree.valid());
    // Chain of 8 inside the node (2 x 7 steps) and a tree of depth log2(4) = 2 across nodes.
    EXPECT_DOUBLE_EQ(tree.latencyNs, 10000 + 14 * 500 + 4 * 3000);
}

TEST(CollectiveModel, NvlsRunsOnlyWithTheSimpleProtocolAtItsOwnBandwidth) {
    auto f = roundFabric();
    f.algorithms = {CollectiveAlgo::Nvls, CollectiveAlgo::Ring};
    f.algorithmParams.push_back({CollectiveAlgo::Nvls, 9000, 1000, 150e9});
    auto m = CollectiveModel::create(f, std::nullopt, 8, 8);
    ASSERT_TRUE(m);
    EXPECT_FALSE(m->allReduce(1 << 20, CollectiveAlgo::Nvls, CollectiveProto::LL).valid());
    const auto nvls = m->allReduce(64 << 20, CollectiveAlgo::Nvls, CollectiveProto::Simple);
    EXPECT_DOUBLE_EQ(nvls.latencyNs, 9000 + 2 * 1000);
    EXPECT_DOUBLE_EQ(nvls.bandwidthNs, (64 << 20) * 2.0 * 7 / 8 / 150e9 * 1e9);
}

TEST(CollectiveModel, OneShotReadsEveryPeerBufferAtLinkBandwidthBetweenTwoBarriers) {
    auto f = roundFabric();
    f.algorithms = {CollectiveAlgo::OneShot, CollectiveAlgo::TwoShot, CollectiveAlgo::Ring};
    auto m = CollectiveModel::create(f, std::nullopt, 8, 8);
    ASSERT_TRUE(m);
    const auto e = m->allReduce(32ULL * 1024, CollectiveAlgo::OneShot, CollectiveProto::Unknown);
    ASSERT_TRUE(e.valid());
    // LL base (kernel start) + a start and an end barrier of one LL hop each.
    EXPECT_DOUBLE_EQ(e.latencyNs, 5000 + 2 * 500);
    EXPECT_DOUBLE_EQ(e.bandwidthNs, 7.0 * 32 * 1024 / 200e9 * 1e9);
    const auto two = m->allReduce(32ULL * 1024, CollectiveAlgo::TwoShot, CollectiveProto::Unknown);
    EXPECT_DOUBLE_EQ(two.latencyNs, 5000 + 3 * 500);
    EXPECT_DOUBLE_EQ(two.bandwidthNs, 2.0 * 7 / 8 * 32 * 1024 / 200e9 * 1e9);
    // One-shot is not NCCL's: the tuner's choice stays among NCCL's algorithms.
    EXPECT_EQ(m->allReduce(32ULL * 1024).algo, CollectiveAlgo::Ring);
}

TEST(CollectiveModel, AllGatherMovesNMinusOneShards) {
    auto m = CollectiveModel::create(roundFabric(), std::nullopt, 4, 8);
    ASSERT_TRUE(m);
    const auto e = m->allGather(1 << 20);
    const double wire = 4.0 * (1 << 20) * 3 / 4;
    double expected = 1e300;
    for (const auto& p : roundFabric().protocols) {
        expected =
            std::min(expected, p.baseLatencyNs + 3 * p.hopLatencyNs + wire / (100e9 * p.bandwidthFraction) * 1e9);
    }
    EXPECT_DOUBLE_EQ(e.timeNs(), expected);
}

TEST(CollectiveModel, BadTopologiesAreClearErrors) {
    EXPECT_FALSE(CollectiveModel::create(roundFabric(), std::nullopt, 16, 8));    // no network
    EXPECT_FALSE(CollectiveModel::create(roundFabric(), roundNetwork(), 12, 8));  // not whole nodes
    EXPECT_FALSE(CollectiveModel::create(roundFabric(), std::nullopt, 12, 16));   // fabric connects 8
    EXPECT_FALSE(CollectiveModel::create(roundNetwork(), std::nullopt, 2, 8));    // network given as intra
    EXPECT_FALSE(CollectiveModel::create(roundFabric(), roundFabric(), 16, 8));   // NVLink given as network
}

TEST(CollectiveModel, BusbwFollowsTheNcclTestsConvention) {
    EXPECT_DOUBLE_EQ(core::sim::algbw(1000, 1000), 1e9);
    EXPECT_DOUBLE_EQ(core::sim::allReduceBusbw(1000, 1000, 8), 1e9 * 2 * 7 / 8);
    EXPECT_DOUBLE_EQ(core::sim::allReduceBusbw(1000, 1000, 1), 0.0);
}

TEST(FabricCatalog, FabricWithoutProtocolsGetsNcclRatioDefaults) {
    core::Catalog c;
    auto s = c.addJson(R"({"fabrics":[{"id":"old-style","link_bytes_per_sec":100e9,"busbw_bytes_per_sec":80e9,
                          "hop_latency_ns":600,"base_latency_ns":6000}]})",
                       "test");
    ASSERT_TRUE(s) << s.error().describe();
    const auto f = *c.fabric("old-style");
    EXPECT_DOUBLE_EQ(f.protocols[0].baseLatencyNs, 6000);
    EXPECT_DOUBLE_EQ(f.protocols[0].hopLatencyNs, 600);
    EXPECT_DOUBLE_EQ(f.protocols[0].bandwidthFraction, 0.5);
    EXPECT_DOUBLE_EQ(f.protocols[1].hopLatencyNs, 3 * 600);
    EXPECT_DOUBLE_EQ(f.protocols[2].baseLatencyNs, 1.3 * 6000);
    EXPECT_DOUBLE_EQ(f.protocols[2].hopLatencyNs, 8 * 600);
    EXPECT_DOUBLE_EQ(f.protocols[2].bandwidthFraction, 1.0);
}

TEST(FabricCatalog, ProtocolsAlgorithmParamsAndPortsAreRead) {
    core::Catalog c;
    auto s = c.addJson(R"({"fabrics":[{"id":"net","scope":"inter-node","link_bytes_per_sec":50e9,
        "busbw_bytes_per_sec":40e9,"hop_latency_ns":1,"base_latency_ns":2,"nics_per_node":4,"through_cpu":true,
        "algorithms":["ring","nvls"],
        "protocols":{"ll":{"base_latency_ns":7,"hop_latency_ns":8,"bandwidth_fraction":0.4}},
        "algorithm_params":{"nvls":{"busbw_bytes_per_sec":9e9}}}]})",
                       "test");
    ASSERT_TRUE(s) << s.error().describe();
    const auto f = *c.fabric("net");
    EXPECT_EQ(f.nicsPerNode, 4);
    EXPECT_EQ(f.protocols[0], (core::ProtocolSpec{7, 8, 0.4}));
    EXPECT_EQ(f.protocols[1].bandwidthFraction, 0.0);  // no LL128 through the CPU
    ASSERT_NE(f.algorithmSpec(CollectiveAlgo::Nvls), nullptr);
    EXPECT_EQ(f.algorithmSpec(CollectiveAlgo::Nvls)->busbwBytesPerSec, 9e9);
    auto bad = c.addJson(R"({"fabrics":[{"id":"x","link_bytes_per_sec":1,"busbw_bytes_per_sec":1,"hop_latency_ns":1,
        "base_latency_ns":1,"protocols":{"ll":{"base_latency_ns":1,"hop_latency_ns":1,"bandwidth_fraction":2}}}]})",
                         "test");
    EXPECT_FALSE(bad);
}

TEST(FabricCatalog, EveryShippedFabricHasASourceForItsFittedValues) {
    for (const auto& f : catalog().fabrics()) {
        for (const char* key : {"busbw_bytes_per_sec", "hop_latency_ns", "base_latency_ns", "link_bytes_per_sec"}) {
            EXPECT_TRUE(f.sources.count(key)) << f.id << " lacks a source for " << key;
        }
    }
}

}  // namespace
}  // namespace tpscope::test
