// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Physical sanity of every shipped intra-node fabric preset at 2-8 GPUs (issue 12): the properties a
// user checks first, over every message size from 8 B to 1 GiB.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "core/sim/allreduce_engine.h"
#include "core/sim/collective_model.h"
#include "sim_test_support.h"

namespace tpscope::test {
namespace {

using core::CollectiveAlgo;
using core::CollectiveProto;
using core::sim::CollectiveModel;

std::vector<std::uint64_t> sizes() {
    std::vector<std::uint64_t> out;
    for (std::uint64_t s = 8; s <= (1ULL << 30); s *= 2) out.push_back(s);
    // Sizes between the powers of two too, where a protocol switch could break monotonicity.
    for (std::uint64_t s = 24; s <= (1ULL << 30); s *= 4) out.push_back(s * 3 / 2);
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<core::FabricSpec> intraPresets() {
    std::vector<core::FabricSpec> out;
    for (const auto& f : catalog().fabrics()) {
        if (f.scope == core::FabricScope::IntraNode) out.push_back(f);
    }
    return out;
}

std::vector<int> gpuCounts(const core::FabricSpec& f) {
    std::vector<int> out;
    for (int n = 2; n <= 8; ++n) {
        if (f.maxGpus == 0 || n <= f.maxGpus) out.push_back(n);
    }
    return out;
}

CollectiveModel model(const core::FabricSpec& f, int n) {
    auto m = CollectiveModel::create(f, std::nullopt, n, n);
    EXPECT_TRUE(m) << f.id << " " << n << ": " << m.error().describe();
    return *m;
}

// Which PCIe preset carries the same GPU generation as an NVLink preset.
double bestRing(const CollectiveModel& m, std::uint64_t bytes);

const char* pcieOf(const std::string& nvlinkId) {
    if (nvlinkId == "nvlink3" || nvlinkId == "nvlink3-pair") return "pcie4";
    if (nvlinkId.rfind("pcie", 0) == 0) return nullptr;
    return "pcie5";  // nvlink4, nvlink4-pair, nvls, nvlink5
}

TEST(CollectiveSanity, ThereAreNvlinkAndPcieIntraNodePresetsToCheck) {
    int nvlink = 0, pcie = 0;
    for (const auto& f : intraPresets()) (f.throughCpu ? pcie : nvlink)++;
    EXPECT_GE(nvlink, 4);
    EXPECT_GE(pcie, 2);
}

TEST(CollectiveSanity, NvlinkIsNeverSlowerThanPcieForTheSameGpuCount) {
    for (const auto& f : intraPresets()) {
        const char* pcieId = pcieOf(f.id);
        if (!pcieId) continue;
        const auto pcie = *catalog().fabric(pcieId);
        for (int n : gpuCounts(f)) {
            const auto nv = model(f, n);
            const auto pc = model(pcie, n);
            for (auto bytes : sizes()) {
                for (auto engine : core::sim::allReduceEngines()) {
                    const double nvNs = core::sim::engineAllReduce(nv, bytes, engine).estimate.timeNs();
                    const double pcNs = core::sim::engineAllReduce(pc, bytes, engine).estimate.timeNs();
                    ASSERT_LE(nvNs, pcNs) << f.id << " vs " << pcieId << ", " << n << " GPUs, " << bytes << " B, "
                                          << core::sim::toString(engine);
                }
            }
        }
    }
}

TEST(CollectiveSanity, RingTimeDoesNotFallAsGpusAreAdded) {
    for (const auto& f : intraPresets()) {
        const auto counts = gpuCounts(f);
        for (auto bytes : sizes()) {
            double previous = 0;
            for (int n : counts) {
                const auto m = model(f, n);
                double best = 1e300;
                for (auto p : {CollectiveProto::LL, CollectiveProto::LL128, CollectiveProto::Simple}) {
                    const auto e = m.allReduce(bytes, CollectiveAlgo::Ring, p);
                    if (e.valid()) best = std::min(best, e.timeNs());
                }
                ASSERT_LT(best, 1e300) << f.id;
                ASSERT_GE(best, previous) << f.id << ", " << n << " GPUs, " << bytes << " B";
                previous = best;
            }
        }
    }
}

double bestRing(const CollectiveModel& m, std::uint64_t bytes) {
    double best = 1e300;
    for (auto p : {CollectiveProto::LL, CollectiveProto::LL128, CollectiveProto::Simple}) {
        const auto e = m.allReduce(bytes, CollectiveAlgo::Ring, p);
        if (e.valid()) best = std::min(best, e.timeNs());
    }
    return best;
}

// The preset's curve (NCCL's choice) and every single algorithm's curve. Engines switch kernels at
// fixed thresholds copied from their sources, so their curve may step at a threshold
// (docs/simulator.md); within each kernel it is monotone because each algorithm's is.
TEST(CollectiveSanity, EveryPresetIsMonotoneInSize) {
    for (const auto& f : intraPresets()) {
        for (int n : gpuCounts(f)) {
            const auto m = model(f, n);
            double previous = 0;
            for (auto bytes : sizes()) {
                const double ns = m.allReduce(bytes).timeNs();
                ASSERT_GE(ns, previous) << f.id << ", " << n << " GPUs, " << bytes << " B";
                previous = ns;
            }
            for (const auto& candidate : m.allReduceCandidates(8)) {
                double last = 0;
                for (auto bytes : sizes()) {
                    const double ns = m.allReduce(bytes, candidate.algo, candidate.proto).timeNs();
                    ASSERT_GE(ns, last) << f.id << " " << core::toString(candidate.algo);
                    last = ns;
                }
            }
        }
    }
}

// One-shot and NVLS are latency algorithms: cheaper than the best ring below a crossover size. The
// crossover is found by walking the sizes; it must exist for one-shot above 2 GPUs (it moves
// (n-1) x S, the ring 2(n-1)/n x S) and lie above the decode all-reduce sizes (16 KiB - 1 MiB)
// for both.
TEST(CollectiveSanity, NvlsAndOneShotBeatTheRingBelowTheirCrossover) {
    int checked = 0;
    for (const auto& f : intraPresets()) {
        for (auto algo : {CollectiveAlgo::OneShot, CollectiveAlgo::Nvls}) {
            if (!f.supports(algo)) continue;
            const auto proto = algo == CollectiveAlgo::Nvls ? CollectiveProto::Simple : CollectiveProto::Unknown;
            for (int n : gpuCounts(f)) {
                const auto m = model(f, n);
                std::uint64_t crossover = 0;
                for (auto bytes : sizes()) {
                    const double ring = bestRing(m, bytes);
                    const double fast = m.allReduce(bytes, algo, proto).timeNs();
                    if (fast >= ring) {
                        crossover = bytes;
                        break;
                    }
                }
                const std::uint64_t beyond = 1ULL << 31;
                if (crossover == 0) crossover = beyond;
                EXPECT_GT(crossover, 16u * 1024) << f.id << " " << core::toString(algo) << " " << n;
                if (algo == CollectiveAlgo::OneShot && n > 2) {
                    EXPECT_LT(crossover, beyond) << f.id << " " << n;
                }
                // Below the crossover it wins at every size, not only at some.
                for (auto bytes : sizes()) {
                    if (bytes >= crossover) break;
                    EXPECT_LT(m.allReduce(bytes, algo, proto).timeNs(), bestRing(m, bytes)) << f.id;
                }
                ++checked;
            }
        }
    }
    EXPECT_GT(checked, 20);
}

}  // namespace
}  // namespace tpscope::test
