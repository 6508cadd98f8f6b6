// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// core::visibleSpans on one row of 1 M and 10 M events: the level-of-detail cost of one timeline
// row per frame, fully zoomed out and at a mid zoom, for a 1920-pixel row. BM_NvtxBlocks: the NVTX
// block row of one rank of the 100 M-event simulation (15,600 steps of 80 layers of two blocks:
// 2.5 M blocks among 3.8 M ranges), drawn from a copy in EventColumns (source 0, what the timeline
// held until issue 31) and straight from the trace's ranges (source 1, core::NvtxDepthRow).
//
//   build/dev/tests/bench/bench_level_of_detail --benchmark_min_time=0.3

#include <benchmark/benchmark.h>

#include <map>
#include <random>

#include "core/trace/level_of_detail.h"

namespace {

using namespace tpscope::core;

const EventColumns& stream(std::size_t n) {
    static std::map<std::size_t, EventColumns> cache;
    auto it = cache.find(n);
    if (it != cache.end()) return it->second;
    EventColumns c;
    c.reserve(n);
    std::mt19937_64 rng(1);
    std::uniform_int_distribution<std::int64_t> dur(1'000, 30'000);
    std::int64_t now = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const std::int64_t d = dur(rng);
        c.append({now, d, NameId{1}, static_cast<EventKind>(i % 4), 0, kNoPayload});
        now += d + 800;
    }
    c.finalize();
    return cache.emplace(n, std::move(c)).first->second;
}

void BM_VisibleSpans(benchmark::State& state) {
    const auto& c = stream(static_cast<std::size_t>(state.range(0)));
    const std::int64_t full = c.lastEndNs() - c.firstStartNs();
    const std::int64_t span = full / state.range(1);
    const std::int64_t t0 = c.firstStartNs() + (full - span) / 3;
    std::vector<LodSpan> out;
    for (auto _ : state) {
        visibleSpans(c, t0, t0 + span, 1920, out);
        benchmark::DoNotOptimize(out.data());
    }
    state.counters["items"] = static_cast<double>(out.size());
}
// One rank's ranges, decode-shaped: per step 80 layers of an attention and an MLP block, back to back.
const Rank& nvtxRank() {
    static const Rank rank = [] {
        Rank r;
        constexpr int kSteps = 15'600, kLayers = 80;
        r.ranges.reserve(kSteps * (1 + 3 * kLayers));
        std::mt19937_64 rng(2);
        std::uniform_int_distribution<std::int64_t> jitter(0, 20'000);
        std::int64_t now = 0;
        for (int s = 0; s < kSteps; ++s) {
            const std::int64_t stepStart = now;
            for (int l = 0; l < kLayers; ++l) {
                const std::int64_t attn = 150'000 + jitter(rng), mlp = 250'000 + jitter(rng);
                r.ranges.push_back({now, now + attn + mlp, NameId{2}, 1});
                r.ranges.push_back({now, now + attn, NameId{3}, 2});
                r.ranges.push_back({now + attn, now + attn + mlp, NameId{4}, 2});
                now += attn + mlp;
            }
            r.ranges.push_back({stepStart, now, NameId{1}, 0});
            now += 500'000;  // between steps: sampling, host work
        }
        r.ranges.finalize();
        return r;
    }();
    return rank;
}

void BM_NvtxBlocks(benchmark::State& state) {
    const Rank& rank = nvtxRank();
    static const auto index = nvtxDepthIndex(rank, 2);
    static const EventColumns copy = [] {
        EventColumns c;
        const NvtxDepthRow row(nvtxRank().ranges, index[2]);
        for (std::size_t i = 0; i < row.size(); ++i) {
            c.append({row.startNs(i), row.durNs(i), row.name(i), EventKind::Other, 0, kNoPayload});
        }
        c.finalize();
        return c;
    }();
    const NvtxDepthRow row(rank.ranges, index[2]);
    const std::int64_t first = row.startNs(0), full = copy.lastEndNs() - first;
    const std::int64_t span = full / state.range(1);
    const std::int64_t t0 = first + (full - span) / 3;
    std::vector<LodSpan> out;
    for (auto _ : state) {
        if (state.range(0) == 0) {
            visibleSpans(copy, t0, t0 + span, 1920, out);
        } else {
            visibleSpans(row, t0, t0 + span, 1920, out);
        }
        benchmark::DoNotOptimize(out.data());
    }
    state.counters["items"] = static_cast<double>(out.size());
}
BENCHMARK(BM_NvtxBlocks)
    ->Args({0, 1})
    ->Args({1, 1})
    ->Args({0, 1000})
    ->Args({1, 1000})
    ->Args({0, 20000})
    ->Args({1, 20000})
    ->ArgNames({"source", "zoom divisor"})
    ->Unit(benchmark::kMicrosecond);

BENCHMARK(BM_VisibleSpans)
    ->Args({1'000'000, 1})
    ->Args({1'000'000, 1000})
    ->Args({10'000'000, 1})
    ->Args({10'000'000, 1000})
    ->ArgNames({"events", "zoom divisor"})
    ->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
